import {
  addCardLeave,
  addCardShare,
  queryCardContract,
  BIG_TYPE_COUNT,
  CARD_TYPE_NO_EXPIRY,
  refundMemberCard,
  transferMemberCard,
  updateMemberCardExpire,
  type MemberCardRow,
} from '@studio/contract';
import { DatePicker, Form, Popconfirm, Space, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { amountText, balanceText } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { useCan } from '../../shared/profile.ts';
import { useStoreClock } from '../../shared/store-time.ts';
import { useChangeExpiry, useFreezeCard } from './hooks.ts';
import LedgerDrawer from './ledger-drawer.tsx';
import LeaveModal from './leave-modal.tsx';
import { LeaveListModal } from './leave-table.tsx';
import { RefundModal } from './refund-modal.tsx';
import TopupModal from './topup-modal.tsx';
import ShareModal from './share-modal.tsx';
import TransferModal from './transfer-modal.tsx';
import ContractModal from './contract-modal.tsx';

type Action = {
  kind: 'topup' | 'expire' | 'ledger' | 'refund' | 'leave' | 'leaves' | 'transfer' | 'share' | 'contract';
  card: MemberCardRow;
};

/** The approved leave of the card covering `today`, if any (请假中). */
const leaveOn = (c: MemberCardRow, today: string) => c.leaves.find((l) => l.fromDate <= today && today <= l.toDate);
/** Not started yet (未开卡): 首次上课开卡 before its first class, or a start date still to come. */
const notStarted = (c: MemberCardRow, now: string) => !c.activateTime || c.activateTime > now;
const md = (d: string) => `${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;

/**
 * A member's cards: balance, expiry, state, with top-up, freeze, expiry change and ledger (expiry
 * changes and refunds are the manager's).
 */
export function MemberCardTable({
  cards,
  loading,
  holderId,
}: {
  cards: MemberCardRow[];
  loading?: boolean;
  /** The member holding the cards. */
  holderId?: number;
}) {
  const [action, setAction] = useState<Action | null>(null);
  const canShare = useCan(addCardShare);
  // The share list is read from the cards as they stand after each change.
  const sharing = action?.kind === 'share' ? (cards.find((c) => c.id === action.card.id) ?? action.card) : null;
  const canChangeExpiry = useCan(updateMemberCardExpire);
  const canRefund = useCan(refundMemberCard);
  const canLeave = useCan(addCardLeave);
  const canTransfer = useCan(transferMemberCard);
  const canContract = useCan(queryCardContract);
  const freeze = useFreezeCard();
  // Expired on the store's clock (expiry times are the store's wall clock), not the browser's.
  const clock = useStoreClock();
  return (
    <>
      <Table<MemberCardRow>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={cards}
        pagination={false}
        data-testid="member-card-table"
        locale={{ emptyText: '暂无会员卡' }}
        columns={[
          {
            title: '卡名称',
            dataIndex: 'cardName',
            width: 180,
            render: (v: string, c) => (
              <>
                {v}
                {c.sharedWith.length > 0 && (
                  <div className="muted" data-testid="card-shared-with">
                    共享：{c.sharedWith.map((m) => m.name).join('、')}
                  </div>
                )}
              </>
            ),
          },
          {
            title: '类别',
            dataIndex: 'bigType',
            width: 80,
            render: (v: number) => (v === BIG_TYPE_COUNT ? '次卡' : '储值卡'),
          },
          {
            title: '余额',
            width: 130,
            render: (_, c) => <span className="card-balance">{balanceText(c)}</span>,
          },
          { title: '总额', width: 110, render: (_, c) => amountText(c.bigType, c.totalCount) },
          { title: '已用', width: 110, render: (_, c) => amountText(c.bigType, c.usedCount) },
          {
            title: '有效期至',
            dataIndex: 'expireTime',
            width: 130,
            render: (v: string | null, c) =>
              c.cardType === CARD_TYPE_NO_EXPIRY || !v ? (
                '永久有效'
              ) : c.activateBy ? (
                <span title={`首次上课开卡，最晚 ${c.activateBy} 开卡`}>
                  开卡后起算
                  <div className="muted">最晚{md(c.activateBy)}开卡</div>
                </span>
              ) : (
                <>
                  {v.slice(0, 10)}
                  {c.leaveDays > 0 && <div className="muted">含请假 {c.leaveDays} 天</div>}
                </>
              ),
          },
          {
            title: '状态',
            width: 110,
            render: (_, c) => {
              const leave = leaveOn(c, clock.today());
              return c.refundedAt ? (
                <Tag>已退卡</Tag>
              ) : c.frozen ? (
                <Tag color="blue">已冻结</Tag>
              ) : c.expireTime && c.expireTime < clock.now() ? (
                <Tag color="red">已过期</Tag>
              ) : notStarted(c, clock.now()) ? (
                <Tag color="orange" title={c.activateTime ? `${c.activateTime.slice(0, 10)} 开卡` : '首次上课开卡'}>
                  未开卡
                </Tag>
              ) : leave ? (
                <Tag color="purple" title={`${leave.fromDate} 至 ${leave.toDate}`}>
                  请假中
                </Tag>
              ) : (
                <Tag color="green">正常</Tag>
              );
            },
          },
          {
            title: '操作',
            width: 420,
            render: (_, c) =>
              c.refundedAt ? (
                <Space size="small">
                  <a onClick={() => setAction({ kind: 'ledger', card: c })}>流水</a>
                  {canContract && <a onClick={() => setAction({ kind: 'contract', card: c })}>合同</a>}
                </Space>
              ) : (
                <Space size="small">
                  <a onClick={() => setAction({ kind: 'topup', card: c })}>充值</a>
                  <Popconfirm
                    title={c.frozen ? '确定解冻这张会员卡吗？' : '冻结后该卡不能预约，确定冻结吗？'}
                    onConfirm={() => freeze.run(c.id, c.frozen ? 0 : 1)}
                  >
                    <a>{c.frozen ? '解冻' : '冻结'}</a>
                  </Popconfirm>
                  {canChangeExpiry && c.cardType !== CARD_TYPE_NO_EXPIRY && (
                    <a onClick={() => setAction({ kind: 'expire', card: c })}>改有效期</a>
                  )}
                  <a onClick={() => setAction({ kind: 'ledger', card: c })}>流水</a>
                  {canLeave && c.cardType !== CARD_TYPE_NO_EXPIRY && (
                    <a onClick={() => setAction({ kind: 'leave', card: c })}>请假</a>
                  )}
                  {(c.leaves.length > 0 || c.leaveDays > 0) && (
                    <a onClick={() => setAction({ kind: 'leaves', card: c })}>请假记录</a>
                  )}
                  {canShare && c.shareMax > 0 && <a onClick={() => setAction({ kind: 'share', card: c })}>共享</a>}
                  {canTransfer && !c.frozen && <a onClick={() => setAction({ kind: 'transfer', card: c })}>转卡</a>}
                  {canRefund && <a onClick={() => setAction({ kind: 'refund', card: c })}>退卡</a>}
                  {canContract && <a onClick={() => setAction({ kind: 'contract', card: c })}>合同</a>}
                </Space>
              ),
          },
        ]}
      />
      {action?.kind === 'topup' && <TopupModal card={action.card} onClose={() => setAction(null)} />}
      {action?.kind === 'expire' && <ExpireModal card={action.card} onClose={() => setAction(null)} />}
      {action?.kind === 'ledger' && <LedgerDrawer card={action.card} onClose={() => setAction(null)} />}
      {action?.kind === 'refund' && <RefundModal card={action.card} onClose={() => setAction(null)} />}
      {action?.kind === 'leave' && <LeaveModal card={action.card} onClose={() => setAction(null)} />}
      {action?.kind === 'leaves' && <LeaveListModal card={action.card} onClose={() => setAction(null)} />}
      {action?.kind === 'transfer' && <TransferModal card={action.card} onClose={() => setAction(null)} />}
      {action?.kind === 'contract' && <ContractModal card={action.card} onClose={() => setAction(null)} />}
      {sharing && <ShareModal card={sharing} holderId={holderId} onClose={() => setAction(null)} />}
    </>
  );
}

function ExpireModal({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const [form] = Form.useForm<{ date: Dayjs }>();
  const save = useChangeExpiry(card);
  return (
    <FormModal
      title={`修改有效期：${card.cardName}`}
      form={form}
      loading={save.loading}
      submit={(v) => save.run(v.date.format('YYYY-MM-DD'))}
      onCancel={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ date: card.expireTime ? dayjs(card.expireTime) : undefined }}
      >
        <Form.Item label="有效期至（含当天）" name="date" rules={[{ required: true, message: '请选择到期日期' }]}>
          <DatePicker style={{ width: 220 }} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
