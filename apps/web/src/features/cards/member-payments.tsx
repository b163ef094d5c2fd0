import { PAY_METHODS, PAYMENT_KINDS, type PayMethod, type PaymentRow } from '@studio/contract';
import { Table, Tag } from 'antd';
import { yuan } from '../../shared/format.ts';
import { useMemberPayments } from './hooks.ts';

const KIND_COLORS: Record<string, string> = { sale: 'green', topup: 'cyan', refund: 'red' };

/** A member's money at the desk: card sales, top-ups and refunds, with method and seller. */
export function MemberPayments({ memberId }: { memberId: number }) {
  const q = useMemberPayments(memberId);
  const rows = q.data ?? [];
  const net = rows.reduce((sum, r) => sum + (r.kind === 'refund' ? -r.amount : r.amount), 0);
  return (
    <Table<PaymentRow>
      rowKey="id"
      size="small"
      loading={q.isFetching}
      dataSource={rows}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      data-testid="member-payments"
      locale={{ emptyText: '暂无收款记录' }}
      footer={rows.length ? () => `实收合计：${yuan(net)} 元` : undefined}
      columns={[
        { title: '时间', dataIndex: 'createdAt', width: 150, render: (v: string) => v.slice(0, 16) },
        {
          title: '类型',
          dataIndex: 'kind',
          width: 80,
          render: (k: keyof typeof PAYMENT_KINDS) => <Tag color={KIND_COLORS[k]}>{PAYMENT_KINDS[k] ?? k}</Tag>,
        },
        { title: '会员卡', dataIndex: 'cardName' },
        {
          title: '金额',
          dataIndex: 'amount',
          width: 120,
          render: (v: number, r) => `${r.kind === 'refund' ? '-' : ''}${yuan(v)} 元`,
        },
        {
          title: '方式',
          dataIndex: 'method',
          width: 80,
          render: (m: string) => PAY_METHODS[m as PayMethod] ?? m,
        },
        { title: '经办人', dataIndex: 'staff', width: 90, render: (v) => v || '-' },
        { title: '备注', dataIndex: 'remark', ellipsis: true, render: (v) => v || '-' },
      ]}
    />
  );
}
