import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Table, type TableColumnsType } from 'antd';
import { downloadSheet, type SheetColumn } from '../../shared/xlsx.ts';
import { Chart, type ChartOption } from './chart.tsx';
import type { Range } from './hooks.ts';

/** A table's columns and the same columns in the exported sheet. */
export interface Column<T> {
  title: string;
  value: (r: T) => string | number;
  width?: number;
}

/** One report of a range: an 导出Excel of its table (the same columns), its chart, then the table. */
export function ReportSection<T extends object>(props: {
  name: string;
  range: Range;
  chart: ChartOption | null;
  rows: T[] | undefined;
  columns: Column<T>[];
  rowKey: (r: T) => string | number;
  loading: boolean;
  testId: string;
  /** What an empty table says (default: no classes in the range). */
  empty?: string;
  /** The exported file's name (default: the report's name and its range). */
  fileName?: string;
}) {
  const { name, range, rows = [], columns } = props;
  const tableColumns: TableColumnsType<T> = columns.map((c) => ({
    title: c.title,
    key: c.title,
    render: (_, r) => c.value(r),
  }));
  const exportSheet = () =>
    downloadSheet(
      props.fileName ?? `${name}${range.fromDate}至${range.toDate}`,
      name,
      columns.map((c): SheetColumn => ({ header: c.title, width: c.width })),
      rows.map((r) => columns.map((c) => c.value(r))),
    );
  return (
    <div data-testid={props.testId}>
      <Space style={{ width: '100%', justifyContent: 'flex-end', marginBottom: 8 }}>
        <Button icon={<DownloadOutlined />} disabled={!rows.length} onClick={exportSheet}>
          导出Excel
        </Button>
      </Space>
      {props.chart && <Chart option={props.chart} testId={`${props.testId}-chart`} />}
      <Table<T>
        size="small"
        rowKey={props.rowKey}
        loading={props.loading}
        dataSource={rows}
        columns={tableColumns}
        pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        locale={{ emptyText: props.empty ?? '这段时间没有课程' }}
      />
    </div>
  );
}
