import type { Executor } from '../../db/index.ts';
import { withCourseName } from '../reference/public.ts';
import { joinCardProduct } from '../../db/joins.ts';

/** Rows per page of the export's keyset reads. */
export const EXPORT_PAGE = 2000;

/** One page of members after id `after`. */
export function memberPage(ex: Executor, storeId: number, after: number) {
  return ex
    .selectFrom('member')
    .select(['id', 'name', 'mobile', 'gender', 'birthday', 'remark', 'createdAt'])
    .where('storeId', '=', storeId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(EXPORT_PAGE)
    .execute();
}

/**
 * One page of cards with member, product and what they hold: every card, refunded (已退卡) and
 * transferred ones too (a transferred card is its holder's now), with the money received for it
 * (sale and top-ups less what was paid back).
 */
export function cardPage(ex: Executor, storeId: number, after: number) {
  return ex
    .selectFrom('memberCard as mc')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .$call(joinCardProduct())
    .select((eb) => [
      'mc.id',
      'm.name',
      'm.mobile',
      'm.gender',
      'm.birthday',
      'm.remark',
      'p.cardName',
      'p.bigType',
      'p.activation',
      'p.activateWithinDays',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.activateTime',
      'mc.createdAt',
      'mc.frozen',
      'mc.refundedAt',
      'mc.leaveDays',
      'mc.leavePeriods',
      eb
        .selectFrom('cardPayment as cp')
        .select((e) =>
          e.fn
            .sum<number>(
              e.case().when('cp.kind', '=', 'refund').then(e.neg('cp.amount')).else(e.ref('cp.amount')).end(),
            )
            .as('n'),
        )
        .whereRef('cp.memberCardId', '=', 'mc.id')
        .as('paid'),
    ])
    .where('mc.storeId', '=', storeId)
    .where('mc.id', '>', after)
    .orderBy('mc.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** One page of ledger entries (流水) with member and card. */
export function ledgerPage(ex: Executor, storeId: number, after: number) {
  return ex
    .selectFrom('cardLedger as l')
    .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .$call(joinCardProduct())
    .select([
      'l.id',
      'l.memberCardId',
      'm.name',
      'm.mobile',
      'p.cardName',
      'p.bigType',
      'l.kind',
      'l.amount',
      'l.reservationId',
      'l.remark',
      'l.createdAt',
    ])
    .where('l.storeId', '=', storeId)
    .where('l.id', '>', after)
    .orderBy('l.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** One page of bookings (预约) with member, class and card. */
export function bookingPage(ex: Executor, storeId: number, after: number) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('timetable as t', 't.id', 'r.timetableId')
    .$call(withCourseName)
    .select([
      'r.id',
      'r.timetableId as sessionId',
      'm.name',
      'm.mobile',
      't.startTime',
      'r.memberCardId',
      'r.studentCount',
      'r.usedCount',
      'r.status',
      'r.createTime',
      'r.cancelTime',
      'r.remark',
    ])
    .where('r.storeId', '=', storeId)
    .where('r.id', '>', after)
    .orderBy('r.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** One page of classes (课程) with course, teacher and room. */
export function sessionPage(ex: Executor, storeId: number, after: number) {
  return ex
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('area as a', 'a.id', 't.areaId')
    .select([
      't.id',
      'te.name as teacherName',
      'a.name as areaName',
      't.startTime',
      't.endTime',
      't.reservableCount',
      't.realCount',
      't.isOnline',
      't.deleted',
    ])
    .where('t.storeId', '=', storeId)
    .where('t.id', '>', after)
    .orderBy('t.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** One page of online orders (订单). */
export function orderPage(ex: Executor, storeId: number, after: number) {
  return ex
    .selectFrom('payOrder as o')
    .innerJoin('member as m', 'm.id', 'o.memberId')
    .select([
      'o.id',
      'o.orderNo',
      'm.name',
      'm.mobile',
      'o.kind',
      'o.description',
      'o.amount',
      'o.refunded',
      'o.method',
      'o.status',
      'o.createdAt',
      'o.paidAt',
    ])
    .where('o.storeId', '=', storeId)
    .where('o.id', '>', after)
    .orderBy('o.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** One page of money received and paid back (收款). */
export function paymentPage(ex: Executor, storeId: number, after: number) {
  return ex
    .selectFrom('cardPayment as cp')
    .innerJoin('memberCard as mc', 'mc.id', 'cp.memberCardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .$call(joinCardProduct())
    .leftJoin('staff as s', 's.id', 'cp.staffId')
    .select([
      'cp.id',
      'cp.memberCardId',
      'm.name',
      'm.mobile',
      'p.cardName',
      'cp.kind',
      'cp.amount',
      'cp.method',
      'cp.channel',
      's.name as staffName',
      'cp.remark',
      'cp.createdAt',
    ])
    .where('cp.storeId', '=', storeId)
    .where('cp.id', '>', after)
    .orderBy('cp.id')
    .limit(EXPORT_PAGE)
    .execute();
}

/** The rows of a store in each table the export reads (its total, counted before the first page). */
export async function exportTotals(ex: Executor, storeId: number): Promise<number> {
  const tables = ['member', 'memberCard', 'cardLedger', 'reservation', 'timetable', 'payOrder', 'cardPayment'] as const;
  let n = 0;
  for (const t of tables) {
    const row = await ex
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storeId', '=', storeId)
      .executeTakeFirst();
    n += Number(row?.n ?? 0);
  }
  return n;
}
