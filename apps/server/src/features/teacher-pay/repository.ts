import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import { addMonths } from './month.ts';
import { cameSql } from '../timetable/public.ts';
import { withCourseName } from '../reference/public.ts';
import { joinCardProduct, leftJoinCardProduct } from '../../db/joins.ts';

/**
 * The queries of teacher pay and sales commission: rules, adjustments, closed months, commission
 * rates, and the month's classes with their heads. Money read from card_payment goes through the
 * reports' one query of money received (`reports/public.ts` paymentRowsIn), not a second one here.
 */

/** `[first instant, first instant of the next month)` of a month, as store-local text. */
export const monthBounds = (month: string) => [`${month}-01 00:00:00`, `${addMonths(month, 1)}-01 00:00:00`] as const;

// ---- rules ------------------------------------------------------------------------------

/** The store's rules (of one teacher, when given), with teacher and course names, oldest first. */
export function rulesOf(ex: Executor, storeId: number, teacherId?: number | null) {
  return ex
    .selectFrom('teacherPayRule as r')
    .innerJoin('teacher as te', 'te.id', 'r.teacherId')
    .leftJoin('course as c', 'c.id', 'r.courseId')
    .select([
      'r.id',
      'r.teacherId',
      'te.name as teacherName',
      'r.courseId',
      'c.name as courseName',
      'r.lessons',
      'r.level',
      'r.kind',
      'r.amount',
      'r.tiers',
      'r.heads',
      'r.minimum',
      'r.fromDate',
    ])
    .where('r.storeId', '=', storeId)
    .$if(!!teacherId, (q) => q.where('r.teacherId', '=', teacherId!))
    .orderBy('r.teacherId')
    .orderBy('r.fromDate')
    .orderBy('r.id')
    .execute();
}

/** A rule's scope: a course or none, with none whether all lessons, and a teacher level or none. */
export interface RuleScope {
  courseId: number | null;
  lessons: number;
  level: 'junior' | 'senior' | 'master' | null;
}

/** The store's rule of a teacher, scope and start date, if any. */
export function ruleAt(ex: Executor, storeId: number, teacherId: number, scope: RuleScope, fromDate: string) {
  return ex
    .selectFrom('teacherPayRule')
    .selectAll()
    .where('storeId', '=', storeId)
    .where('teacherId', '=', teacherId)
    .where('courseId', scope.courseId === null ? 'is' : '=', scope.courseId)
    .where('lessons', '=', scope.lessons)
    .where('level', scope.level === null ? 'is' : '=', scope.level)
    .where('fromDate', '=', fromDate)
    .executeTakeFirst();
}

export async function insertRule(tx: Tx, row: NewRow<'teacherPayRule'>) {
  await tx.insertInto('teacherPayRule').values(row).execute();
}

export async function replaceRule(
  tx: Tx,
  id: number,
  fields: Pick<NewRow<'teacherPayRule'>, 'kind' | 'amount' | 'tiers' | 'heads' | 'minimum' | 'updatedAt'>,
) {
  await tx.updateTable('teacherPayRule').set(fields).where('id', '=', id).execute();
}

export async function deleteRule(tx: Tx, id: number) {
  await tx.deleteFrom('teacherPayRule').where('id', '=', id).execute();
}

// ---- the month's classes --------------------------------------------------------------

/**
 * The live sessions of a month (of one teacher, when given) with their teacher (the session's own:
 * whoever taught it, a substitute included), course, seats taken by live bookings and people who
 * came (the attendance fact every reader shares: timetable `cameSql`), in time order. A 私教/小班
 * lesson (its course's kind not 'group') comes with the teacher's level for its type; one still
 * waiting for its teacher to confirm (待确认) is left out, as a released or cancelled one (deleted) is.
 */
export async function classesOfMonth(ex: Executor, storeId: number, month: string, teacherId?: number | null) {
  const [lo, hi] = monthBounds(month);
  const rows = await ex
    .selectFrom('timetable as t')
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .leftJoin('lessonTeacher as lt', (j) =>
      j.onRef('lt.courseId', '=', 't.courseId').onRef('lt.teacherId', '=', 't.teacherId'),
    )
    .select((eb) => [
      't.id',
      't.teacherId',
      'te.name as teacherName',
      't.courseId',
      'c.kind',
      'lt.level',
      't.startTime',
      't.isOnline',
      't.realCount',
      eb
        .selectFrom('reservation as rv')
        .select(sql<number>`coalesce(sum(rv.student_count), 0)`.as('n'))
        .whereRef('rv.timetableId', '=', 't.id')
        .where(cameSql('rv'))
        .as('came'),
    ])
    .where('t.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where((eb) => eb.or([eb('t.appointmentStatus', 'is', null), eb('t.appointmentStatus', '=', 'confirmed')]))
    .where('t.startTime', '>=', lo)
    .where('t.startTime', '<', hi)
    .$if(!!teacherId, (q) => q.where('t.teacherId', '=', teacherId!))
    .orderBy('t.startTime')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({ ...r, realCount: Number(r.realCount), came: Number(r.came ?? 0) }));
}

// ---- adjustments ------------------------------------------------------------------------

/** A month's adjustments (of one teacher, when given), with the teacher's and the maker's names. */
export function adjustmentsOf(ex: Executor, storeId: number, month: string, teacherId?: number | null) {
  return ex
    .selectFrom('teacherPayAdjustment as a')
    .innerJoin('teacher as te', 'te.id', 'a.teacherId')
    .leftJoin('staff as s', 's.id', 'a.staffId')
    .select([
      'a.id',
      'a.teacherId',
      'te.name as teacherName',
      'a.amount',
      'a.reason',
      's.name as staffName',
      'a.createdAt',
    ])
    .where('a.storeId', '=', storeId)
    .where('a.month', '=', month)
    .$if(!!teacherId, (q) => q.where('a.teacherId', '=', teacherId!))
    .orderBy('a.id')
    .execute();
}

export async function insertAdjustment(tx: Tx, row: NewRow<'teacherPayAdjustment'>): Promise<number> {
  const r = await tx.insertInto('teacherPayAdjustment').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

// ---- sales ------------------------------------------------------------------------------

/**
 * The sales and top-ups ever recorded for some cards, with who took them (the desk's staff member,
 * or the staff member of the online order: the desk's 扫码收款): the originals that refunds pay back.
 */
export async function salesOfCards(ex: Executor, storeId: number, cardIds: readonly number[]) {
  if (!cardIds.length) return [];
  return ex
    .selectFrom('cardPayment as p')
    .leftJoin('payOrder as o', 'o.id', 'p.payOrderId')
    .select([
      'p.id',
      'p.kind',
      'p.memberCardId',
      'p.ledgerId',
      'p.payOrderId',
      'p.staffId',
      'p.sellerId',
      'o.staffId as orderStaffId',
      'o.sellerId as orderSellerId',
    ])
    .where('p.storeId', '=', storeId)
    .where('p.memberCardId', 'in', cardIds)
    .where('p.kind', 'in', ['sale', 'topup'])
    .orderBy('p.id')
    .execute();
}

/**
 * One money record of the store (card_payment) with what says who sold it (as `salesOfCards`), its
 * date, member and card: a sale whose seller a manager changes. Undefined: not the store's.
 */
export function paymentWithSeller(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('cardPayment as p')
    .innerJoin('memberCard as mc', 'mc.id', 'p.memberCardId')
    .$call(joinCardProduct('cp'))
    .leftJoin('payOrder as o', 'o.id', 'p.payOrderId')
    .select([
      'p.id',
      'p.kind',
      'p.amount',
      'p.createdAt',
      'p.memberCardId',
      'p.sellerId',
      'p.staffId',
      'o.staffId as orderStaffId',
      'o.sellerId as orderSellerId',
      'mc.memberId',
      'cp.cardName',
    ])
    .where('p.storeId', '=', storeId)
    .where('p.id', '=', id)
    .executeTakeFirst();
}

/** Names the 销售员 of a sale or top-up (card_payment), whom the commission counts from then on. */
export async function setPaymentSeller(tx: Tx, storeId: number, id: number, sellerId: number) {
  await tx.updateTable('cardPayment').set({ sellerId }).where('storeId', '=', storeId).where('id', '=', id).execute();
}

// ---- commission rates -------------------------------------------------------------------

/** The store's staff (by their post) with their commission rate (hundredths of a percent; 0 unset) and per-conversion fen. */
export async function ratesOfStaff(ex: Executor, storeId: number) {
  const rows = await ex
    .selectFrom('post')
    .innerJoin('staff as s', 's.id', 'post.staffId')
    .leftJoin('salesCommissionRate as r', (j) => j.onRef('r.staffId', '=', 's.id').on('r.storeId', '=', storeId))
    .select(['s.id as staffId', 's.name', 'post.role', 'post.enabled', 'r.rateBp', 'r.perConversion'])
    .where('post.storeId', '=', storeId)
    .orderBy('s.id')
    .execute();
  return rows.map((r) => ({ ...r, rateBp: Number(r.rateBp ?? 0), perConversion: Number(r.perConversion ?? 0) }));
}

/** A staff member's rate (hundredths of a percent) and per-conversion fen, 0 when unset. */
export async function rateOf(ex: Executor, storeId: number, staffId: number) {
  const r = await ex
    .selectFrom('salesCommissionRate')
    .select(['rateBp', 'perConversion'])
    .where('storeId', '=', storeId)
    .where('staffId', '=', staffId)
    .executeTakeFirst();
  return { rateBp: Number(r?.rateBp ?? 0), perConversion: Number(r?.perConversion ?? 0) };
}

export async function putRate(
  tx: Tx,
  storeId: number,
  staffId: number,
  set: { rateBp: number; perConversion: number },
  now: string,
) {
  await tx
    .insertInto('salesCommissionRate')
    .values({ storeId, staffId, ...set, updatedAt: now })
    .onConflict((oc) => oc.columns(['storeId', 'staffId']).doUpdateSet({ ...set, updatedAt: now }))
    .execute();
}

/** Names of staff members by id (sellers no longer at the store keep theirs). */
export async function staffNames(ex: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await ex.selectFrom('staff').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The store's leads converted (已成交) in `[from, to)` (store-local times), each with whom it was
 * credited to then (`converted_owner_id`; null: a pool lead, nobody's) and the card that converted
 * it, in time order: what a seller's per-conversion commission counts (a lead converts once; read
 * here, not through leads/public.ts, whose pool job would close a cycle of feature folders).
 */
export function conversionsIn(ex: Executor, storeId: number, from: string, to: string) {
  return ex
    .selectFrom('lead as l')
    .leftJoin('memberCard as mc', 'mc.id', 'l.convertedCardId')
    .$call(leftJoinCardProduct('cp'))
    .select(['l.id', 'l.name', 'l.convertedOwnerId as ownerId', 'l.convertedAt', 'cp.cardName'])
    .where('l.storeId', '=', storeId)
    .where('l.convertedCardId', 'is not', null)
    .where('l.convertedAt', '>=', from)
    .where('l.convertedAt', '<', to)
    .orderBy('l.convertedAt')
    .orderBy('l.id')
    .execute();
}
