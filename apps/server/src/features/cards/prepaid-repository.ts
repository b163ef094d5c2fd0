import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import { joinCardProduct } from '../../db/joins.ts';

/**
 * What was paid for the member card `mc` and not paid back (fen): at the desk, sales and top-ups
 * less refunds; online, each order's amount less what it refunded (as `paidSources` counts a card's
 * refund). The one measure of a card's price: the prepaid limits' remaining value and the reports'
 * value of lessons consumed and outstanding (features/reports) both take it.
 */
export const cardNetPaid = sql<number>`coalesce((select sum(case when p.pay_order_id is null then (case when p.kind = 'refund' then -p.amount else p.amount end) when p.kind in ('sale', 'topup') then o.amount - o.refunded else 0 end) from card_payment p left join pay_order o on o.id = p.pay_order_id where p.member_card_id = mc.id and p.kind in ('sale', 'topup', 'refund')), 0)`;

/**
 * The store's cards not refunded (a member's, or every member's), with their product's kind and what
 * was paid for each and not paid back (`netPaid`, fen): at the desk, sales and top-ups less refunds;
 * online, each order's amount less what it refunded (as `paidSources` counts a card's refund). What
 * the prepaid limits measure a member's remaining balance and a card's prepaid amount from.
 */
export function cardsForPrepaidLimits(ex: Executor, storeId: number, memberId?: number) {
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
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.validDays',
      'mc.leaveDays',
      'mc.activateTime',
      'mc.createdAt',
      cardNetPaid.as('netPaid'),
    ])
    .where('mc.storeId', '=', storeId)
    .where('mc.refundedAt', 'is', null);
  if (memberId !== undefined) q = q.where('mc.memberId', '=', memberId);
  return q.orderBy('mc.id').execute();
}
