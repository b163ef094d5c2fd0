import { OnlineSaleMsg } from '@studio/contract';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { MyCards } from './cards.tsx';
import { ContractPage } from './contract.tsx';
import { LeaveScreen, type LeaveCard } from './leave.tsx';
import { OrderWait } from './order-wait.tsx';
import { MyOrders } from './orders.tsx';
import { PaySheet, type Purchase } from './pay-sheet.tsx';
import { backFromPaying, takeWaiting, useShop, type Waiting } from './payment.ts';
import './payment.css';
import { ShopList } from './shop.tsx';

/** The card a payment just issued or topped up, marked in 我的会员卡. */
type Fresh = { id: number; label: string };

type View =
  | { kind: 'cards'; fresh: Fresh | null }
  | { kind: 'shop' }
  | { kind: 'orders' }
  | { kind: 'leave'; card: LeaveCard }
  | { kind: 'contract'; mcId: number }
  | { kind: 'wait'; order: Waiting; check: boolean };

/** The order this phone left to pay on Alipay's page, once it is back (until its wait is left). */
let returned: Waiting | null | undefined;

/** The view the tab opens on: the wait for that payment when the phone comes back from paying. */
function firstView(): View {
  if (returned === undefined) {
    returned = backFromPaying ? takeWaiting() : null;
    if (backFromPaying) {
      const params = new URLSearchParams(window.location.search);
      params.delete('paid');
      window.history.replaceState(null, '', `${window.location.pathname}?${params.toString()}`);
    }
  }
  return returned ? { kind: 'wait', order: returned, check: true } : { kind: 'cards', fresh: null };
}

/**
 * The 会员卡 tab: 我的会员卡 with 购卡 and 我的订单 (when the store takes payments online) and 充值 on
 * a money card, 请假 on a card that allows it; the purchase sheet; the wait for a payment, which
 * ends on the new card.
 */
export function CardArea({ onSignedOut }: { onSignedOut: () => void }) {
  const [view, setView] = useState<View>(firstView);
  const [purchase, setPurchase] = useState<Purchase | null>(null);
  const { data: shop } = useShop();
  const online = Boolean(shop && (shop.wechat || shop.alipay));
  const toCards = (fresh: Fresh | null = null) => {
    returned = null;
    setView({ kind: 'cards', fresh });
  };

  return (
    <>
      {view.kind === 'cards' && (
        <MyCards
          onSignedOut={onSignedOut}
          fresh={view.fresh}
          canBuy={online && (shop?.list.length ?? 0) > 0}
          links={
            online ? (
              <div className="card-links">
                <Button color="primary" onClick={() => setView({ kind: 'shop' })}>
                  购卡
                </Button>
                <Button color="primary" fill="outline" onClick={() => setView({ kind: 'orders' })}>
                  我的订单
                </Button>
              </div>
            ) : (
              // The store takes no payment online: say so where 购卡 would be, rather than nothing.
              shop && (
                <div className="shop-closed" data-testid="shop-closed">
                  {OnlineSaleMsg.closed}
                </div>
              )
            )
          }
          onLeave={(c) => setView({ kind: 'leave', card: c })}
          onContract={(mcId) => setView({ kind: 'contract', mcId })}
          onTopUp={
            online && shop && shop.topupAmounts.length > 0
              ? (c) => setPurchase({ kind: 'topup', mcId: c.id, cardName: c.cardName, amounts: shop.topupAmounts })
              : undefined
          }
        />
      )}
      {view.kind === 'leave' && <LeaveScreen card={view.card} onBack={() => toCards()} />}
      {view.kind === 'contract' && <ContractPage mcId={view.mcId} onBack={() => toCards()} />}
      {view.kind === 'shop' && (
        <ShopList
          shop={shop}
          onBack={() => toCards()}
          onBuy={(p) =>
            setPurchase({ kind: 'card', productId: p.id, name: p.name, price: p.price, summary: p.summary })
          }
        />
      )}
      {view.kind === 'orders' && (
        <MyOrders
          onBack={() => toCards()}
          onCheck={(o) =>
            setView({
              kind: 'wait',
              check: true,
              order: { orderNo: o.orderNo, name: o.name, amount: o.amount, expireTime: o.expireTime, codeUrl: null },
            })
          }
        />
      )}
      {view.kind === 'wait' && (
        <OrderWait
          key={view.order.orderNo}
          order={view.order}
          check={view.check}
          onPaid={(id, kind) => toCards(id === null ? null : { id, label: kind === 'topup' ? '刚充值' : '刚买的' })}
          onBack={() => toCards()}
        />
      )}
      {shop && (
        <PaySheet
          shop={shop}
          purchase={purchase}
          onClose={() => setPurchase(null)}
          onOrdered={(order, paidInWechat) => {
            setPurchase(null);
            setView({ kind: 'wait', order, check: paidInWechat });
          }}
        />
      )}
    </>
  );
}
