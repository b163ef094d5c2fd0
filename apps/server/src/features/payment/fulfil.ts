import { amountText, BIG_TYPE_MONEY, PayMsg } from '@studio/contract';
import { inSavepoint, isUniqueViolation } from '../../db/dialect.ts';
import type { Tx } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, skipAudit, systemScope, type AuditScope } from '../../lib/audit.ts';
import type { AppDeps } from '../../lib/context.ts';
import { localDateTime } from '../../lib/time.ts';
import { findStoreScope } from '../../lib/store-repository.ts';
import { issueCardPaidOnline, topUpCardPaidOnline } from '../cards/public.ts';
import { sealUnsealed } from '../contracts/public.ts';
import type { OrderStatus } from './providers/types.ts';
import {
  markClosedOrderException,
  markOrderClosed,
  markOrderException,
  markOrderPaid,
  setOrderCard,
  type OrderRow,
} from './repository.ts';
import type { StoredPaySetting } from './settings.ts';

export type Deps = Pick<AppDeps, 'db' | 'dialect' | 'config' | 'log' | 'events'>;

/**
 * Who fulfils: the provider's notification or a job (系统), the member's own 我已支付 query, or the
 * desk's query of its 扫码收款 order.
 */
export type Fulfiller =
  { kind: 'system'; call: string } | { kind: 'member' | 'staff'; call: string; id: number; name: string };

/** 'exception': paid, recorded as 异常订单 (it cannot be fulfilled); the provider may stop notifying. */
export type FulfilResult = 'fulfilled' | 'exception' | 'already' | 'refused';

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
 * received 线上, and the entry of the change. An order that cannot be fulfilled (its card refunded or
 * transferred meanwhile, its product deleted, its member gone, a second 体验卡) becomes 异常订单 in
 * that transaction instead, with the reason: paid, nothing issued, waiting for its 原路退款; the
 * provider is answered success once that is recorded. Facts that do not match the order (amount,
 * merchant, app) are refused, logged and written nowhere.
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
  const target = `订单 ${order.orderNo}（${amountText(BIG_TYPE_MONEY, order.amount)}）`;
  let issuedCard: number | null = null;
  const result = await inWriteTx(
    deps.db,
    deps.dialect,
    async (tx): Promise<FulfilResult> => {
      let cardId = order.memberCardId;
      const paid = await markPaidOnce(tx, order, now, facts.providerTradeId);
      if (paid === 'already') {
        skipAudit(tx);
        return 'already';
      }
      let refused: string | null = paid === 'trial' ? PayMsg.trialOnce : null;
      if (refused === null && order.kind === 'card') {
        const issued = await issueCardPaidOnline(tx, deps.events, {
          storeId: order.storeId,
          memberId: order.memberId,
          productId: order.productId ?? 0,
          now,
          payment,
          signature: order.contractSign
            ? (JSON.parse(order.contractSign) as { at: string; ip: string; ua: string })
            : undefined,
        });
        if ('refused' in issued) refused = issued.refused;
        else {
          await setOrderCard(tx, order.id, issued.memberCardId);
          cardId = issuedCard = issued.memberCardId;
        }
      } else if (refused === null) {
        const credited = await topUpCardPaidOnline(tx, {
          storeId: order.storeId,
          memberCardId: order.memberCardId ?? 0,
          memberId: order.memberId,
          amount: order.amount,
          now,
          payment,
        });
        if (credited !== true) refused = credited.refused;
      }
      const targets = [
        { type: 'member' as const, id: order.memberId },
        ...(cardId === null ? [] : [{ type: 'card' as const, id: cardId }]),
      ];
      if (refused !== null) {
        if (paid === 'paid') await markOrderException(tx, order.id, refused);
        audit(tx, { kind: 'card', summary: `异常订单：已付款，未能发卡或充值（${refused}）`, target, targets });
        return 'exception';
      }
      audit(tx, { target, targets });
      return 'fulfilled';
    },
    scopeOf(order.storeId, by),
  );
  // A contract signed before paying: its PDF and hashes, once the sale's transaction has committed
  // (outside it: rendering takes a second). Best effort: a failure is logged, and the contract is
  // sealed when first shown or downloaded.
  if (result === 'fulfilled' && issuedCard !== null && order.contractSign) {
    await sealUnsealed(deps, order.storeId, issuedCard);
  }
  if (result === 'exception') {
    deps.log.warn(
      { storeId: order.storeId, orderNo: order.orderNo, provider: order.provider },
      'paid order recorded as 异常订单: it cannot be fulfilled',
    );
  }
  return result;
}

/**
 * The guarded 待支付 / 已关闭 -> 已支付: 'paid' when this statement made it, 'already' when another did.
 * A trial order paid after its close while the member has another trial order open or paid is refused
 * by the one-trial index: it is made 异常订单 at once ('trial').
 */
async function markPaidOnce(
  tx: Tx,
  order: OrderRow,
  now: string,
  tradeId: string | null,
): Promise<'paid' | 'already' | 'trial'> {
  if (order.trial !== 1) return (await markOrderPaid(tx, order.id, now, tradeId)) ? 'paid' : 'already';
  try {
    return (await inSavepoint(tx, () => markOrderPaid(tx, order.id, now, tradeId))) ? 'paid' : 'already';
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    return (await markClosedOrderException(tx, order.id, now, tradeId, PayMsg.trialOnce)) ? 'trial' : 'already';
  }
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
