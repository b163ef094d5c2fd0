import { Msg, OperateType, PendingStatus, ReservationStatus } from '@studio/contract';
import { recordForUndo } from '../../lib/audit.ts';
import type { Tx } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import type { StoreScope } from '../../lib/context.ts';
import { conflict } from '../../lib/errors.ts';
import { cardUnusableReason, chargeFor } from '../card/rules.ts';
import { ageRefusal, genderRefusal } from '../timetable/rules.ts';
import { assertNoTimeClash } from './conflicts.ts';
import type { CourseWithCards, BookingCard } from './refs.ts';

/** One session a bulk run makes, with the fixed students to book into it. */
export interface PlannedSession {
  course: CourseWithCards;
  teacherId: number;
  areaId: number | null;
  bookId: number | null;
  startTime: string;
  endTime: string;
  reservableCount: number;
  isOnline: number;
  students: { card: BookingCard; studentCount: number }[];
  /** The message of a booking of this session that breaks a rule: names the session and the member. */
  failure: (memberName: string, reason: string) => string;
}

/** Most bound parameters one statement carries (SQLite allows 32766, PostgreSQL 65535). */
const MAX_PARAMS = 30_000;

function chunks<T>(rows: T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/**
 * Checks every booking of the plan in time order against the rules a single booking goes through
 * (features/card/rules.ts with the running balance of each card, the session not over, gender and
 * age limits, one booking per member and session, seats; in deduction mode 1 one student each and
 * nothing deducted). Throws 409 with the plan's wording of the first failure. Returns what each
 * card pays in total.
 */
function checkBookings(plan: readonly PlannedSession[], mode: 0 | 1, now: string): Map<number, number> {
  const spent = new Map<number, number>();
  const order = plan.map((_, i) => i).sort((a, b) => plan[a].startTime.localeCompare(plan[b].startTime) || a - b);
  for (const i of order) {
    const s = plan[i];
    const members = new Set<number>();
    let seats = 0;
    for (const { card, studentCount } of s.students) {
      const used = card.usedCount + (spent.get(card.id) ?? 0);
      seats += studentCount;
      // In the engine's order: card rules, then the session not over, limits, duplicate, seats.
      const reason =
        (mode === 1 && studentCount !== 1 ? Msg.oneStudentInSignInMode : null) ??
        cardUnusableReason({
          card: { ...card, usedCount: used },
          product: card,
          memberId: card.memberId,
          allowedCardIds: s.course.cardIds,
          at: s.startTime,
          studentCount,
        }) ??
        (s.endTime <= now ? Msg.sessionStarted : null) ??
        genderRefusal(s.course.genderLimit, card.gender) ??
        ageRefusal(s.course, card.birthday, s.startTime.slice(0, 10)) ??
        (members.has(card.memberId) ? Msg.alreadyBooked : null) ??
        (seats > s.reservableCount ? Msg.sessionFull : null);
      if (reason) throw conflict(s.failure(card.memberName, reason));
      members.add(card.memberId);
      if (mode === 0) spent.set(card.id, (spent.get(card.id) ?? 0) + chargeFor(card, studentCount));
    }
  }
  return spent;
}

/**
 * Makes many sessions with their fixed students in the caller's transaction, in bulk: what
 * `createSession` + `bookWithCard` (mode 0) or `addPending` (mode 1) of the engine write for each,
 * written with multi-row INSERTs, each card charged once with its total under the same guarded
 * UPDATE. Every rule is checked before the first write (see checkBookings), teacher clashes
 * included. Returns the new session ids in plan order.
 */
export async function createPlannedSessions(
  tx: Tx,
  store: StoreScope,
  plan: readonly PlannedSession[],
  o: { mode: 0 | 1; operatorId: number | null; now: string },
): Promise<number[]> {
  if (!plan.length) return [];
  await assertNoTimeClash(tx, store.id, plan);
  const spent = checkBookings(plan, o.mode, o.now);

  const sessionRows: NewRow<'timetable'>[] = plan.map((s) => ({
    storeId: store.id,
    courseId: s.course.id,
    teacherId: s.teacherId,
    areaId: s.areaId,
    bookId: s.bookId,
    startTime: s.startTime,
    endTime: s.endTime,
    reservableCount: s.reservableCount,
    realCount: s.students.reduce((n, x) => n + x.studentCount, 0),
    isOnline: s.isOnline,
    color: s.course.color,
    genderLimit: s.course.genderLimit,
    ageLimit: s.course.ageLimit,
    syear: s.course.syear,
    smonth: s.course.smonth,
    sday: s.course.sday,
    eyear: s.course.eyear,
    emonth: s.course.emonth,
    eday: s.course.eday,
    deleted: 0,
    createdAt: o.now,
  }));
  // A teacher has at most one new session starting at one time (clashes were refused above).
  const idOf = new Map<string, number>();
  for (const part of chunks(sessionRows, Object.keys(sessionRows[0]).length)) {
    const ids = await tx.insertInto('timetable').values(part).returning(['id', 'teacherId', 'startTime']).execute();
    for (const r of ids) idOf.set(`${r.teacherId}|${r.startTime}`, r.id);
  }
  const sessionIds = plan.map((s) => idOf.get(`${s.teacherId}|${s.startTime}`)!);
  recordForUndo(tx, { createdSessions: sessionIds });

  const cardRows = plan.flatMap((s, i) =>
    s.course.cardIds.map((cardId) => ({ storeId: store.id, timetableId: sessionIds[i], cardId })),
  );
  for (const part of chunks(cardRows, 3)) await tx.insertInto('timetableCard').values(part).execute();

  if (o.mode === 0) await writeReservations(tx, store.id, plan, sessionIds, spent, o);
  else await writePendings(tx, store.id, plan, sessionIds, o);
  return sessionIds;
}

type WriteOpts = { operatorId: number | null; now: string };

async function writeReservations(
  tx: Tx,
  storeId: number,
  plan: readonly PlannedSession[],
  sessionIds: number[],
  spent: Map<number, number>,
  o: WriteOpts,
): Promise<void> {
  const rows: NewRow<'reservation'>[] = plan.flatMap((s, i) =>
    s.students.map(({ card, studentCount }) => ({
      storeId,
      timetableId: sessionIds[i],
      memberId: card.memberId,
      memberCardId: card.id,
      pendingId: null,
      studentCount,
      usedCount: chargeFor(card, studentCount),
      remark: null,
      operatorId: o.operatorId,
      status: ReservationStatus.BOOKED,
      createTime: o.now,
    })),
  );
  if (!rows.length) return;
  // Cards in ascending id: the engine's lock order for a write that charges several.
  for (const [cardId, amount] of [...spent].sort(([a], [b]) => a - b)) {
    if (amount <= 0) continue;
    const res = await tx
      .updateTable('memberCard')
      .set((eb) => ({ usedCount: eb('usedCount', '+', amount) }))
      .where('id', '=', cardId)
      .where('storeId', '=', storeId)
      .where('frozen', '=', 0)
      .where((eb) => eb(eb('usedCount', '+', amount), '<=', eb.ref('totalCount')))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) {
      const holder = plan.flatMap((s) => s.students).find((x) => x.card.id === cardId)!.card;
      throw conflict(Msg.memberReason(holder.memberName, Msg.cardBalance));
    }
  }
  // Sized for the widest of the three tables written per chunk (history: 12 columns).
  for (const part of chunks(rows, 12)) {
    const made = await tx
      .insertInto('reservation')
      .values(part)
      .returning(['id', 'timetableId', 'memberId', 'memberCardId', 'studentCount', 'usedCount'])
      .execute();
    await tx
      .insertInto('history')
      .values(
        made.map((r) => ({
          storeId,
          timetableId: r.timetableId,
          memberId: r.memberId,
          memberCardId: r.memberCardId,
          reservationId: r.id,
          pendingId: null,
          studentCount: r.studentCount,
          usedCount: Number(r.usedCount),
          operateType: OperateType.ADMIN_BOOKED,
          operatorId: o.operatorId,
          remark: null,
          createTime: o.now,
        })),
      )
      .execute();
    await tx
      .insertInto('cardLedger')
      .values(
        made.map((r) => ({
          storeId,
          memberCardId: r.memberCardId,
          kind: 'deduct',
          amount: Number(r.usedCount),
          reservationId: r.id,
          timetableId: r.timetableId,
          operatorId: o.operatorId,
          remark: null,
          createdAt: o.now,
        })),
      )
      .execute();
  }
}

async function writePendings(
  tx: Tx,
  storeId: number,
  plan: readonly PlannedSession[],
  sessionIds: number[],
  o: WriteOpts,
): Promise<void> {
  const rows: NewRow<'pending'>[] = plan.flatMap((s, i) =>
    s.students.map(({ card, studentCount }) => ({
      storeId,
      timetableId: sessionIds[i],
      memberId: card.memberId,
      studentCount,
      remark: null,
      status: PendingStatus.WAITING,
      operatorId: o.operatorId,
      reservationId: null,
      // the fixed student's card, charged when they sign in (as addPending keeps it)
      memberCardId: card.id,
      createTime: o.now,
    })),
  );
  if (!rows.length) return;
  for (const part of chunks(rows, 12)) {
    const made = await tx
      .insertInto('pending')
      .values(part)
      .returning(['id', 'timetableId', 'memberId', 'studentCount'])
      .execute();
    await tx
      .insertInto('history')
      .values(
        made.map((p) => ({
          storeId,
          timetableId: p.timetableId,
          memberId: p.memberId,
          memberCardId: null,
          reservationId: null,
          pendingId: p.id,
          studentCount: p.studentCount,
          usedCount: 0,
          operateType: OperateType.ADMIN_BOOKED,
          operatorId: o.operatorId,
          remark: null,
          createTime: o.now,
        })),
      )
      .execute();
  }
}
