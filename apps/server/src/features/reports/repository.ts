import { BIG_TYPE_COUNT, LIVE_PENDING, LIVE_RESERVATION, PendingStatus, ReservationStatus } from '@studio/contract';
import { sql } from 'kysely';
import type { Executor } from '../../db/index.ts';
import { addDays } from '../../lib/time.ts';
import { cameSql, missedSql } from '../timetable/public.ts';
import { withCourseName } from '../reference/public.ts';
import { cardNetPaid } from '../cards/public.ts';
import { joinCardProduct } from '../../db/joins.ts';

/** Live (not deleted) sessions of a store starting on a local date in [from, to]. */
export interface Range {
  storeId: number;
  from: string;
  to: string;
}

const startBound = (r: Range) => [`${r.from} 00:00:00`, `${addDays(r.to, 1)} 00:00:00`] as const;
const n = (v: unknown) => Number(v ?? 0);

function sessionsIn(ex: Executor, r: Range) {
  const [lo, hi] = startBound(r);
  return ex
    .selectFrom('timetable as t')
    .where('t.storeId', '=', r.storeId)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '>=', lo)
    .where('t.startTime', '<', hi);
}

const fillColumns = [
  sql<number>`count(*)`.as('sessions'),
  sql<number>`coalesce(sum(t.reservable_count), 0)`.as('seats'),
  sql<number>`coalesce(sum(t.real_count), 0)`.as('booked'),
] as const;

export interface FillRow {
  sessions: number;
  seats: number;
  booked: number;
}
const fill = (row: { sessions: unknown; seats: unknown; booked: unknown }): FillRow => ({
  sessions: n(row.sessions),
  seats: n(row.seats),
  booked: n(row.booked),
});

/** Sessions, seats and seats taken, in total or grouped by a key of the session. */
export async function fillTotals(ex: Executor, r: Range): Promise<FillRow> {
  return fill(await sessionsIn(ex, r).select(fillColumns).executeTakeFirstOrThrow());
}

export async function fillByCourse(ex: Executor, r: Range) {
  const rows = await sessionsIn(ex, r)
    .$call(withCourseName)
    .select(['t.courseId', ...fillColumns])
    .groupBy(['t.courseId', 'c.name'])
    .execute();
  return rows.map((x) => ({ courseId: x.courseId, courseName: x.courseName, ...fill(x) }));
}

/** Per local date and start hour (the weekday x hour heatmap and the daily trend fold these). */
export async function fillByDateHour(ex: Executor, r: Range) {
  const rows = await sessionsIn(ex, r)
    .select([
      sql<string>`substr(t.start_time, 1, 10)`.as('date'),
      sql<string>`substr(t.start_time, 12, 2)`.as('hour'),
      ...fillColumns,
    ])
    .groupBy([sql`substr(t.start_time, 1, 10)`, sql`substr(t.start_time, 12, 2)`])
    .execute();
  return rows.map((x) => ({ date: x.date, hour: Number(x.hour), ...fill(x) }));
}

/**
 * People who came, per session of the range, by their student count: pendings signed in (签到后扣费)
 * and bookings marked 到店 (预约即扣费: by the desk, the teacher or the member's scan).
 */
export async function signedInBySession(ex: Executor, r: Range) {
  const rows = await sessionsIn(ex, r)
    .innerJoin('reservation as rv', 'rv.timetableId', 't.id')
    .where(cameSql('rv'))
    .select([
      't.id',
      't.teacherId',
      't.courseId',
      sql<string>`substr(t.start_time, 1, 10)`.as('date'),
      sql<number>`sum(rv.student_count)`.as('people'),
    ])
    .groupBy(['t.id', 't.teacherId', 't.courseId', 't.startTime'])
    .execute();
  return rows.map((x) => ({
    id: x.id,
    teacherId: x.teacherId,
    courseId: x.courseId,
    date: x.date,
    people: n(x.people),
  }));
}

/**
 * People not come by their session's end (`now`, store local time): pendings not signed in (still
 * waiting, or processed as no-shows by the job), and bookings not marked 到店 in a class whose
 * attendance was taken (预约即扣费).
 */
export async function noShowPeople(ex: Executor, r: Range, now: string) {
  const [pendings, bookings] = await Promise.all([
    sessionsIn(ex, r)
      .innerJoin('pending as p', 'p.timetableId', 't.id')
      .where('p.status', 'in', [PendingStatus.WAITING, PendingStatus.NO_SHOW])
      .where('t.endTime', '<=', now)
      .select(sql<number>`coalesce(sum(p.student_count), 0)`.as('people'))
      .executeTakeFirstOrThrow(),
    sessionsIn(ex, r)
      .innerJoin('reservation as rv', 'rv.timetableId', 't.id')
      .where(missedSql('rv', 't', now))
      .select(sql<number>`coalesce(sum(rv.student_count), 0)`.as('people'))
      .executeTakeFirstOrThrow(),
  ]);
  return n(pendings.people) + n(bookings.people);
}

/**
 * Late cancels (迟到取消): bookings a member cancelled after the free-cancel time keeping what they
 * paid (`forfeited`, waived or not), and bookings cancelled at or after their session's start.
 */
export async function lateCancelCount(ex: Executor, r: Range) {
  const row = await sessionsIn(ex, r)
    .innerJoin('reservation as rv', 'rv.timetableId', 't.id')
    .where('rv.status', '=', ReservationStatus.CANCELLED)
    .where((eb) => eb.or([eb('rv.forfeited', '=', 1), eb('rv.cancelTime', '>=', eb.ref('t.startTime'))]))
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return n(row.n);
}

/**
 * Net deductions (deducts less refunds) of the range's sessions, per card kind: summed per card
 * first (a covering index of migration 1100), then the few cards joined to their product.
 */
export async function consumption(ex: Executor, r: Range) {
  const perCard = sessionsIn(ex, r)
    .innerJoin('cardLedger as l', 'l.timetableId', 't.id')
    .where('l.kind', 'in', ['deduct', 'refund'])
    .select(['l.memberCardId', sql<number>`sum(l.amount)`.as('amount')])
    .groupBy('l.memberCardId');
  const rows = await ex
    .selectFrom(perCard.as('x'))
    .innerJoin('memberCard as mc', 'mc.id', 'x.memberCardId')
    .$call(joinCardProduct())
    .select(['p.bigType', sql<number>`coalesce(sum(x.amount), 0)`.as('amount')])
    .groupBy('p.bigType')
    .execute();
  let countUsed = 0;
  let moneyUsed = 0;
  for (const x of rows) {
    if (x.bigType === BIG_TYPE_COUNT) countUsed += n(x.amount);
    else moneyUsed += n(x.amount);
  }
  return { countUsed, moneyUsed };
}

/** Cards issued and members created on a local date in the range. */
export async function newThings(ex: Executor, r: Range) {
  const [lo, hi] = startBound(r);
  const [cards, members] = await Promise.all([
    ex
      .selectFrom('memberCard')
      .where('storeId', '=', r.storeId)
      .where('createdAt', '>=', lo)
      .where('createdAt', '<', hi)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
    ex
      .selectFrom('member')
      .where('storeId', '=', r.storeId)
      .where('createdAt', '>=', lo)
      .where('createdAt', '<', hi)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { cardsSold: n(cards.n), newMembers: n(members.n) };
}

/**
 * The money of the range: card sales and top-ups received, and card refunds paid back, recorded on a
 * local date in the range (card_payment). The one read of money received: the overview sums it, the
 * sales commission (features/teacher-pay) lists it per seller.
 */
function paymentsIn(ex: Executor, r: Range) {
  const [lo, hi] = startBound(r);
  return ex
    .selectFrom('cardPayment as p')
    .where('p.storeId', '=', r.storeId)
    .where('p.createdAt', '>=', lo)
    .where('p.createdAt', '<', hi);
}

/**
 * Fen received (card sales, top-ups, transfer fees) on a local date in the range, less what refunds
 * paid back, by channel (前台 desk, 线上 online) and method: the overview's 收款 and its split.
 */
export async function moneyReceived(ex: Executor, r: Range) {
  const rows = await paymentsIn(ex, r)
    .select([
      'p.channel',
      'p.method',
      sql<number>`coalesce(sum(case when p.kind = 'refund' then -p.amount else p.amount end), 0)`.as('fen'),
    ])
    .groupBy(['p.channel', 'p.method'])
    .orderBy('p.channel')
    .orderBy('p.method')
    .execute();
  const split = rows.map((x) => ({
    channel: x.channel === 'online' ? ('online' as const) : ('desk' as const),
    method: x.method,
    amount: n(x.fen),
  }));
  return { total: split.reduce((s, x) => s + x.amount, 0), split };
}

/**
 * Each payment of the range (money received, `paymentsIn`) with what says who sold it: the 销售员
 * named for it (`sellerId`, issue 42), the staff
 * member who took it (`staffId`: the desk's sale, top-up or refund; null for an online order), the
 * staff member of its online order (`orderStaffId`: the desk's 扫码收款; null for a member's own
 * order), the top-up a refund pays back (`refundOf`), and the member and card product.
 */
export async function paymentRowsIn(ex: Executor, r: Range) {
  const rows = await paymentsIn(ex, r)
    .innerJoin('memberCard as mc', 'mc.id', 'p.memberCardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .$call(joinCardProduct('cp'))
    .leftJoin('payOrder as o', 'o.id', 'p.payOrderId')
    .select([
      'p.id',
      'p.kind',
      'p.amount',
      'p.method',
      'p.channel',
      'p.staffId',
      'p.sellerId',
      'o.staffId as orderStaffId',
      'o.sellerId as orderSellerId',
      'p.memberCardId',
      'p.ledgerId',
      'p.refundOf',
      'p.payOrderId',
      'p.createdAt',
      'mc.cardId as productId',
      'm.id as memberId',
      'm.name as memberName',
      'cp.cardName',
    ])
    .orderBy('p.createdAt')
    .orderBy('p.id')
    .execute();
  return rows.map((x) => ({ ...x, amount: n(x.amount) }));
}

/** Members holding a live booking or a live pending in a session of the range. */
export async function activeMemberCount(ex: Executor, r: Range) {
  const [lo, hi] = startBound(r);
  const row = await ex
    .selectFrom('member as m')
    .where('m.storeId', '=', r.storeId)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('reservation as rv')
            .innerJoin('timetable as t', 't.id', 'rv.timetableId')
            .whereRef('rv.memberId', '=', 'm.id')
            .where('rv.status', 'in', LIVE_RESERVATION)
            .where('t.deleted', '=', 0)
            .where('t.startTime', '>=', lo)
            .where('t.startTime', '<', hi)
            .select(sql`1`.as('x')),
        ),
        eb.exists(
          eb
            .selectFrom('pending as p')
            .innerJoin('timetable as t', 't.id', 'p.timetableId')
            .whereRef('p.memberId', '=', 'm.id')
            .where('p.status', 'in', LIVE_PENDING)
            .where('t.deleted', '=', 0)
            .where('t.startTime', '>=', lo)
            .where('t.startTime', '<', hi)
            .select(sql`1`.as('x')),
        ),
      ]),
    )
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return n(row.n);
}

/** Sessions and seats taken per teacher (deleted teachers keep their name in the report). */
export async function fillByTeacher(ex: Executor, r: Range) {
  const rows = await sessionsIn(ex, r)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .select(['t.teacherId', 'te.name as teacherName', ...fillColumns])
    .groupBy(['t.teacherId', 'te.name'])
    .execute();
  return rows.map((x) => ({ teacherId: x.teacherId, teacherName: x.teacherName, ...fill(x) }));
}

/**
 * The store's cards that are neither frozen nor refunded, with product and holder (card alerts
 * filter them by the card rules).
 */
export function unfrozenCards(ex: Executor, storeId: number) {
  return ex
    .selectFrom('memberCard as mc')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .$call(joinCardProduct())
    .where('mc.storeId', '=', storeId)
    .where('mc.frozen', '=', 0)
    .where('mc.refundedAt', 'is', null)
    .select([
      'mc.id',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'p.cardName',
      'p.bigType',
      'p.cardType',
      'm.id as memberId',
      'm.name as memberName',
      'm.mobile',
    ])
    .orderBy('mc.id')
    .execute();
}

/**
 * Members created before `since` whose last class (a live booking or pending, session started before
 * `now`) started before `since`, or who never came; with their last visit.
 */
export async function membersNotSeenSince(ex: Executor, storeId: number, since: string, now: string) {
  const visits = ex
    .selectFrom('reservation as rv')
    .innerJoin('timetable as t', 't.id', 'rv.timetableId')
    .where('rv.storeId', '=', storeId)
    .where('rv.status', 'in', LIVE_RESERVATION)
    .where('t.deleted', '=', 0)
    .where('t.startTime', '<=', now)
    .select(['rv.memberId', 't.startTime'])
    .unionAll(
      ex
        .selectFrom('pending as p')
        .innerJoin('timetable as t', 't.id', 'p.timetableId')
        .where('p.storeId', '=', storeId)
        .where('p.status', 'in', LIVE_PENDING)
        .where('t.deleted', '=', 0)
        .where('t.startTime', '<=', now)
        .select(['p.memberId', 't.startTime']),
    );
  const last = ex
    .selectFrom(visits.as('v'))
    .select(['v.memberId', sql<string>`max(v.start_time)`.as('lastVisit')])
    .groupBy('v.memberId');
  return ex
    .selectFrom('member as m')
    .leftJoin(last.as('l'), 'l.memberId', 'm.id')
    .where('m.storeId', '=', storeId)
    .where('m.createdAt', '<', since)
    .where((eb) => eb.or([eb('l.lastVisit', 'is', null), eb('l.lastVisit', '<', since)]))
    .select(['m.id', 'm.name', 'm.mobile', 'l.lastVisit'])
    .orderBy('m.id')
    .limit(1000)
    .execute();
}

/** Stores with a value for a store setting (the daily digest's schedule), with their time zone. */
export function storesWithSetting(ex: Executor, key: string) {
  return ex
    .selectFrom('storeSetting as s')
    .innerJoin('store as st', 'st.id', 's.storeId')
    .where('s.key', '=', key)
    .select(['s.storeId', 's.value', 'st.timezone'])
    .orderBy('s.storeId')
    .execute();
}

/** Claims a store's once-a-day job for a date: true for the one caller that inserted the key. */
export async function claimDailyJob(ex: Executor, storeId: number, kind: string, date: string, at: number) {
  const rows = await ex
    .insertInto('dailyJob')
    .values({ storeId, kind, date, createdAt: at })
    .onConflict((oc) => oc.columns(['storeId', 'kind', 'date']).doNothing())
    .returning('storeId')
    .execute();
  return rows.length === 1;
}

/**
 * 私教 and 小班 (issue 43): the range's live lessons (sessions of a course whose kind is not
 * 'group') per lesson type and teacher: how many, how many ended by `now` (taught), seats taken.
 */
export async function lessonsByTypeAndTeacher(ex: Executor, r: Range, now: string) {
  const rows = await sessionsIn(ex, r)
    .$call(withCourseName)
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .where('c.kind', '<>', 'group')
    .select([
      't.courseId',
      'c.kind',
      't.teacherId',
      'te.name as teacherName',
      sql<number>`count(*)`.as('lessons'),
      sql<number>`coalesce(sum(case when t.end_time <= ${now} then 1 else 0 end), 0)`.as('taught'),
      sql<number>`coalesce(sum(t.real_count), 0)`.as('booked'),
    ])
    .groupBy(['t.courseId', 'c.name', 'c.kind', 't.teacherId', 'te.name'])
    .execute();
  return rows.map((x) => ({ ...x, lessons: n(x.lessons), taught: n(x.taught), booked: n(x.booked) }));
}

/**
 * What each card gave for the range's sessions, per course and teacher: net deductions (deducts
 * less refunds, as `consumption` counts them), with the card's kind, product, total and what was
 * paid for it (`cardNetPaid`): what the value of lessons consumed is measured from (`usedValue`).
 */
export async function usedByCard(ex: Executor, r: Range) {
  const perCard = sessionsIn(ex, r)
    .innerJoin('cardLedger as l', 'l.timetableId', 't.id')
    .where('l.kind', 'in', ['deduct', 'refund'])
    .select(['l.memberCardId', 't.courseId', 't.teacherId', sql<number>`sum(l.amount)`.as('amount')])
    .groupBy(['l.memberCardId', 't.courseId', 't.teacherId']);
  const rows = await ex
    .selectFrom(perCard.as('x'))
    .innerJoin('memberCard as mc', 'mc.id', 'x.memberCardId')
    .$call(joinCardProduct('cp'))
    .innerJoin('course as c', 'c.id', 'x.courseId')
    .select([
      'x.memberCardId',
      'x.courseId',
      'x.teacherId',
      'x.amount',
      'c.kind',
      'mc.cardId',
      'mc.totalCount',
      'cp.bigType',
      cardNetPaid.as('netPaid'),
    ])
    .execute();
  return rows.map((x) => ({
    ...x,
    amount: n(x.amount),
    totalCount: n(x.totalCount),
    netPaid: n(x.netPaid),
  }));
}

/**
 * The store's lesson packs (私教课包): count-card products (deleted ones too: their cards live on)
 * that book a lesson type, with the teacher or level they are bound to.
 */
export function lessonPackProducts(ex: Executor, storeId: number) {
  return ex
    .selectFrom('cardProduct as cp')
    .where('cp.storeId', '=', storeId)
    .where('cp.bigType', '=', BIG_TYPE_COUNT)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('courseCard as cc')
          .innerJoin('course as c', 'c.id', 'cc.courseId')
          .whereRef('cc.cardId', '=', 'cp.id')
          .where('c.kind', '<>', 'group')
          .select(sql`1`.as('x')),
      ),
    )
    .select(['cp.id', 'cp.cardName', 'cp.teacherId', 'cp.teacherLevel', 'cp.deleted'])
    .orderBy('cp.id')
    .execute();
}

/**
 * Per product: cards issued on a date of the range, and what was put on cards (issue and top-up
 * ledger entries: lessons for a count card) on a date of the range.
 */
export async function issuedByProduct(ex: Executor, r: Range) {
  const [lo, hi] = startBound(r);
  const [cards, added] = await Promise.all([
    ex
      .selectFrom('memberCard')
      .where('storeId', '=', r.storeId)
      .where('createdAt', '>=', lo)
      .where('createdAt', '<', hi)
      .select(['cardId', sql<number>`count(*)`.as('n')])
      .groupBy('cardId')
      .execute(),
    ex
      .selectFrom('cardLedger as l')
      .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
      .where('l.storeId', '=', r.storeId)
      .where('l.kind', 'in', ['issue', 'topup'])
      .where('l.createdAt', '>=', lo)
      .where('l.createdAt', '<', hi)
      .select(['mc.cardId', sql<number>`coalesce(sum(l.amount), 0)`.as('n')])
      .groupBy('mc.cardId')
      .execute(),
  ]);
  return {
    cards: new Map(cards.map((x) => [x.cardId, n(x.n)])),
    added: new Map(added.map((x) => [x.cardId, n(x.n)])),
  };
}

/** The range's live sessions of every teacher, with whether each is a lesson: what fills their hours. */
export function teacherSessions(ex: Executor, r: Range) {
  return sessionsIn(ex, r)
    .$call(withCourseName)
    .select(['t.teacherId', 't.startTime', 't.endTime', 'c.kind'])
    .orderBy('t.startTime')
    .execute();
}
