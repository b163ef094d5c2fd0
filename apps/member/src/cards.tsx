import { amountText, BIG_TYPE_MONEY, type memberMyCards, type ResOf } from '@studio/contract';
import { Button, DotLoading, Tag } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useMyCards } from './queries.ts';
import { useStoreToday } from './store-clock.ts';
import { useLogout } from './writes.ts';

type MyCard = ResOf<typeof memberMyCards>[number];

/** The approved leave covering `today` (请假中). */
const leaveOn = (c: MyCard, today: string) => c.leaves.find((l) => l.fromDate <= today && today <= l.toDate);
/** 未开卡: 首次上课开卡 before the first class, or a start date still to come. */
const notStarted = (c: MyCard, today: string) => !c.activateTime || c.activateTime.slice(0, 10) > today;
const md = (d: string) => `${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;

/** The card's validity in words: its expiry, a leave now, or how a card not started will count. */
function expiryText(c: MyCard, today: string): string {
  if (!c.expireTime) return '长期有效';
  if (c.activateBy) return `首次上课开卡，从第一节课当天起算（最晚${md(c.activateBy)}开卡）`;
  const leave = leaveOn(c, today);
  const start = c.activateTime && c.activateTime.slice(0, 10) > today ? `${md(c.activateTime)}开卡，` : '';
  const on = leave ? `请假 ${md(leave.fromDate)}-${md(leave.toDate)}，` : '';
  return `${start}${on}有效期至 ${c.expireTime.slice(0, 10)}`;
}

/**
 * 我的会员卡: balance (次 or 元), expiry, frozen, recent deductions and refunds; and sign-out. With
 * online payment: `links` (购卡, 我的订单) above, 充值 on money cards, the card just bought marked.
 */
export function MyCards({
  onSignedOut,
  links,
  canBuy = false,
  fresh = null,
  onTopUp,
  onLeave,
  onContract,
}: {
  onSignedOut: () => void;
  links?: ReactNode;
  canBuy?: boolean;
  /** The card a payment just issued or topped up, and its mark (刚买的, 刚充值). */
  fresh?: { id: number; label: string } | null;
  onTopUp?: (card: MyCard) => void;
  /** 请假 on a card whose product allows it. */
  onLeave?: (card: MyCard) => void;
  /** The card's contract: 签署 a 待签约 one, or see and download a signed one. */
  onContract?: (mcId: number) => void;
}) {
  const { data: cards } = useMyCards();
  const today = useStoreToday();
  const logout = useLogout(onSignedOut);
  return (
    <div className="cards">
      {links}
      {!cards && (
        <div className="empty">
          <DotLoading color="primary" />
        </div>
      )}
      {cards?.length === 0 && (
        <div className="empty">
          {canBuy ? '还没有会员卡，可点“购卡”在线购买，或到前台办理' : '还没有会员卡，请到前台办理'}
        </div>
      )}
      {cards?.map((c) => (
        <div key={c.id} className="my-card" data-testid="my-card">
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <strong>
              {c.cardName}
              {c.id === fresh?.id && (
                <Tag color="success" className="fresh-tag">
                  {fresh.label}
                </Tag>
              )}
            </strong>
            <span>
              {c.sharedBy && (
                <Tag color="primary" fill="outline" data-testid="shared-by">
                  {c.sharedBy}共享
                </Tag>
              )}{' '}
              {c.frozen && <Tag color="danger">已冻结</Tag>} {c.expired && <Tag color="default">已过期</Tag>}
              {notStarted(c, today) && <Tag color="warning">未开卡</Tag>}
              {leaveOn(c, today) && <Tag color="primary">请假中</Tag>}
            </span>
          </div>
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <div className="balance">余 {amountText(c.bigType, c.balance)}</div>
            {onTopUp && c.bigType === BIG_TYPE_MONEY && !c.sharedBy && (
              <Button className="touch" color="primary" fill="outline" onClick={() => onTopUp(c)}>
                充值
              </Button>
            )}
          </div>
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <div style={{ fontSize: 13, color: 'var(--grey-text)' }} data-testid="card-expiry">
              {expiryText(c, today)}
            </div>
            {onLeave && c.leaveAllowed && !c.sharedBy && c.expireTime && !c.expired && (
              <Button className="touch" size="small" fill="outline" onClick={() => onLeave(c)}>
                请假
              </Button>
            )}
          </div>
          {c.contract && onContract && (
            <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
              <span data-testid="card-contract">
                合同：
                {c.contract === 'signed' ? <Tag color="success">已签约</Tag> : <Tag color="warning">待签约</Tag>}
              </span>
              <Button className="touch" size="small" fill="outline" onClick={() => onContract(c.id)}>
                {c.contract === 'signed' ? '查看合同' : '签署合同'}
              </Button>
            </div>
          )}
          {c.recent.length > 0 && (
            <div className="ledger">
              {c.recent.map((l, i) => (
                <div key={i}>
                  <span>
                    {l.time.slice(5, 16)} {l.kind}
                    {l.note ? ` · ${l.note}` : ''}
                  </span>
                  {l.amount !== 0 && (
                    <span style={{ color: l.amount < 0 ? '#cf1322' : '#237804' }}>
                      {l.amount < 0 ? '-' : '+'}
                      {amountText(c.bigType, Math.abs(l.amount))}
                    </span>
                  )}
                </div>
              ))}
            </div>
          )}
        </div>
      ))}
      <Button block fill="outline" style={{ marginTop: 12 }} loading={logout.isPending} onClick={() => logout.mutate()}>
        退出登录
      </Button>
    </div>
  );
}
