import { amountText } from '@studio/contract';
import { Button, DotLoading, Tag } from 'antd-mobile';
import { useMyCards } from './queries.ts';
import { useLogout } from './writes.ts';

/** 我的会员卡: balance (次 or 元), expiry, frozen, recent deductions and refunds; and sign-out. */
export function MyCards({ onSignedOut }: { onSignedOut: () => void }) {
  const { data: cards } = useMyCards();
  const logout = useLogout(onSignedOut);
  return (
    <div className="cards">
      {!cards && (
        <div className="empty">
          <DotLoading color="primary" />
        </div>
      )}
      {cards?.length === 0 && <div className="empty">还没有会员卡，请到前台办理</div>}
      {cards?.map((c) => (
        <div key={c.id} className="my-card" data-testid="my-card">
          <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <strong>{c.cardName}</strong>
            <span>
              {c.frozen && <Tag color="danger">已冻结</Tag>} {c.expired && <Tag color="default">已过期</Tag>}
            </span>
          </div>
          <div className="balance">余 {amountText(c.bigType, c.balance)}</div>
          <div style={{ fontSize: 13, color: 'var(--grey-text)' }}>
            {c.expireTime ? `有效期至 ${c.expireTime.slice(0, 10)}` : '长期有效'}
          </div>
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
