import type { PayOrder } from '@studio/contract';
import { Button, DotLoading, Tag } from 'antd-mobile';
import { useState } from 'react';
import { METHOD_TEXT, STATUS, useMyOrders, yuanText } from './payment.ts';
import './payment.css';
import { SubHead } from './sub-head.tsx';
import { Pager } from './pager.tsx';

/** 我的订单: each order's status, amount, how it was paid and refunds; an unpaid one can be checked. */
export function MyOrders({ onBack, onCheck }: { onBack: () => void; onCheck: (o: PayOrder) => void }) {
  const [page, setPage] = useState(1);
  const { data } = useMyOrders(page);
  return (
    <>
      <SubHead title="我的订单" onBack={onBack} />
      <div className="cards">
        {!data && (
          <div className="empty">
            <DotLoading color="primary" />
          </div>
        )}
        {data?.list.length === 0 && <div className="empty">还没有订单</div>}
        {data?.list.map((o) => (
          <div key={o.orderNo} className="booking order" data-testid="my-order">
            <div className="top">
              <span>{o.kind === 'topup' ? '会员卡充值' : o.name}</span>
              <Tag color={STATUS[o.status].color}>{STATUS[o.status].text}</Tag>
            </div>
            <div className="meta">
              {yuanText(o.amount)} · {METHOD_TEXT[o.method]}
              {o.refunded > 0 ? ` · 已退 ${yuanText(o.refunded)}` : ''}
            </div>
            <div className="meta">
              下单 {o.createTime.slice(0, 16)}
              {o.paidTime ? `，支付 ${o.paidTime.slice(0, 16)}` : ''}
              {o.status === 'closed' && o.closeTime ? `，关闭 ${o.closeTime.slice(0, 16)}` : ''}
            </div>
            <div className="meta">订单号 {o.orderNo}</div>
            {o.status === 'created' && (
              <div className="ops">
                <Button className="touch" color="primary" fill="outline" onClick={() => onCheck(o)}>
                  查看支付结果
                </Button>
              </div>
            )}
          </div>
        ))}
        <Pager page={page} total={data?.total} onPage={setPage} />
      </div>
    </>
  );
}
