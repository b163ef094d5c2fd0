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

/** Whether the member has a 体验卡 order paid, or still open. */
export async function memberHasTrialOrder(ex: Executor, storeId: number, memberId: number): Promise<boolean> {
  const row = await ex
    .selectFrom('payOrder')
    .select('id')
    .where('storeId', '=', storeId)
    .where('memberId', '=', memberId)
    .where('trial', '=', 1)
    .where('status', 'in', [0, 1, 4])
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
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
