import type { Executor, Tx } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';

/**
 * Online payment's repository: the store's provider settings (secrets inside, never answered) and
 * the orders, with their guarded status changes (each one statement: the winner of a race is the
 * statement that changed a row).
 */

// Settings.

export function paySettingRow(ex: Executor, storeId: number) {
  return ex
    .selectFrom('paySetting')
    .select(['wechat', 'alipay', 'topupAmounts'])
    .where('storeId', '=', storeId)
    .executeTakeFirst();
}

export async function putPaySetting(
  tx: Tx,
  storeId: number,
  row: { wechat: string | null; alipay: string | null; topupAmounts: string },
) {
  const done = await tx.updateTable('paySetting').set(row).where('storeId', '=', storeId).executeTakeFirst();
  if (Number(done.numUpdatedRows) === 0)
    await tx
      .insertInto('paySetting')
      .values({ storeId, ...row })
      .execute();
}

// Orders.

export const ORDER_COLUMNS = [
  'id',
  'storeId',
  'orderNo',
  'memberId',
  'kind',
  'productId',
  'memberCardId',
  'trial',
  'amount',
  'refunded',
  'method',
  'provider',
  'description',
  'status',
  'createdAt',
  'expireAt',
  'paidAt',
  'closedAt',
  'providerTradeId',
  'staffId',
  'exceptionReason',
  'contractSign',
] as const;

export type OrderRow = Awaited<ReturnType<typeof findOrder>> & object;

export function insertOrder(tx: Tx, row: NewRow<'payOrder'>) {
  return tx.insertInto('payOrder').values(row).returning('id').executeTakeFirstOrThrow();
}

/** An order of the store by its number. */
export function findOrder(ex: Executor, storeId: number, orderNo: string) {
  return ex
    .selectFrom('payOrder')
    .select(ORDER_COLUMNS)
    .where('storeId', '=', storeId)
    .where('orderNo', '=', orderNo)
    .executeTakeFirst();
}

/** A member's orders, newest first, with the product's name. */
export async function memberOrders(ex: Executor, storeId: number, memberId: number, page: number, size: number) {
  const [list, total] = await Promise.all([
    ex
      .selectFrom('payOrder')
      .select(ORDER_COLUMNS)
      .where('storeId', '=', storeId)
      .where('memberId', '=', memberId)
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute(),
    ex
      .selectFrom('payOrder')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storeId', '=', storeId)
      .where('memberId', '=', memberId)
      .executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}

/**
 * The store's orders made on days `fromDate`..`toDate` (store-local), optionally of one status, newest
 * first, with the member and the staff member who took it at the desk (线上订单).
 */
export async function storeOrders(
  ex: Executor,
  storeId: number,
  q: { fromDate: string; toDate: string; status?: number; page: number; size: number },
) {
  const base = () => {
    let b = ex
      .selectFrom('payOrder as o')
      .where('o.storeId', '=', storeId)
      .where('o.createdAt', '>=', `${q.fromDate} 00:00:00`)
      .where('o.createdAt', '<=', `${q.toDate} 23:59:59`);
    if (q.status !== undefined) b = b.where('o.status', '=', q.status);
    return b;
  };
  const [list, total] = await Promise.all([
    base()
      .innerJoin('member as m', 'm.id', 'o.memberId')
      .leftJoin('staff as s', 's.id', 'o.staffId')
      .select(ORDER_COLUMNS.map((c) => `o.${c}` as const))
      .select(['m.name as memberName', 'm.mobile as memberMobile', 's.name as staffName'])
      .orderBy('o.id', 'desc')
      .limit(q.size)
      .offset((q.page - 1) * q.size)
      .execute(),
    base()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { list, total: Number(total.n) };
}

/** Stores with unpaid orders and their time zones (the close job's round). */
export function storesWithOpenOrders(ex: Executor) {
  return ex
    .selectFrom('payOrder as o')
    .innerJoin('store as s', 's.id', 'o.storeId')
    .select(['s.id', 's.timezone'])
    .where('o.status', '=', 0)
    .distinct()
    .execute();
}

/** The store's unpaid orders whose time ran out by `now` (store-local). */
export function expiredOrders(ex: Executor, storeId: number, now: string) {
  return ex
    .selectFrom('payOrder')
    .select(ORDER_COLUMNS)
    .where('storeId', '=', storeId)
    .where('status', '=', 0)
    .where('expireAt', '<=', now)
    .orderBy('id')
    .execute();
}

/**
 * 待支付 (or 已关闭, when the provider says paid after our close) -> 已支付, once: answers whether this
 * statement made the change (only its transaction fulfils the order).
 */
export async function markOrderPaid(
  tx: Tx,
  id: number,
  paidAt: string,
  providerTradeId: string | null,
): Promise<boolean> {
  const r = await tx
    .updateTable('payOrder')
    .set({ status: 1, paidAt, providerTradeId })
    .where('id', '=', id)
    .where('status', 'in', [0, 2])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * 已支付 -> 异常订单 with its reason, in the transaction that just marked it paid (its card could not be
 * issued or its top-up credited): the money is recorded as received, nothing else.
 */
export async function markOrderException(tx: Tx, id: number, reason: string): Promise<void> {
  await tx
    .updateTable('payOrder')
    .set({ status: 5, exceptionReason: reason })
    .where('id', '=', id)
    .where('status', 'in', [1, 4])
    .executeTakeFirstOrThrow();
}

/**
 * 已关闭 -> 异常订单 with its reason, once (a closed trial order paid late while the member has another
 * trial order: the one-trial index refuses it 已支付). Answers whether this statement made the change.
 */
export async function markClosedOrderException(
  tx: Tx,
  id: number,
  paidAt: string,
  providerTradeId: string | null,
  reason: string,
): Promise<boolean> {
  const r = await tx
    .updateTable('payOrder')
    .set({ status: 5, paidAt, providerTradeId, exceptionReason: reason })
    .where('id', '=', id)
    .where('status', 'in', [0, 2])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** How many of the store's orders are 异常订单 waiting for their refund (今日 tells the manager). */
export async function exceptionOrderCount(ex: Executor, storeId: number): Promise<number> {
  const r = await ex
    .selectFrom('payOrder')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('storeId', '=', storeId)
    .where('status', '=', 5)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** A card's top-up orders still 待支付 (the desk's 退卡 closes them first). */
export function openTopupOrdersOf(ex: Executor, storeId: number, memberCardId: number) {
  return ex
    .selectFrom('payOrder')
    .select(ORDER_COLUMNS)
    .where('storeId', '=', storeId)
    .where('memberCardId', '=', memberCardId)
    .where('kind', '=', 'topup')
    .where('status', '=', 0)
    .orderBy('id')
    .execute();
}

/** The card an order issued. */
export async function setOrderCard(tx: Tx, id: number, memberCardId: number) {
  await tx.updateTable('payOrder').set({ memberCardId }).where('id', '=', id).execute();
}

/** 待支付 -> 已关闭, once. */
export async function markOrderClosed(tx: Tx, id: number, closedAt: string): Promise<boolean> {
  const r = await tx
    .updateTable('payOrder')
    .set({ status: 2, closedAt })
    .where('id', '=', id)
    .where('status', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// Refunds (issue 28, item 5).

/**
 * Adds a refund to an order's refunded amount in one guarded UPDATE: only while it is paid (已支付 or
 * 部分退款) and the refunded total stays within the amount paid; the status follows (已退款 when all of
 * it is refunded, else 部分退款). Of two refunds at once, the second statement finds the first's total
 * (PostgreSQL re-checks the row after the first commits; SQLite runs them one after the other).
 */
export function addOrderRefund(tx: Tx, id: number, amount: number): Promise<boolean> {
  return addRefundFrom(tx, id, amount, [1, 4]);
}

/** The one guarded UPDATE of an order's refunded amount and status, from one of `statuses`. */
async function addRefundFrom(tx: Tx, id: number, amount: number, statuses: number[]): Promise<boolean> {
  const r = await tx
    .updateTable('payOrder')
    .set((eb) => ({
      refunded: eb('refunded', '+', amount),
      status: eb
        .case()
        .when(eb(eb('refunded', '+', amount), '=', eb.ref('amount')))
        .then(3)
        .else(4)
        .end(),
    }))
    .where('id', '=', id)
    .where('status', 'in', statuses)
    .where((eb) => eb(eb('refunded', '+', amount), '<=', eb.ref('amount')))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * 异常订单 -> 已退款 (部分退款 when part of it went back before: a refund refused once its card was
 * closed, issue 42) by the `amount` of its 原路退款, once (guarded on 异常订单).
 */
export function addExceptionOrderRefund(tx: Tx, id: number, amount: number): Promise<boolean> {
  return addRefundFrom(tx, id, amount, [5]);
}

/**
 * Takes a refused refund back off the order's refunded amount (guarded); the status follows: an
 * 异常订单 (its reason kept) is 异常订单 again, another 已支付 or 部分退款.
 */
export async function takeBackOrderRefund(tx: Tx, id: number, amount: number): Promise<boolean> {
  const r = await tx
    .updateTable('payOrder')
    .set((eb) => ({
      refunded: eb('refunded', '-', amount),
      status: eb
        .case()
        .when('exceptionReason', 'is not', null)
        .then(5)
        .when(eb(eb('refunded', '-', amount), '=', 0))
        .then(1)
        .else(4)
        .end(),
    }))
    .where('id', '=', id)
    .where('status', 'in', [3, 4, 5])
    .where('refunded', '>=', amount)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export function insertRefund(tx: Tx, row: NewRow<'payRefund'>) {
  return tx.insertInto('payRefund').values(row).returning('id').executeTakeFirstOrThrow();
}

export const REFUND_COLUMNS = [
  'id',
  'storeId',
  'refundNo',
  'payOrderId',
  'memberCardId',
  'amount',
  'reason',
  'status',
  'staffId',
  'createdAt',
  'ledgerId',
  'undoLedgerId',
  'queries',
  'nextQueryAt',
] as const;

export type RefundRow = Awaited<ReturnType<typeof findRefund>> & object;

/** A refund of the store by its number. */
export function findRefund(ex: Executor, storeId: number, refundNo: string) {
  return ex
    .selectFrom('payRefund')
    .select(REFUND_COLUMNS)
    .where('storeId', '=', storeId)
    .where('refundNo', '=', refundNo)
    .executeTakeFirst();
}

/** The ledger entry of a refund's card change (its kind and amount). */
export function refundLedgerEntry(ex: Executor, ledgerId: number) {
  return ex.selectFrom('cardLedger').select(['kind', 'amount']).where('id', '=', ledgerId).executeTakeFirstOrThrow();
}

/**
 * A refund's status: 0 退款中, 1 已退款, 2 退款失败, 3 退款异常 (WeChat's ABNORMAL: the money left but could
 * not reach the member's payment route; the merchant handles it, and it may still end 已退款 or 退款失败).
 * 0 and 3 are open: the settling job keeps asking about them.
 */
export const REFUND_OPEN = [0, 3];

/** 退款中 / 退款异常 -> 已退款, once: answers whether this statement made the change. */
export async function markRefundDone(
  tx: Tx,
  id: number,
  at: string,
  providerRefundId: string | null,
): Promise<boolean> {
  const r = await tx
    .updateTable('payRefund')
    .set({ status: 1, settledAt: at, providerRefundId, failReason: null })
    .where('id', '=', id)
    .where('status', 'in', REFUND_OPEN)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** 退款中 / 退款异常 -> 退款失败 with the provider's reason, once. */
export async function markRefundFailed(tx: Tx, id: number, at: string, failReason: string): Promise<boolean> {
  const r = await tx
    .updateTable('payRefund')
    .set({ status: 2, settledAt: at, failReason })
    .where('id', '=', id)
    .where('status', 'in', REFUND_OPEN)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** 退款中 -> 退款异常 with the provider's word, once (still open: not settled, the card not put back). */
export async function markRefundAbnormal(tx: Tx, id: number, failReason: string): Promise<boolean> {
  const r = await tx
    .updateTable('payRefund')
    .set({ status: 3, failReason })
    .where('id', '=', id)
    .where('status', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The provider's answer left the refund open: the next query is due at `nextAt` (the job's backoff).
 * Guarded on the count the job read, so two instances asking at once move it once.
 */
export async function deferRefundQuery(ex: Tx, id: number, seen: number, nextAt: string) {
  await ex
    .updateTable('payRefund')
    .set({ queries: seen + 1, nextQueryAt: nextAt })
    .where('id', '=', id)
    .where('queries', '=', seen)
    .where('status', 'in', REFUND_OPEN)
    .execute();
}

/** The ledger entry that put a refused refund's card change back. */
export async function setRefundUndo(tx: Tx, id: number, undoLedgerId: number) {
  await tx.updateTable('payRefund').set({ undoLedgerId }).where('id', '=', id).execute();
}

/** An order by its id. */
export function findOrderById(ex: Executor, id: number) {
  return ex.selectFrom('payOrder').select(ORDER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** Refunds still open (退款中, 退款异常), with their store's time zone (the settling job's round). */
export function refundsOpen(ex: Executor) {
  return ex
    .selectFrom('payRefund as r')
    .innerJoin('store as s', 's.id', 'r.storeId')
    .select(REFUND_COLUMNS.map((c) => `r.${c}` as const))
    .select('s.timezone')
    .where('r.status', 'in', REFUND_OPEN)
    .orderBy('r.id')
    .execute();
}

/**
 * An order's refunds refused once their card could not take the money back (退款失败 with a card change
 * and nothing put back, issue 42), oldest first: what its 原路退款 pays back, against their card changes.
 */
export function strandedRefusalsOf(ex: Executor, orderId: number) {
  return ex
    .selectFrom('payRefund')
    .select(['id', 'memberCardId', 'ledgerId', 'amount'])
    .where('payOrderId', '=', orderId)
    .where('status', '=', 2)
    .where('ledgerId', 'is not', null)
    .where('undoLedgerId', 'is', null)
    .orderBy('id')
    .execute();
}

/** The refunds of some orders (线上订单 shows each order's), oldest first. */
export function refundsOfOrders(ex: Executor, storeId: number, orderIds: number[]) {
  if (!orderIds.length) return Promise.resolve([]);
  return ex
    .selectFrom('payRefund')
    .select([
      'payOrderId',
      'refundNo',
      'amount',
      'reason',
      'status',
      'failReason',
      'ledgerId',
      'undoLedgerId',
      'createdAt',
      'settledAt',
    ])
    .where('storeId', '=', storeId)
    .where('payOrderId', 'in', orderIds)
    .orderBy('id')
    .execute();
}

// Reconciliation.

/** The store's orders paid through `provider` on `date` (store-local day): what the day's bill should hold. */
export function ordersPaidOn(ex: Executor, storeId: number, provider: string, date: string) {
  return ex
    .selectFrom('payOrder')
    .select(ORDER_COLUMNS)
    .where('storeId', '=', storeId)
    .where('provider', '=', provider)
    .where('paidAt', '>=', `${date} 00:00:00`)
    .where('paidAt', '<=', `${date} 23:59:59`)
    .orderBy('id')
    .execute();
}

/**
 * The store's refunds through `provider` the day's bill should hold: settled 已退款 on `date`
 * (store-local), with their order's number.
 */
export function refundsDoneOn(ex: Executor, storeId: number, provider: string, date: string) {
  return ex
    .selectFrom('payRefund as r')
    .innerJoin('payOrder as o', 'o.id', 'r.payOrderId')
    .select(['r.refundNo', 'r.amount', 'r.status', 'o.orderNo'])
    .where('r.storeId', '=', storeId)
    .where('o.provider', '=', provider)
    .where('r.status', '=', 1)
    .where('r.settledAt', '>=', `${date} 00:00:00`)
    .where('r.settledAt', '<=', `${date} 23:59:59`)
    .orderBy('r.id')
    .execute();
}

export const RECONCILE_COLUMNS = [
  'id',
  'provider',
  'billDate',
  'status',
  'startedAt',
  'finishedAt',
  'matched',
  'result',
  'error',
] as const;

export function reconcileRuns(ex: Executor, storeId: number, date: string) {
  return ex
    .selectFrom('payReconcile')
    .select(RECONCILE_COLUMNS)
    .where('storeId', '=', storeId)
    .where('billDate', '=', date)
    .execute();
}

/**
 * Claims a day's reconciliation for this run: a new row, or (when `again`) an earlier run that is not
 * running, or whose runner went quiet before `staleBefore`. Answers the row's id, or null when
 * another run holds it (or, without `again`, it was done already).
 */
export async function claimReconcile(
  tx: Tx,
  row: { storeId: number; provider: string; billDate: string; now: string; staleBefore: string; again: boolean },
): Promise<number | null> {
  const made = await tx
    .insertInto('payReconcile')
    .values({
      storeId: row.storeId,
      provider: row.provider,
      billDate: row.billDate,
      status: 'running',
      startedAt: row.now,
      finishedAt: null,
      result: null,
      error: null,
    })
    .onConflict((oc) => oc.columns(['storeId', 'provider', 'billDate']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (made) return made.id;
  const taken = await tx
    .updateTable('payReconcile')
    .set({ status: 'running', startedAt: row.now, finishedAt: null, error: null })
    .where('storeId', '=', row.storeId)
    .where('provider', '=', row.provider)
    .where('billDate', '=', row.billDate)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'running'), eb('startedAt', '<', row.staleBefore)]),
        ...(row.again
          ? [eb('status', '!=', 'running')]
          : [eb.and([eb('status', '=', 'failed'), eb('startedAt', '<', row.staleBefore)])]),
      ]),
    )
    .returning('id')
    .executeTakeFirst();
  return taken?.id ?? null;
}

export async function finishReconcile(
  tx: Tx,
  id: number,
  done: {
    status: 'done' | 'failed';
    now: string;
    matched: number;
    differences: number;
    result: string | null;
    error: string | null;
  },
) {
  await tx
    .updateTable('payReconcile')
    .set({
      status: done.status,
      finishedAt: done.now,
      matched: done.matched,
      differences: done.differences,
      result: done.result,
      error: done.error,
    })
    .where('id', '=', id)
    .execute();
}

/** Stores taking online payments, with their time zones (the morning reconciliation's round). */
export function storesTakingPayments(ex: Executor) {
  return ex
    .selectFrom('paySetting as p')
    .innerJoin('store as s', 's.id', 'p.storeId')
    .select(['s.id', 's.timezone'])
    .execute();
}
