import { DEDUCT_AT_SIGN_IN, MODULE_DEDUCTION_MODE, PendingStatus, ReservationStatus } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { onPostgres } from '../../db/locks.ts';
import { notFound } from '../../lib/errors.ts';
import type { CardOfRules } from './rules.ts';

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

/** A member card with what the booking rules need: its product, its holder's name, gender and birthday. */
export interface BookingCard extends CardOfRules {
  expireTime: string | null;
  cardName: string;
  memberName: string;
  gender: number;
  birthday: string | null;
}

/**
 * Member cards of the store with what the booking rules need (product, holder), by id; 404
 * 会员卡不存在 when any id is not the store's. With `allowedIn`, each card also says whether that
 * session allows its product (in the same statement).
 */
export async function storeCards(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  o: { allowedIn?: number } = {},
): Promise<Map<number, BookingCard & { allowed: boolean }>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await ex
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as cp', 'cp.id', 'mc.cardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .select((eb) => [
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.frozen',
      'cp.cardName',
      'cp.cardType',
      'cp.perCount',
      'm.name as memberName',
      'm.gender',
      'm.birthday',
      eb
        .exists(
          eb
            .selectFrom('timetableCard as tc')
            .select('tc.cardId')
            .where('tc.timetableId', '=', o.allowedIn ?? 0)
            .whereRef('tc.cardId', '=', 'mc.cardId'),
        )
        .as('allowed'),
    ])
    .where('mc.storeId', '=', storeId)
    .where('mc.id', 'in', unique)
    .execute();
  if (rows.length !== unique.length) throw notFound('会员卡');
  return new Map(
    rows.map((r) => [
      r.id,
      { ...r, totalCount: Number(r.totalCount), usedCount: Number(r.usedCount), allowed: Boolean(r.allowed) },
    ]),
  );
}

/**
 * The (session id, member id) pairs among `sessionIds` x `memberIds` that hold a live booking or a
 * live pending: the duplicate rule's state (the partial unique indexes of migration 0200 catch a
 * concurrent duplicate).
 */
export async function heldPairs(
  ex: Executor,
  sessionIds: readonly number[],
  memberIds: readonly number[],
): Promise<[number, number][]> {
  if (!sessionIds.length || !memberIds.length) return [];
  const rows = await ex
    .selectFrom('reservation')
    .select(['timetableId', 'memberId'])
    .where('timetableId', 'in', [...new Set(sessionIds)])
    .where('memberId', 'in', [...new Set(memberIds)])
    .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
    .unionAll(
      ex
        .selectFrom('pending')
        .select(['timetableId', 'memberId'])
        .where('timetableId', 'in', [...new Set(sessionIds)])
        .where('memberId', 'in', [...new Set(memberIds)])
        .where('status', 'in', [PendingStatus.WAITING, PendingStatus.SIGNED_IN]),
    )
    .execute();
  return rows.map((r) => [r.timetableId, r.memberId]);
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
