import { PROVIDER_LABEL, RECONCILE_KIND_LABEL, type ReconcileKind, type ReconcileResult } from '@studio/contract';
import { Alert, Button, DatePicker, Empty, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { yuan } from '../../shared/format.ts';
import { useStoreClock } from '../../shared/store-time.ts';
import { useReconcile, useRunReconcile } from './desk-pay-hooks.ts';

const D = 'YYYY-MM-DD';
const KIND_COLOR: Record<ReconcileKind, string> = {
  provider_only: 'orange',
  local_only: 'red',
  amount: 'purple',
  refund_provider_only: 'orange',
  refund_local_only: 'red',
  refund_amount: 'purple',
};
type Difference = ReconcileResult['differences'][number];

function Outcome({ r }: { r: ReconcileResult }) {
  const title = PROVIDER_LABEL[r.provider];
  if (r.status === 'none') return <Alert type="info" showIcon message={`${title}：这一天还没有对账`} />;
  if (r.status === 'running') return <Alert type="info" showIcon message={`${title}：正在对账……`} />;
  if (r.status === 'failed')
    return <Alert type="error" showIcon message={`${title}：对账失败`} description={r.error} />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Alert
        type={r.differences.length ? 'warning' : 'success'}
        showIcon
        message={`${title}：两边一致 ${r.matched} 笔，差异 ${r.differences.length} 处`}
        description={`对账时间 ${r.finishedAt?.slice(0, 16) ?? ''}。差异只列出、不会被自动改动；渠道有而本店未到账的订单，经渠道查询确认后补发。`}
      />
      {r.differences.length > 0 && (
        <Table<Difference>
          rowKey={(d) => `${d.orderNo}/${d.refundNo ?? ''}`}
          size="small"
          pagination={false}
          data-testid={`reconcile-${r.provider}`}
          dataSource={r.differences}
          columns={[
            {
              title: '订单号',
              dataIndex: 'orderNo',
              render: (v: string, d: Difference) => (d.refundNo ? `${v}（退款 ${d.refundNo}）` : v),
            },
            {
              title: '差异',
              dataIndex: 'kind',
              width: 150,
              render: (k: ReconcileKind) => <Tag color={KIND_COLOR[k]}>{RECONCILE_KIND_LABEL[k]}</Tag>,
            },
            {
              title: '本店金额（元）',
              dataIndex: 'local',
              width: 130,
              align: 'right',
              render: (v: number | null) => (v === null ? '-' : yuan(v)),
            },
            {
              title: '渠道金额（元）',
              dataIndex: 'provider',
              width: 130,
              align: 'right',
              render: (v: number | null) => (v === null ? '-' : yuan(v)),
            },
            { title: '处理', dataIndex: 'action', render: (v: string | null) => v ?? '请核实' },
          ]}
        />
      )}
    </Space>
  );
}

/** 对账 (店长): a day's provider bills matched order by order; the morning job does yesterday by itself. */
export default function ReconcileTab() {
  const clock = useStoreClock();
  const [date, setDate] = useState(clock.day().subtract(1, 'day').format(D));
  const q = useReconcile(date);
  const run = useRunReconcile();
  const list = q.data?.list ?? [];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <span>对账日期</span>
        <DatePicker
          allowClear={false}
          value={dayjs(date)}
          disabledDate={(d) => !d.isBefore(clock.day(), 'day')}
          onChange={(d) => d && setDate(d.format(D))}
          aria-label="对账日期"
        />
        <Button type="primary" loading={run.loading} disabled={!list.length} onClick={() => void run.run(date)}>
          重新对账
        </Button>
        <Typography.Text type="secondary">每天 10:00 后自动核对前一天的账单</Typography.Text>
      </Space>
      {q.data && !list.length && <Empty description="本店还没有开通在线收款，没有账单可对" />}
      {list.map((r) => (
        <Outcome key={r.provider} r={r} />
      ))}
    </Space>
  );
}
