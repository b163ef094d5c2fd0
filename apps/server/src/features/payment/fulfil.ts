import { amountText, BIG_TYPE_MONEY } from '@studio/contract';
import { inWriteTx } from '../../db/write-queue.ts';
import { audit, skipAudit, systemScope, type AuditScope } from '../../lib/audit.ts';
import type { AppDeps } from '../../lib/context.ts';
import { localDateTime } from '../../lib/time.ts';
import { findStoreScope } from '../../lib/store-repository.ts';
import { issueCardPaidOnline, topUpCardPaidOnline } from '../reference/public.ts';
import type { OrderStatus } from './providers/types.ts';
import { markOrderClosed, markOrderPaid, setOrderCard, type OrderRow } from './repository.ts';
import type { StoredPaySetting } from './settings.ts';

export type Deps = Pick<AppDeps, 'db' | 'dialect' | 'config' | 'log'>;

/**
 * Who fulfils: the provider's notification or a job (系统), the member's own 我已支付 query, or the
 * desk's query of its 扫码收款 order.
 */
export type Fulfiller =
  { kind: 'system'; call: string } | { kind: 'member' | 'staff'; call: string; id: number; name: string };

export type FulfilResult = 'fulfilled' | 'already' | 'refused';

function scopeOf(storeId: number, by: Fulfiller): AuditScope {
  if (by.kind === 'system') return systemScope('在线支付', by.call, 'card', storeId);
  return {
    actor:
      by.kind === 'staff'
        ? { kind: 'staff', staffId: by.id, name: by.name }
        : { kind: 'member', memberId: by.id, name: by.name },
    call: by.call,
    storeId,
    defaults: { kind: 'card', summary: '在线支付到账' },
    note: {},
    written: 0,
  };
}

/**
 * Whether the provider's facts may be believed for this order: its number, its amount, and the
 * merchant and app of the store's setting. A notification must name merchant and app; a query answer
 * (our own signed request, answered signed) is checked on what it names.
 */
export function mismatch(
  order: OrderRow,
  facts: OrderStatus,
  setting: StoredPaySetting,
  strict: boolean,
): string | null {
  if (facts.outTradeNo !== order.orderNo) return 'order number';
  if (facts.amountFen !== order.amount) return `amount ${facts.amountFen} != ${order.amount}`;
  const want =
    order.provider === 'wechat'
      ? { merchant: setting.wechat.mchId, app: setting.wechat.appId }
      : { merchant: setting.alipay.sellerId, app: setting.alipay.appId };
  const off = (got: string | null, expected: string) => expected !== '' && (got === null ? strict : got !== expected);
  if (off(facts.merchantId, want.merchant)) return 'merchant';
  if (off(facts.appId, want.app)) return 'app';
  return null;
}

/**
 * Fulfils a paid order exactly once: in one transaction, the guarded change 待支付 (or 已关闭) ->
 * 已支付, and only if this statement made it, the card issued (or the top-up credited) with its money
 * received 线上, and the entry of the change. Facts that do not match the order (amount, merchant,
 * app) are refused, logged and written nowhere.
 */
export async function fulfilOrder(
  deps: Deps,
  order: OrderRow,
  facts: OrderStatus,
  setting: StoredPaySetting,
  by: Fulfiller,
  strict: boolean,
): Promise<FulfilResult> {
  if (facts.state !== 'paid') return 'refused';
  const wrong = mismatch(order, facts, setting, strict);
  if (wrong) {
    deps.log.warn(
      { storeId: order.storeId, orderNo: order.orderNo, provider: order.provider, mismatch: wrong },
      'payment facts refused: they do not match the order',
    );
    return 'refused';
  }
  const store = await findStoreScope(deps.db, order.storeId);
  const now = localDateTime(store?.timezone ?? 'Asia/Shanghai');
  const payment = {
    payOrderId: order.id,
    amount: order.amount,
    method: order.provider === 'wechat' ? ('wechat' as const) : ('alipay' as const),
    remark: `线上订单 ${order.orderNo}`,
  };
  return inWriteTx(
    deps.db,
    deps.dialect,
    async (tx) => {
      let cardId = order.memberCardId;
      if (!(await markOrderPaid(tx, order.id, now, facts.providerTradeId))) {
        skipAudit(tx);
        return 'already' as const;
      }
      if (order.kind === 'card') {
        const issued = await issueCardPaidOnline(tx, {
          storeId: order.storeId,
          memberId: order.memberId,
          productId: order.productId ?? 0,
          now,
          payment,
        });
        // The product can no longer be issued as sold: nothing is written, the provider retries and staff see the log.
        if (!issued) throw new Error(`order ${order.orderNo}: product ${order.productId} cannot be issued`);
        await setOrderCard(tx, order.id, issued.memberCardId);
        cardId = issued.memberCardId;
      } else {
        const ok = await topUpCardPaidOnline(tx, {
          storeId: order.storeId,
          memberCardId: order.memberCardId ?? 0,
          memberId: order.memberId,
          amount: order.amount,
          now,
          payment,
        });
        if (!ok) throw new Error(`order ${order.orderNo}: card ${order.memberCardId} cannot take the top-up`);
      }
      audit(tx, {
        target: `订单 ${order.orderNo}（${amountText(BIG_TYPE_MONEY, order.amount)}）`,
        targets: [
          { type: 'member', id: order.memberId },
          ...(cardId === null ? [] : [{ type: 'card' as const, id: cardId }]),
        ],
      });
      return 'fulfilled' as const;
    },
    scopeOf(order.storeId, by),
  );
}

/** Closes an unpaid order here (once), by 系统 or the member. */
export async function closeOrderHere(deps: Deps, order: OrderRow, by: Fulfiller, why: string): Promise<boolean> {
  const store = await findStoreScope(deps.db, order.storeId);
  const now = localDateTime(store?.timezone ?? 'Asia/Shanghai');
  return inWriteTx(
    deps.db,
    deps.dialect,
    async (tx) => {
      if (!(await markOrderClosed(tx, order.id, now))) {
        skipAudit(tx);
        return false;
      }
      audit(tx, {
        kind: 'card',
        summary: `订单关闭：${why}`,
        target: `订单 ${order.orderNo}（${amountText(BIG_TYPE_MONEY, order.amount)}）`,
        targets: [{ type: 'member', id: order.memberId }],
      });
      return true;
    },
    scopeOf(order.storeId, by),
  );
}
