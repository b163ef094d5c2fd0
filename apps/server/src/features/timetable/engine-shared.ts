import { DEDUCT_AT_SIGN_IN, MODULE_DEDUCTION_MODE, Msg, PendingStatus, ReservationStatus } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { onPostgres } from '../../db/locks.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { ageRefusal, genderRefusal } from './rules.ts';

/** Store module 6: 0 deducts at booking, 1 only at on-site sign-in. */
export async function getDeductionMode(tx: Executor, storeId: number): Promise<0 | 1> {
  const row = await tx
    .selectFrom('storeModule')
    .select('status')
    .where('storeId', '=', storeId)
    .where('moduleId', '=', MODULE_DEDUCTION_MODE)
    .executeTakeFirst();
  return row?.status === DEDUCT_AT_SIGN_IN ? 1 : 0;
}

/**
 * A live (not deleted) session of the store, or 404 课程不存在. With `lock`, its row is locked for the
 * transaction on PostgreSQL (the first lock of the engine's order) in the same statement.
 */
export async function liveSession(tx: Executor, storeId: number, id: number, o: { lock?: boolean } = {}) {
  const q = tx
    .selectFrom('timetable')
    .selectAll()
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0);
  const s = await (o.lock && onPostgres(tx) ? q.forNoKeyUpdate() : q).executeTakeFirst();
  if (!s) throw notFound('课程');
  return s;
}

export async function storeMember(tx: Executor, storeId: number, id: number) {
  const m = await tx
    .selectFrom('member')
    .select(['id', 'name', 'gender', 'birthday'])
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  if (!m) throw notFound('会员');
  return m;
}

type Session = Awaited<ReturnType<typeof liveSession>>;
type Member = Pick<Awaited<ReturnType<typeof storeMember>>, 'id' | 'gender' | 'birthday'>;

/**
 * The checks every new booking of a member on a session goes through, card aside: the session has
 * not ended (store-local now), the gender and age limits, and no live booking or pending of the
 * same member on it (the partial unique indexes of migration 0200 catch a concurrent duplicate).
 */
export async function checkMemberMayBook(tx: Tx, session: Session, member: Member, now: string): Promise<void> {
  if (session.endTime <= now) throw conflict(Msg.sessionStarted);
  const gender = genderRefusal(session.genderLimit, member.gender);
  if (gender) throw conflict(gender);
  const age = ageRefusal(session, member.birthday, session.startTime.slice(0, 10));
  if (age) throw conflict(age);
  const dup = await tx
    .selectFrom('reservation')
    .select('id')
    .where('timetableId', '=', session.id)
    .where('memberId', '=', member.id)
    .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
    .unionAll(
      tx
        .selectFrom('pending')
        .select('id')
        .where('timetableId', '=', session.id)
        .where('memberId', '=', member.id)
        .where('status', 'in', [PendingStatus.WAITING, PendingStatus.SIGNED_IN]),
    )
    .executeTakeFirst();
  if (dup) throw conflict(Msg.alreadyBooked);
}

/** Takes `n` seats of a session, guarded in the database; 409 课程人数已满 when they are not free. */
export async function takeSeats(tx: Tx, storeId: number, timetableId: number, n: number): Promise<void> {
  const res = await tx
    .updateTable('timetable')
    .set((eb) => ({ realCount: eb('realCount', '+', n) }))
    .where('id', '=', timetableId)
    .where('storeId', '=', storeId)
    .where('deleted', '=', 0)
    .where((eb) => eb(eb('realCount', '+', n), '<=', eb.ref('reservableCount')))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(Msg.sessionFull);
}

/** Gives back `n` seats (deleted sessions included: deleting a session frees its seats). */
export async function freeSeats(tx: Tx, timetableId: number, n: number): Promise<void> {
  await tx
    .updateTable('timetable')
    .set((eb) => ({ realCount: eb('realCount', '-', n) }))
    .where('id', '=', timetableId)
    .execute();
}

/** A unique-constraint violation on either database. */
export function isUniqueViolation(e: unknown): boolean {
  const code = (e as { code?: string } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
