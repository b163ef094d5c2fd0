import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import { joinCardProduct } from '../../db/joins.ts';

/**
 * What was paid for the member card `mc` and not paid back (fen): at the desk, sales and top-ups
 * less refunds; online, each order's amount less what it refunded (as `paidSources` counts a card's
 * refund). The one measure of a card's price: the prepaid limits' remaining value and the reports'
 * value of lessons consumed and outstanding (features/reports) both take it. `asOf` (store-local
 * date-time): only the money moved by then (an online order's refunds not refused, made by then).
 */
export const cardNetPaidAt = (asOf?: string) =>
  asOf === undefined
    ? sql<number>`coalesce((select sum(case when p.pay_order_id is null then (case when p.kind = 'refund' then -p.amount else p.amount end) when p.kind in ('sale', 'topup') then o.amount - o.refunded else 0 end) from card_payment p left join pay_order o on o.id = p.pay_order_id where p.member_card_id = mc.id and p.kind in ('sale', 'topup', 'refund')), 0)`
    : sql<number>`coalesce((select sum(case when p.pay_order_id is null then (case when p.kind = 'refund' then -p.amount else p.amount end) when p.kind in ('sale', 'topup') then o.amount - coalesce((select sum(r.amount) from pay_refund r where r.pay_order_id = o.id and r.status <> 2 and r.created_at <= ${asOf}), 0) else 0 end) from card_payment p left join pay_order o on o.id = p.pay_order_id where p.member_card_id = mc.id and p.kind in ('sale', 'topup', 'refund') and p.created_at <= ${asOf}), 0)`;
export const cardNetPaid = cardNetPaidAt();

/**
 * The ledger's two balances (schema `CardLedgerTable.amount`): the kinds changing a card's
 * `totalCount` (sales, top-ups, what refunds took out and put back, rewards) and those changing its
 * `usedCount` (bookings' charges, their refunds, waivers). Balances back in time are the card's
 * now less the entries after.
 */
export const LEDGER_TOTAL_KINDS = [
  'issue',
  'topup',
  'card_refund',
  'topup_refund',
  'refund_undone',
  'referral',
  'referral_undone',
] as const;
export const LEDGER_USED_KINDS = ['deduct', 'refund', 'waive'] as const;

/** What entries of `kinds` after `asOf` changed card `mc` by. */
const ledgerAfter = (kinds: readonly string[], asOf: string) =>
  sql<number>`coalesce((select sum(l.amount) from card_ledger l where l.member_card_id = mc.id and l.kind in (${sql.join(kinds)}) and l.created_at > ${asOf}), 0)`;

/**
 * The store's cards not refunded (a member's, or every member's), with their product's kind and what
 * was paid for each and not paid back (`netPaid`, fen): at the desk, sales and top-ups less refunds;
 * online, each order's amount less what it refunded (as `paidSources` counts a card's refund). What
 * the prepaid limits measure a member's remaining balance and a card's prepaid amount from.
 */
export function cardsForPrepaidLimits(ex: Executor, storeId: number, memberId?: number, asOf?: string) {
  let q = ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct('cp'))
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .select([
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'm.name as memberName',
      'cp.cardName',
      'cp.bigType',
      'cp.cardType',
      'cp.perCount',
      asOf === undefined
        ? sql<number>`mc.total_count`.as('totalCount')
        : sql<number>`mc.total_count - ${ledgerAfter(LEDGER_TOTAL_KINDS, asOf)}`.as('totalCount'),
      asOf === undefined
        ? sql<number>`mc.used_count`.as('usedCount')
        : sql<number>`mc.used_count - ${ledgerAfter(LEDGER_USED_KINDS, asOf)}`.as('usedCount'),
      'mc.expireTime',
      'mc.validDays',
      'mc.leaveDays',
      'mc.activateTime',
      'mc.createdAt',
      cardNetPaidAt(asOf).as('netPaid'),
    ])
    .where('mc.storeId', '=', storeId);
  // As they were at `asOf`: cards made by then and not refunded by then (the card's balances and its
  // money rebuilt from the ledger and the payments: what happened after is taken back off).
  q =
    asOf === undefined
      ? q.where('mc.refundedAt', 'is', null)
      : q
          .where('mc.createdAt', '<=', asOf)
          .where((eb) => eb.or([eb('mc.refundedAt', 'is', null), eb('mc.refundedAt', '>', asOf)]));
  if (memberId !== undefined) q = q.where('mc.memberId', '=', memberId);
  return q.orderBy('mc.id').execute();
}
