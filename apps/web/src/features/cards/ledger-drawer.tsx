import type { MemberCardRow } from '@studio/contract';
import { Drawer, Table, Tag } from 'antd';
import { amountText, balanceText } from '../../shared/format.ts';
import { useCardLedger, useSessionsOf, type LedgerRow } from './hooks.ts';

const KINDS: Record<string, { label: string; color: string }> = {
  issue: { label: '发卡', color: 'green' },
  topup: { label: '充值', color: 'cyan' },
  deduct: { label: '扣费', color: 'orange' },
  refund: { label: '退还', color: 'blue' },
  adjust: { label: '调整', color: 'default' },
};

/** A card's ledger: issue, top-ups, deductions per session, refunds. */
export default function LedgerDrawer({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const q = useCardLedger(card.id);
  const sessions = useSessionsOf((q.data ?? []).flatMap((r) => (r.timetableId ? [r.timetableId] : [])));
  return (
    <Drawer open width={760} title={`${card.cardName} 流水（余额 ${balanceText(card)}）`} onClose={onClose}>
      <Table<LedgerRow>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data ?? []}
        pagination={{ pageSize: 10 }}
        data-testid="ledger-table"
        columns={[
          { title: '时间', dataIndex: 'createdAt', width: 150, render: (v: string) => v.slice(0, 16) },
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
            render: (v: number, r) => `${r.kind === 'deduct' ? '-' : '+'}${amountText(card.bigType, Math.abs(v))}`,
          },
          {
            title: '课程',
            render: (_, r) => {
              if (!r.timetableId) return '-';
              // A deleted session simply shows its id.
              const s = sessions.get(r.timetableId);
              const text = s ? `${s.courseName} ${s.startTime.slice(0, 16)}` : `课程 #${r.timetableId}`;
              return (
                <a
                  href={`/course/calendar/detail?course_calendar_id=${r.timetableId}`}
                  target="_blank"
                  rel="noreferrer"
                >
                  {text}
                </a>
              );
            },
          },
          { title: '操作人', dataIndex: 'operator', width: 90, render: (v) => v || '-' },
          { title: '备注', dataIndex: 'remark', width: 100, ellipsis: true, render: (v) => v || '-' },
        ]}
      />
    </Drawer>
  );
}
