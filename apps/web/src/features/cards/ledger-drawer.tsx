import { PAY_METHODS, refundMemberCard, type MemberCardRow, type PayMethod } from '@studio/contract';
import { Drawer, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { amountText, balanceText, yuan } from '../../shared/format.ts';
import { useCan, useRole } from '../../shared/profile.ts';
import { Link } from '../../shared/router.tsx';
import { useCardLedger, type LedgerRow } from './hooks.ts';
import { RefundModal } from './refund-modal.tsx';
import './cards.css';

const KINDS: Record<string, { label: string; color: string }> = {
  issue: { label: '发卡', color: 'green' },
  topup: { label: '充值', color: 'cyan' },
  deduct: { label: '扣费', color: 'orange' },
  refund: { label: '退还', color: 'blue' },
  adjust: { label: '调整', color: 'default' },
  card_refund: { label: '退卡', color: 'red' },
  topup_refund: { label: '退回充值', color: 'magenta' },
  no_show: { label: '爽约扣费', color: 'volcano' },
  waive: { label: '免除扣费', color: 'geekblue' },
  late_cancel: { label: '迟到取消', color: 'gold' },
  leave: { label: '请假', color: 'purple' },
  leave_end: { label: '结束请假', color: 'purple' },
  activate: { label: '开卡生效', color: 'lime' },
  transfer: { label: '转卡', color: 'purple' },
  share: { label: '共享', color: 'cyan' },
  referral: { label: '转介绍奖励', color: 'green' },
  referral_undone: { label: '撤销转介绍奖励', color: 'red' },
};

/** Entries of what the card paid for classes (their amount is what was used): the balance moves the other way. */
const USAGE = ['deduct', 'refund', 'no_show', 'waive'];

/** How an entry moves the balance: deductions lower it, refunds and waivers raise it, the rest change the total. */
const balanceDelta = (r: LedgerRow) => (USAGE.includes(r.kind) ? -r.amount : r.amount);

/** A card's ledger: issue, top-ups, deductions per session, refunds, and the money taken or paid back. */
export default function LedgerDrawer({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const q = useCardLedger(card.id);
  const [refunding, setRefunding] = useState<LedgerRow | null>(null);
  // Paying a top-up back is the manager's (the desk refunds whole cards within the cooling-off days).
  const role = useRole();
  const canRefund = useCan(refundMemberCard) && role === 'manager';
  return (
    <Drawer open width={1100} title={`${card.cardName} 流水（余额 ${balanceText(card)}）`} onClose={onClose}>
      <Table<LedgerRow>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data ?? []}
        pagination={{ pageSize: 10 }}
        data-testid="ledger-table"
        columns={[
          {
            title: '时间',
            dataIndex: 'createdAt',
            width: 150,
            render: (v: string) => <span className="nowrap">{v.slice(0, 16)}</span>,
          },
          {
            title: '类型',
            dataIndex: 'kind',
            width: 70,
            render: (k: string) => <Tag color={KINDS[k]?.color}>{KINDS[k]?.label ?? k}</Tag>,
          },
          {
            title: '数量',
            dataIndex: 'amount',
            width: 100,
            render: (_, r) => {
              // A late cancel moves nothing: it says what it keeps.
              if (r.kind === 'late_cancel') return `不退回 ${amountText(card.bigType, r.amount)}`;
              // A note of the card's life (请假, 转卡, 共享 …) moves nothing.
              if (r.amount === 0 && !USAGE.includes(r.kind)) return '-';
              const d = balanceDelta(r);
              return `${d < 0 ? '-' : '+'}${amountText(card.bigType, Math.abs(d))}`;
            },
          },
          {
            title: '收款 / 退款',
            width: 130,
            className: 'nowrap',
            render: (_, r) =>
              r.payment
                ? `${PAY_METHODS[r.payment.method as PayMethod] ?? r.payment.method} ${yuan(r.payment.amount)} 元`
                : '-',
          },
          {
            title: '课程',
            width: 200,
            render: (_, r) => {
              if (!r.timetableId) return '-';
              const s = r.session;
              return (
                <a
                  href={`/course/calendar/detail?course_calendar_id=${r.timetableId}`}
                  target="_blank"
                  rel="noreferrer"
                >
                  {s ? (
                    <>
                      {s.courseName} <span className="nowrap">{s.startTime.slice(0, 16)}</span>
                    </>
                  ) : (
                    `课程 #${r.timetableId}`
                  )}
                </a>
              );
            },
          },
          { title: '约课人', dataIndex: 'bookedBy', width: 80, render: (v) => v || '-' },
          { title: '操作人', dataIndex: 'operator', width: 90, render: (v) => v || '-' },
          { title: '备注', dataIndex: 'remark', width: 160, ellipsis: { showTitle: true }, render: (v) => v || '-' },
          {
            title: '操作',
            width: 110,
            render: (_, r) =>
              r.kind !== 'topup' ? null : r.refunded ? (
                <span className="muted">已退回</span>
              ) : card.refundedAt || !canRefund ? null : r.onlineOrderNo ? (
                // Paid online: it goes back through WeChat Pay / Alipay from 线上订单, not at the desk.
                <Tooltip title={`线上支付的充值（订单号 ${r.onlineOrderNo}），请到「线上订单」对该订单退款，原路退回`}>
                  <Link to="/pay/orders" data-testid="topup-online-refund">
                    线上订单退款
                  </Link>
                </Tooltip>
              ) : (
                <a onClick={() => setRefunding(r)}>退回</a>
              ),
          },
        ]}
      />
      {refunding && (
        <RefundModal
          card={card}
          topup={{ id: refunding.id, amount: refunding.amount, paid: refunding.payment?.amount ?? null }}
          onClose={() => setRefunding(null)}
        />
      )}
    </Drawer>
  );
}
