import { DownloadOutlined } from '@ant-design/icons';
import { AUDIT_KINDS, StaffMsg, type AuditKind, type AuditRow } from '@studio/contract';
import { App, Button, Card, DatePicker, Form, Input, Select, Table, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { keys } from '../../shared/query-keys.ts';
import { useSearchParams } from '../../shared/router.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import { useWrite } from '../../shared/use-write.ts';
import { useStaffList } from '../staff/index.ts';
import { changeLines } from './changes.ts';
import {
  AUDIT_EXPORT_MAX,
  AUDIT_PAGE_SIZE,
  fetchAuditForExport,
  useAuditLog,
  useUndoBulkChange,
  useUndoPreview,
  type AuditFilter,
} from './hooks.ts';
import { UndoPreviewContent } from './undo-preview.tsx';

const D = 'YYYY-MM-DD';
const KIND_COLOR: Partial<Record<AuditKind, string>> = {
  session: 'blue',
  booking: 'cyan',
  bulk: 'purple',
  card: 'gold',
  member: 'green',
  settings: 'magenta',
  staff: 'volcano',
};
const KIND_OPTIONS = (Object.entries(AUDIT_KINDS) as [AuditKind, string][]).map(([value, label]) => ({ value, label }));

/** The changed fields, one line each (long lists fold). */
function Changes({ row }: { row: AuditRow }) {
  const lines = changeLines(row.before, row.after);
  if (!lines.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Typography.Paragraph
      style={{ whiteSpace: 'pre-line', marginBottom: 0, fontSize: 13 }}
      ellipsis={{ rows: 5, expandable: 'collapsible', symbol: (open) => (open ? '收起' : '展开') }}
      data-testid="audit-changes"
    >
      {lines.join('\n')}
    </Typography.Paragraph>
  );
}

/**
 * /audit/log (店长): who did what and when: by date range (the last 7 days first), staff member,
 * member (name or mobile), kind and, from a session's drawer, that session; 20 a page; undo of a
 * bulk change still undoable; export of the filter to .xlsx.
 */
export default function AuditLogPage() {
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sessionId = Number(params.get('session')) || null;
  // The last seven days of the store's calendar (its clock, not the browser's).
  const clock = useStoreClock();
  const [range, setRange] = useState(() => ({
    fromDate: clock.day().subtract(6, 'day').format(D),
    toDate: clock.today(),
  }));
  const [staffId, setStaffId] = useState<number | null>(null);
  const [kind, setKind] = useState<AuditKind | null>(null);
  const [memberKeyword, setMemberKeyword] = useState('');
  const [page, setPage] = useState(1);
  const filter: AuditFilter = { ...range, staffId, kind, memberKeyword: memberKeyword || null, sessionId };
  const q = useAuditLog(filter, page);
  const staff = useStaffList();

  const refine =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const undo = useUndoBulkChange((msg) => {
    // Whatever refused it (expired, undone elsewhere, changed since) shows on the entry when asked again.
    void qc.invalidateQueries({ queryKey: keys.audit.all });
    modal.error({ title: '撤销未完成', content: msg, okText: '知道了' });
  });
  const refused = (msg: string) => {
    void qc.invalidateQueries({ queryKey: keys.audit.all });
    modal.error({ title: '撤销这次批量操作', content: msg, okText: '知道了' });
  };
  const preview = useUndoPreview(refused);
  const [asking, setAsking] = useState<number | null>(null);
  // The confirm says what the undo returns: the server runs it as a dry run first (nothing written).
  const askUndo = async (r: AuditRow) => {
    setAsking(r.id);
    const p = await preview.run(r.id);
    setAsking(null);
    if (!p) return;
    modal.confirm({
      title: '撤销这次批量操作？',
      width: 600,
      content: (
        <>
          <p>
            {r.time.slice(0, 16)} {r.staff}：{r.summary}
          </p>
          <p>撤销后恢复到这次操作之前的状态：</p>
          <UndoPreviewContent p={p.data} />
          <p style={{ marginTop: 8, color: 'rgba(0,0,0,0.65)' }}>只能撤销24小时内、之后没有相关变动的批量操作。</p>
        </>
      ),
      okText: '撤销',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => undo.run(r.id),
    });
  };

  const exporting = useWrite(async () => {
    const all = await fetchAuditForExport(filter);
    if (!all.list.length) {
      void message.info('没有可导出的记录');
      return;
    }
    const { exportAuditRows } = await import('./export.ts');
    await exportAuditRows(all.list, filter.fromDate, filter.toDate);
    if (all.total > all.list.length)
      void message.warning(`记录较多，只导出了最近的 ${AUDIT_EXPORT_MAX} 条，请缩小日期范围`);
  });

  return (
    <Card
      title="操作日志"
      extra={
        <Button icon={<DownloadOutlined />} loading={exporting.loading} onClick={() => void exporting.run()}>
          导出
        </Button>
      }
    >
      <Form layout="inline" style={{ marginBottom: 16, rowGap: 8 }} data-testid="audit-filters">
        <Form.Item label="日期">
          <DatePicker.RangePicker
            allowClear={false}
            value={[dayjs(range.fromDate), dayjs(range.toDate)]}
            disabledDate={(d) => d.format(D) > clock.today()}
            onChange={(v) => {
              if (!v?.[0] || !v[1]) return;
              if (v[1].diff(v[0], 'day') > 365) return void message.error(StaffMsg.auditRangeTooLong);
              refine(setRange)({ fromDate: v[0].format(D), toDate: v[1].format(D) });
            }}
          />
        </Form.Item>
        <Form.Item label="员工">
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="全部员工"
            style={{ width: 150 }}
            value={staffId}
            onChange={(v) => refine(setStaffId)(v ?? null)}
            loading={staff.isPending}
            options={(staff.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            data-testid="audit-staff"
            aria-label="员工"
          />
        </Form.Item>
        <Form.Item label="会员">
          <Input.Search
            allowClear
            placeholder="姓名或手机号"
            style={{ width: 200 }}
            maxLength={32}
            onSearch={(v) => refine(setMemberKeyword)(v.trim())}
            data-testid="audit-member"
          />
        </Form.Item>
        <Form.Item label="类别">
          <Select
            allowClear
            placeholder="全部类别"
            style={{ width: 130 }}
            value={kind}
            onChange={(v) => refine(setKind)(v ?? null)}
            options={KIND_OPTIONS}
            data-testid="audit-kind"
            aria-label="类别"
          />
        </Form.Item>
        {sessionId && (
          <Form.Item>
            <Tag
              closable
              color="blue"
              onClose={() =>
                setParams((p) => {
                  const n = new URLSearchParams(p);
                  n.delete('session');
                  return n;
                })
              }
            >
              只看这节课的记录
            </Tag>
          </Form.Item>
        )}
      </Form>
      <Table<AuditRow>
        rowKey="id"
        size="middle"
        data-testid="audit-table"
        loading={q.isFetching}
        dataSource={q.data?.list ?? []}
        locale={{ emptyText: '这段时间没有符合条件的操作记录' }}
        pagination={{
          current: page,
          pageSize: AUDIT_PAGE_SIZE,
          total: q.data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (n) => `共 ${n} 条`,
          onChange: setPage,
        }}
        columns={[
          { title: '时间', dataIndex: 'time', width: 150, render: (v: string) => v.slice(0, 16) },
          { title: '操作人', dataIndex: 'staff', width: 120 },
          {
            title: '类别',
            dataIndex: 'kind',
            width: 90,
            render: (k: AuditKind) => <Tag color={KIND_COLOR[k]}>{AUDIT_KINDS[k] ?? k}</Tag>,
          },
          { title: '对象', dataIndex: 'target', width: 200 },
          { title: '内容', dataIndex: 'summary' },
          { title: '变更', key: 'changes', width: 280, render: (_, r) => <Changes row={r} /> },
          {
            title: '操作',
            key: 'op',
            width: 110,
            render: (_, r) =>
              r.undoneTime ? (
                <Tag title={`撤销于 ${r.undoneTime}`} data-testid="audit-undone">
                  已撤销 {r.undoneTime.slice(5, 16)}
                </Tag>
              ) : r.undoable ? (
                <Button size="small" danger loading={asking === r.id} onClick={() => void askUndo(r)}>
                  撤销
                </Button>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
