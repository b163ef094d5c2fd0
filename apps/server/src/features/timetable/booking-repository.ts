import { LIVE_PENDING, LIVE_RESERVATION, Msg, OperateType, PendingStatus, ReservationStatus } from '@studio/contract';
import { sql, type Expression, type ExpressionBuilder, type RawBuilder } from 'kysely';
import { insertRows } from '../../db/bulk-insert.ts';
import { fixed, mapRead, noRead, sendRead, type Read } from '../../db/fixed.ts';
import { idChunks } from '../../db/chunks.ts';
import { groupBy } from '../../lib/group.ts';
import type { Executor, Tx } from '../../db/index.ts';
import type { Database, NewRow, Row, TimetableTable } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';
import { isUniqueViolation, onPostgres } from '../../db/dialect.ts';
import { joinCardProduct, leftJoinCardProduct } from '../../db/joins.ts';

/**
 * The bookings' repository: the reservation and pending rows with their status changes, the seats
 * they take and the charges and refunds of their cards, and the trail of each change (history and
 * card ledger), written for a set of bookings at once (a single booking is a set of one). Every
 * path that books, cancels or signs in reads and writes bookings here.
 */

/** One line of the trail: a history row and, when it moves a card's balance, its ledger row. */
export type TrailEntry = Pick<
  Row<'history'>,
  | 'timetableId'
  | 'memberId'
  | 'memberCardId'
  | 'reservationId'
  | 'pendingId'
  | 'studentCount'
  | 'usedCount'
  | 'operateType'
  | 'operatorId'
  | 'remark'
> & {
  /** When it happened: the history row's create time (and the ledger row's). */
  now: string;
  /** A staff action outside the members' policy, recorded (越过预约规则：...). */
  override?: string | null;
  /**
   * A late cancel (迟到取消) that charges its card now: a pending's, whose booking never deducted
   * (the ledger's `deduct` of that booking); a booking's late cancel keeps what booking deducted.
   */
  charged?: boolean;
};

/**
 * The ledger row an entry of each operate type writes: a booking or sign-in deducts, a cancel
 * refunds (both of a booking), a no-show charge and its waiver name the card and carry the
 * entry's remark; a late cancel that keeps the deduction (迟到取消) writes a `late_cancel` line that
 * moves nothing (not a usage kind), unless it charges now (a pending's: `charged`).
 */
function ledgerOf(t: TrailEntry): { kind: string; amount: number; remark: string | null } | null {
  if (t.memberCardId === null) return null;
  switch (t.operateType) {
    case OperateType.LATE_CANCEL:
      if (t.reservationId === null) return null;
      // A pending's late cancel charges now; a booking's keeps what it took: a line that moves nothing
      // (迟到取消, its amount what is not given back), so the card's ledger tells why no refund came.
      return t.charged
        ? { kind: 'deduct', amount: t.usedCount, remark: t.remark }
        : { kind: 'late_cancel', amount: t.usedCount, remark: null };
    case OperateType.NO_SHOW:
      return { kind: 'no_show', amount: t.usedCount, remark: t.remark };
    case OperateType.WAIVED:
      return { kind: 'waive', amount: -t.usedCount, remark: t.remark };
    case OperateType.ADMIN_CANCELLED:
    case OperateType.USER_CANCELLED:
      return t.reservationId === null ? null : { kind: 'refund', amount: -t.usedCount, remark: null };
    // Who came (预约即扣费) moves no money: the booking paid.
    case OperateType.ATTENDED:
    case OperateType.ATTENDANCE_UNDONE:
      return null;
    default:
      return t.reservationId === null ? null : { kind: 'deduct', amount: t.usedCount, remark: null };
  }
}

/** A ledger row's own fields of an entry (`ledgerOf`). */
type LedgerFields = NonNullable<ReturnType<typeof ledgerOf>>;

/**
 * One column of a trail row, written once for both paths: its value from the entry (`writeTrail`),
 * and the same value in the PostgreSQL statement's projection (`chargeAndWrite`), where `r` is the
 * reservation row it inserted and `v` that row's input (the entry's override and ledger fields).
 */
interface TrailColumn<F> {
  of: (t: TrailEntry, storeId: number, ledger: F) => unknown;
  pg: (operateType: number) => RawBuilder<unknown>;
}
const col = <F>(of: TrailColumn<F>['of'], pg: string): TrailColumn<F> => ({ of, pg: () => sql.raw(pg) });

/** The history row of an entry, column by column (the override column only when an entry has one). */
const HISTORY_COLUMNS: { [K in keyof Omit<Row<'history'>, 'id'>]: TrailColumn<null> } = {
  storeId: col((_, storeId) => storeId, 'r.store_id'),
  timetableId: col((t) => t.timetableId, 'r.timetable_id'),
  memberId: col((t) => t.memberId, 'r.member_id'),
  memberCardId: col((t) => t.memberCardId, 'r.member_card_id'),
  reservationId: col((t) => t.reservationId, 'r.id'),
  pendingId: col((t) => t.pendingId, 'r.pending_id'),
  studentCount: col((t) => t.studentCount, 'r.student_count'),
  usedCount: col((t) => t.usedCount, 'r.used_count'),
  operateType: { of: (t) => t.operateType, pg: (operateType) => sql`cast(${operateType} as integer)` },
  operatorId: col((t) => t.operatorId, 'r.operator_id'),
  remark: col((t) => t.remark, 'r.remark'),
  createTime: col((t) => t.now, 'r.create_time'),
  override: col((t) => t.override ?? null, 'v.override'),
};

/** The ledger row of an entry that moves a card's balance, column by column. */
const LEDGER_COLUMNS: { [K in keyof Omit<Row<'cardLedger'>, 'id'>]: TrailColumn<LedgerFields> } = {
  storeId: col((_, storeId) => storeId, 'r.store_id'),
  memberCardId: col((t) => t.memberCardId, 'r.member_card_id'),
  kind: col((_, __, e) => e.kind, 'v.kind'),
  amount: col((_, __, e) => e.amount, 'v.amount'),
  reservationId: col((t) => t.reservationId, 'r.id'),
  timetableId: col((t) => t.timetableId, 'r.timetable_id'),
  operatorId: col((t) => t.operatorId, 'r.operator_id'),
  remark: col((_, __, e) => e.remark, 'v.ledger_remark'),
  createdAt: col((t) => t.now, 'r.create_time'),
  memberId: col((t) => t.memberId, 'r.member_id'),
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A trail row of `entry` from its column list. */
function trailRow<F, R>(columns: readonly [string, TrailColumn<F>][], t: TrailEntry, storeId: number, fields: F): R {
  const row: Record<string, unknown> = {};
  for (const [name, c] of columns) row[name] = c.of(t, storeId, fields);
  return row as R;
}

/** `insert into <table> (columns) select <their values from r and v>`: the statement's part of the trail. */
function trailInsert(table: string, columns: Record<string, TrailColumn<never>>, operateType: number) {
  const names = Object.keys(columns);
  return sql`insert into ${sql.raw(table)} (${sql.raw(names.map(snake).join(', '))})
    select ${sql.join(names.map((n) => columns[n].pg(operateType)))}`;
}

/** Writes the history rows of `entries` and the ledger rows of those that move a card's balance. */
export async function writeTrail(tx: Tx, storeId: number, entries: readonly TrailEntry[]): Promise<void> {
  if (!entries.length) return;
  // The override column only when one entry has one: a bulk run's tens of thousands of rows bind less.
  const { override, ...withoutOverride } = HISTORY_COLUMNS;
  // Listed once per call, not per entry: a bulk run writes tens of thousands of rows.
  const historyColumns = Object.entries(
    entries.some((t) => t.override) ? { ...withoutOverride, override } : withoutOverride,
  );
  const ledgerColumns = Object.entries(LEDGER_COLUMNS);
  const history: NewRow<'history'>[] = [];
  const ledger: NewRow<'cardLedger'>[] = [];
  for (const t of entries) {
    history.push(trailRow(historyColumns, t, storeId, null));
    const entry = ledgerOf(t);
    if (entry) ledger.push(trailRow(ledgerColumns, t, storeId, entry));
  }
  await insertRows(tx, 'history', history);
  await insertRows(tx, 'cardLedger', ledger);
}

/** The trail entry of a change to a booking: the booking's session, member, card, seats and charge. */
export function bookingTrail(
  r: Pick<
    Row<'reservation'>,
    'id' | 'timetableId' | 'memberId' | 'memberCardId' | 'pendingId' | 'studentCount' | 'usedCount' | 'remark'
  >,
  e: Pick<TrailEntry, 'operateType' | 'operatorId' | 'now' | 'override'> & { remark?: string | null },
): TrailEntry {
  return {
    timetableId: r.timetableId,
    memberId: r.memberId,
    memberCardId: r.memberCardId,
    reservationId: r.id,
    pendingId: r.pendingId,
    studentCount: r.studentCount,
    usedCount: Number(r.usedCount),
    remark: e.remark === undefined ? r.remark : e.remark,
    operateType: e.operateType,
    operatorId: e.operatorId,
    now: e.now,
    override: e.override,
  };
}

/** The trail entry of a change to a pending: its session, member and seats; no card moves. */
export function pendingTrail(
  p: Pick<Row<'pending'>, 'id' | 'timetableId' | 'memberId' | 'studentCount' | 'remark'>,
  e: Pick<TrailEntry, 'operateType' | 'operatorId' | 'now' | 'override'> & { remark?: string | null },
): TrailEntry {
  return {
    timetableId: p.timetableId,
    memberId: p.memberId,
    memberCardId: null,
    reservationId: null,
    pendingId: p.id,
    studentCount: p.studentCount,
    usedCount: 0,
    remark: e.remark === undefined ? p.remark : e.remark,
    operateType: e.operateType,
    operatorId: e.operatorId,
    now: e.now,
    override: e.override,
  };
}

const pairKey = (sessionId: number, memberId: number) => `${sessionId}:${memberId}`;

/**
 * Inserts live bookings (reservations) or pendings and answers their ids in the order given. A
 * member holds one live booking and one live pending per session (partial unique indexes), so a
 * concurrent duplicate is refused here: 409 该会员已预约该课程.
 */
export async function insertBookingRows<T extends 'reservation' | 'pending'>(
  tx: Tx,
  table: T,
  rows: readonly (NewRow<T> & { timetableId: number; memberId: number })[],
): Promise<number[]> {
  const idOf = new Map<string, number>();
  try {
    const made = await insertRows(tx, table as 'reservation', rows as NewRow<'reservation'>[], [
      'id',
      'timetableId',
      'memberId',
    ]);
    for (const r of made) idOf.set(pairKey(Number(r.timetableId), Number(r.memberId)), Number(r.id));
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.alreadyBooked);
    throw e;
  }
  return rows.map((r) => idOf.get(pairKey(r.timetableId, r.memberId))!);
}

/** A reservation to write. */
export type ReservationToWrite = NewRow<'reservation'> & {
  timetableId: number;
  memberId: number;
  memberCardId: number;
  usedCount: number;
  createTime: string;
};

/** The trail entry of a reservation just written: its history row (and its ledger row). */
const writtenTrail = (r: ReservationToWrite, id: number, operateType: number, override: string | null): TrailEntry => ({
  timetableId: r.timetableId,
  memberId: r.memberId,
  memberCardId: r.memberCardId,
  reservationId: id,
  pendingId: r.pendingId ?? null,
  studentCount: r.studentCount,
  usedCount: r.usedCount,
  operateType,
  operatorId: r.operatorId ?? null,
  remark: r.remark ?? null,
  now: r.createTime,
  override,
});

/**
 * Takes the seats of new reservations (`seats`: session id to seats), charges their cards (`spent`:
 * each card's total), then writes the reservations and their trail (`overrides`: what each
 * booking's history row records as a staff override); answers their ids in the order given, or
 * the first session (lowest id) without the seats, or the first card that could not pay. Sessions
 * are taken before cards, each kind in ascending id: the engine's lock order (db/locks.ts).
 * On SQLite one statement per step (`takeSeatsOf`, `chargeCards`, `insertBookingRows`,
 * `writeTrail`); on PostgreSQL every set, a single booking or a bulk run's hundreds, is one
 * statement (`chargeAndWrite`) instead of a round trip per step.
 */
export async function chargeAndWriteReservations(
  tx: Tx,
  storeId: number,
  rows: readonly ReservationToWrite[],
  spent: ReadonlyMap<number, number>,
  operateType: number,
  overrides: readonly (string | null)[],
  seats: ReadonlyMap<number, number>,
  /** Each card's holder as the rules read it: the charge finds it still held by them (not transferred meanwhile). */
  holders: ReadonlyMap<number, number>,
): Promise<{ ids: number[] } | { brokeCard: number } | { fullSession: number }> {
  if (!onPostgres(tx)) {
    const full = await takeSeatsOf(tx, storeId, seats);
    if (full !== null) return { fullSession: full };
    const broke = await chargeCards(tx, spent, holders);
    if (broke !== null) return { brokeCard: broke };
    const ids = await insertBookingRows(tx, 'reservation', rows);
    await writeTrail(
      tx,
      storeId,
      rows.map((r, i) => writtenTrail(r, ids[i], operateType, overrides[i])),
    );
    return { ids };
  }
  const charged = [...spent].filter(([, amount]) => amount > 0);
  // The ledger row of each, as `writeTrail` writes it (the id, not known yet, is a reservation's).
  const ledger = rows.map((r) => ledgerOf(writtenTrail(r, 0, operateType, null)));
  try {
    const made = await chargeAndWrite.all(tx, {
      storeId,
      operateType,
      seatIds: pgArray([...seats.keys()]),
      seatCounts: pgArray([...seats.values()]),
      cardIds: pgArray(charged.map(([id]) => id)),
      amounts: pgArray(charged.map(([, amount]) => amount)),
      holders: pgArray(charged.map(([id]) => holders.get(id)!)),
      stores: pgArray(rows.map((r) => r.storeId)),
      sessions: pgArray(rows.map((r) => r.timetableId)),
      members: pgArray(rows.map((r) => r.memberId)),
      cards: pgArray(rows.map((r) => r.memberCardId)),
      pendings: pgArray(rows.map((r) => r.pendingId ?? null)),
      counts: pgArray(rows.map((r) => r.studentCount)),
      used: pgArray(rows.map((r) => r.usedCount)),
      remarks: pgArray(rows.map((r) => r.remark ?? null)),
      operators: pgArray(rows.map((r) => r.operatorId ?? null)),
      statuses: pgArray(rows.map((r) => r.status ?? ReservationStatus.BOOKED)),
      times: pgArray(rows.map((r) => r.createTime)),
      overrides: pgArray(overrides.map((o) => o ?? null)),
      kinds: pgArray(ledger.map((e) => e?.kind ?? null)),
      ledgerAmounts: pgArray(ledger.map((e) => e?.amount ?? null)),
      ledgerRemarks: pgArray(ledger.map((e) => e?.remark ?? null)),
    });
    const [{ fullSession, brokeCard }] = made;
    if (fullSession !== null) return { fullSession: Number(fullSession) };
    if (brokeCard !== null) return { brokeCard: Number(brokeCard) };
    const idOf = new Map(made.map((r) => [pairKey(Number(r.timetableId), Number(r.memberId)), Number(r.id)]));
    return { ids: rows.map((r) => idOf.get(pairKey(r.timetableId, r.memberId))!) };
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.alreadyBooked);
    throw e;
  }
}

/**
 * A list bound as one PostgreSQL array parameter (node-postgres sends what `toPostgres` answers as
 * an array literal; `toJSON` is what the suites compare): to `fixed` one value, so a set of any size
 * is the same statement, compiled once and prepared once per connection (a list member of `p`
 * would be a statement per length).
 */
interface PgArray<T> {
  toPostgres(): readonly T[];
  toJSON(): readonly T[];
}

const pgArray = <T>(values: readonly T[]): PgArray<T> => ({ toPostgres: () => values, toJSON: () => values });

/**
 * The statement of `chargeAndWriteReservations` on PostgreSQL, for a set of any size. Each step
 * reads the one before, so it runs after it and nothing is written after a refused step:
 * - the sessions' seats, each session's by the guarded UPDATE (`seatsUpdate`). Several sessions are
 *   locked first in ascending id (`seat_locks`, an aggregate the UPDATE reads: every lock is taken
 *   before the first seat); a single one is locked by its UPDATE, which locks nothing when it
 *   refuses, so the refusals of a full class do not queue on its row (db/locks.ts);
 * - only if every session took its seats (`seated`), the cards: locked the same way, each charged
 *   its total by the guarded UPDATE (`chargeUpdate`);
 * - only if every card paid (`paid`), the reservations; their history and ledger rows are
 *   projections of the inserted rows with each row's trail fields (the rows `writeTrail` writes).
 * A refused guard leaves its row out of the UPDATE, so the count of rows updated falls short of
 * the count asked: the answer names the lowest session or card not updated (`fullSession`,
 * `brokeCard`; cards are not tried when a session refused). The statement is atomic: a unique
 * violation undoes all of it.
 */
const chargeAndWrite = fixed(
  (
    tx,
    p: {
      storeId: number;
      operateType: number;
      seatIds: PgArray<number>;
      seatCounts: PgArray<number>;
      cardIds: PgArray<number>;
      amounts: PgArray<number>;
      holders: PgArray<number>;
      stores: PgArray<number>;
      sessions: PgArray<number>;
      members: PgArray<number>;
      cards: PgArray<number>;
      pendings: PgArray<number | null>;
      counts: PgArray<number>;
      used: PgArray<number>;
      remarks: PgArray<string | null>;
      operators: PgArray<number | null>;
      statuses: PgArray<number>;
      times: PgArray<string>;
      overrides: PgArray<string | null>;
      kinds: PgArray<string | null>;
      ledgerAmounts: PgArray<number | null>;
      ledgerRemarks: PgArray<string | null>;
    },
  ) => {
    const ints = (v: unknown) => sql`cast(${v} as integer[])`;
    const bigints = (v: unknown) => sql`cast(${v} as bigint[])`;
    const texts = (v: unknown) => sql`cast(${v} as text[])`;
    // The guards are those of the SQLite path, written once, applied to each row `w` of the set.
    const take = seatsUpdate(tx, {
      storeId: p.storeId,
      sessionId: sql.ref('w.sessionId'),
      n: sql.ref('w.seats'),
    })
      .from(sql`want_seats`.as('w'))
      .where('id', '=', sql<number>`any(${ints(p.seatIds)})`)
      .where(sql<boolean>`exists (select from seat_locks)`)
      .returning('id');
    const charge = chargeUpdate(tx, {
      cardId: sql.ref('w.cardId'),
      amount: sql.ref('w.amount'),
      memberId: sql.ref('w.memberId'),
    })
      .from(sql`want_charges`.as('w'))
      .where('id', '=', sql<number>`any(${ints(p.cardIds)})`)
      .where(sql<boolean>`(select ok from seated) and exists (select from card_locks)`)
      .returning('id');
    return sql<{
      fullSession: number | null;
      brokeCard: number | null;
      id: number | null;
      timetableId: number;
      memberId: number;
    }>`
      with want_seats as (
        select * from unnest(${ints(p.seatIds)}, ${ints(p.seatCounts)}) as w(session_id, seats)
      ),
      seat_locks as (
        select count(*) from (
          select id from timetable
          where id = any(${ints(p.seatIds)}) and (select count(*) from want_seats) > 1
          order by id for no key update
        ) as k
      ),
      s as (${take}),
      seated as (select (select count(*) from s) = (select count(*) from want_seats) as ok),
      want_charges as (
        select * from unnest(${ints(p.cardIds)}, ${bigints(p.amounts)}, ${ints(p.holders)}) as w(card_id, amount, member_id)
      ),
      card_locks as (
        select count(*) from (
          select id from member_card
          where id = any(${ints(p.cardIds)}) and (select count(*) from want_charges) > 1
            and (select ok from seated)
          order by id for no key update
        ) as k
      ),
      c as (${charge}),
      paid as (select (select ok from seated) and (select count(*) from c) = (select count(*) from want_charges) as ok),
      v as (
        select * from unnest(${ints(p.stores)}, ${ints(p.sessions)}, ${ints(p.members)}, ${ints(p.cards)},
          ${ints(p.pendings)}, ${ints(p.counts)}, ${bigints(p.used)}, ${texts(p.remarks)}, ${ints(p.operators)},
          ${ints(p.statuses)}, ${texts(p.times)}, ${texts(p.overrides)}, ${texts(p.kinds)},
          ${bigints(p.ledgerAmounts)}, ${texts(p.ledgerRemarks)})
          as v(store_id, timetable_id, member_id, member_card_id, pending_id, student_count, used_count, remark,
            operator_id, status, create_time, override, kind, amount, ledger_remark)
      ),
      r as (
        insert into reservation (store_id, timetable_id, member_id, member_card_id, pending_id, student_count,
          used_count, remark, operator_id, status, create_time)
        select store_id, timetable_id, member_id, member_card_id, pending_id, student_count, used_count, remark,
          operator_id, status, create_time
        from v where (select ok from paid)
        returning id, store_id, timetable_id, member_id, member_card_id, pending_id, student_count, used_count,
          remark, operator_id, create_time
      ),
      h as (
        ${trailInsert('history', HISTORY_COLUMNS, p.operateType)}
        from r join v using (timetable_id, member_id)
      ),
      l as (
        ${trailInsert('card_ledger', LEDGER_COLUMNS, p.operateType)}
        from r join v using (timetable_id, member_id) where v.kind is not null
      )
      select (select min(session_id) from want_seats where session_id not in (select id from s)) as full_session,
        (select min(card_id) from want_charges where card_id not in (select id from c)) as broke_card,
        r.id, r.timetable_id, r.member_id
      from (select 1) as one left join r on true`;
  },
);

/** A number, or an expression giving one. */
type Value = number | Expression<number>;

/**
 * Charges cards (ascending id: the engine's lock order for cards), each its total in one guarded
 * UPDATE (not frozen, the balance covers it; for a new booking, `holders`: still held by the holder
 * the rules read (the member booking, or the one who shares the card with them), so a card
 * transferred meanwhile pays nothing). Answers the first card that could not pay, or null.
 */
export async function chargeCards(
  tx: Tx,
  amounts: ReadonlyMap<number, number>,
  holders?: ReadonlyMap<number, number>,
): Promise<number | null> {
  for (const [cardId, amount] of [...amounts].sort(([a], [b]) => a - b)) {
    if (amount <= 0) continue;
    if ((await chargeCard.run(tx, { cardId, amount, memberId: holders?.get(cardId) })) !== 1) return cardId;
  }
  return null;
}

/**
 * The card's guard, the one place it is written: not frozen, its balance covers `amount`, and (a
 * new booking) still held by `memberId` (a transfer (转卡) committed meanwhile: not charged); charges
 * it. The values may be columns of a set's row (`chargeAndWrite`).
 */
function chargeUpdate(tx: Executor, p: { cardId: Value; amount: Value; memberId?: Value }) {
  return tx
    .updateTable('memberCard')
    .set((eb) => ({ usedCount: eb('usedCount', '+', p.amount) }))
    .where('id', '=', p.cardId)
    .where('frozen', '=', 0)
    .$if(p.memberId !== undefined, (q) => q.where('memberCard.memberId', '=', p.memberId!))
    .where((eb) => eb(eb('usedCount', '+', p.amount), '<=', eb.ref('totalCount')));
}

const chargeCard = fixed(chargeUpdate);

/**
 * Takes seats of live sessions (ascending id: the engine's lock order), each its count in one
 * guarded UPDATE. Answers the first session without that many free seats, or null.
 */
export async function takeSeatsOf(tx: Tx, storeId: number, seats: ReadonlyMap<number, number>): Promise<number | null> {
  for (const [sessionId, n] of [...seats].sort(([a], [b]) => a - b)) {
    if ((await takeSeats.run(tx, { storeId, sessionId, n })) !== 1) return sessionId;
  }
  return null;
}

/**
 * The seats' guard, the one place it is written: a live session of the store with `n` seats free;
 * takes them. The values may be columns of a set's row (`chargeAndWrite`).
 */
function seatsUpdate(tx: Executor, p: { storeId: number; sessionId: Value; n: Value }) {
  return tx
    .updateTable('timetable')
    .set((eb) => ({ realCount: eb('realCount', '+', p.n) }))
    .where('id', '=', p.sessionId)
    .where('storeId', '=', p.storeId)
    .where('deleted', '=', 0)
    .where((eb) => eb(eb('realCount', '+', p.n), '<=', eb.ref('reservableCount')));
}

const takeSeats = fixed(seatsUpdate);

/** A booking (reservation) of the store with its member's name and its card's 体验卡 flag, or undefined. */
export function findReservation(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .leftJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(leftJoinCardProduct('cp'))
    .selectAll('r')
    .select(['m.name as memberName', 'cp.trial as cardTrial'])
    .where('r.id', '=', id)
    .where('r.storeId', '=', storeId)
    .executeTakeFirst();
}

/** A pending of the store with its member's name and its card's 体验卡 flag (null: no card), or undefined. */
export function findPending(ex: Executor, storeId: number, id: number) {
  return ex
    .selectFrom('pending as p')
    .innerJoin('member as m', 'm.id', 'p.memberId')
    .leftJoin('memberCard as mc', 'mc.id', 'p.memberCardId')
    .$call(leftJoinCardProduct('cp'))
    .selectAll('p')
    .select(['m.name as memberName', 'cp.trial as cardTrial'])
    .where('p.id', '=', id)
    .where('p.storeId', '=', storeId)
    .executeTakeFirst();
}

/**
 * Cancels a live booking (booked or signed in) in one guarded UPDATE; false when it was no longer
 * live, so its refund happens once. `forfeited`: a late cancel that keeps the deduction.
 */
export async function markReservationCancelled(tx: Tx, id: number, now: string, forfeited: boolean): Promise<boolean> {
  const res = await tx
    .updateTable('reservation')
    .set({ status: ReservationStatus.CANCELLED, cancelTime: now, forfeited: forfeited ? 1 : 0 })
    .where('id', '=', id)
    .where('status', 'in', LIVE_RESERVATION)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Cancels a pending; with `onlyWaiting`, only while it waits (guarded): false when it no longer
 * waits (signed in or cancelled meanwhile).
 */
export async function markPendingCancelled(
  tx: Tx,
  id: number,
  now: string,
  o: { onlyWaiting: boolean },
): Promise<boolean> {
  let q = tx.updateTable('pending').set({ status: PendingStatus.CANCELLED, cancelTime: now }).where('id', '=', id);
  if (o.onlyWaiting) q = q.where('status', '=', PendingStatus.WAITING);
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
}

/** Signs a waiting pending in (guarded); false when it no longer waits. */
export async function markPendingSignedIn(tx: Tx, id: number): Promise<boolean> {
  const res = await tx
    .updateTable('pending')
    .set({ status: PendingStatus.SIGNED_IN })
    .where('id', '=', id)
    .where('status', '=', PendingStatus.WAITING)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Links a signed-in pending to the booking its sign-in made. */
export async function linkPendingBooking(tx: Tx, pendingId: number, reservationId: number): Promise<void> {
  await tx.updateTable('pending').set({ reservationId }).where('id', '=', pendingId).execute();
}

/** Gives back to a card what a booking deducted (a cancel's or a delete's refund). */
export const creditCard = (tx: Tx, memberCardId: number, amount: number) =>
  creditCards(tx, new Map([[memberCardId, amount]]));

/**
 * `UPDATE table SET column = column - amount` (or `+` with `sign` 1) for many ids, one statement per
 * distinct amount; unguarded: the caller holds the rows' locks and knows the amounts are right.
 */
async function shift(
  tx: Tx,
  table: 'timetable' | 'memberCard',
  column: 'realCount' | 'usedCount',
  amounts: ReadonlyMap<number, number>,
  sign: 1 | -1 = -1,
): Promise<void> {
  const byAmount = groupBy(
    [...amounts].filter(([, n]) => n > 0),
    ([, n]) => n,
  );
  for (const [amount, rows] of byAmount) {
    for (const ids of idChunks(rows.map(([id]) => id))) {
      await tx
        .updateTable(table)
        .set((eb) => ({ [column]: eb(eb.ref(column), sign === 1 ? '+' : '-', amount) }))
        .where('id', 'in', ids)
        .execute();
    }
  }
}

/** Gives back seats of many sessions (session id to seats), deleted sessions included. */
export const freeSeatsOf = (tx: Tx, seats: ReadonlyMap<number, number>) => shift(tx, 'timetable', 'realCount', seats);

/** Takes seats of many sessions again (an undo bringing their bookings back), unguarded. */
export const retakeSeatsOf = (tx: Tx, seats: ReadonlyMap<number, number>) =>
  shift(tx, 'timetable', 'realCount', seats, 1);

/** Gives back to many cards what they paid (card id to amount). */
export const creditCards = (tx: Tx, amounts: ReadonlyMap<number, number>) =>
  shift(tx, 'memberCard', 'usedCount', amounts);

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
  const sessions = [...new Set(sessionIds)];
  const members = [...new Set(memberIds)];
  const rows = await ex
    .selectFrom('reservation')
    .select(['timetableId as sessionId', 'memberId'])
    .where('timetableId', 'in', sessions)
    .where('memberId', 'in', members)
    .where('status', 'in', LIVE_RESERVATION)
    .unionAll(
      ex
        .selectFrom('pending')
        .select(['timetableId as sessionId', 'memberId'])
        .where('timetableId', 'in', sessions)
        .where('memberId', 'in', members)
        .where('status', 'in', LIVE_PENDING),
    )
    .execute();
  return rows.map((r) => [r.sessionId, r.memberId]);
}

/**
 * Whether a member holds the session `t` of the query being written: a live booking of it, or a
 * pending of it in one of `pendingStatuses` (live ones by default; self check-in counts only those
 * still waiting). The one-session form of `heldPairs`, for a query over sessions.
 */
export function holdsSession(
  eb: ExpressionBuilder<Database & { t: TimetableTable }, 't'>,
  memberId: number | Expression<number>,
  pendingStatuses: readonly number[] = LIVE_PENDING,
) {
  return eb.or([
    eb.exists(
      eb
        .selectFrom('reservation as r')
        .select('r.id')
        .whereRef('r.timetableId', '=', 't.id')
        .where('r.memberId', '=', memberId)
        .where('r.status', 'in', LIVE_RESERVATION),
    ),
    eb.exists(
      eb
        .selectFrom('pending as p')
        .select('p.id')
        .whereRef('p.timetableId', '=', 't.id')
        .where('p.memberId', '=', memberId)
        .where('p.status', 'in', pendingStatuses),
    ),
  ]);
}

/**
 * The first live session of the store but `exceptId` overlapping `startTime`..`endTime` that the
 * member holds (a live booking or pending, `holdsSession`), or undefined: where a member would be
 * in two places at once.
 */
export function memberHeldOverlapping(
  ex: Executor,
  storeId: number,
  memberId: number,
  span: { startTime: string; endTime: string },
  exceptId: number,
) {
  return ex
    .selectFrom('timetable as t')
    .select(['t.id', 't.startTime', 't.endTime'])
    .where('t.storeId', '=', storeId)
    .where('t.deleted', '=', 0)
    .where('t.id', '<>', exceptId)
    .where('t.startTime', '<', span.endTime)
    .where('t.endTime', '>', span.startTime)
    .where((eb) => holdsSession(eb, memberId))
    .orderBy('t.startTime')
    .executeTakeFirst();
}

/**
 * What some member cards of the store hold open at `now` (store-local): `pendingSeats`, the seats of
 * their pendings waiting for sign-in (each charged perCount a seat then), and `openBookings`, their
 * bookings still to happen: booked (not signed in) or pendings waiting, of live classes not ended.
 * What a new booking with the card must leave room for (the card rules' `committed`, a period card's
 * `maxOpenBookings`). Integers on both databases. For a card whose product caps its classes a day
 * or a week (`maxPerDay`, `maxPerWeek`), `capDays`: the days (`YYYY-MM-DD`, comma separated, one
 * per class) of its live bookings and waiting pendings of live classes from `since` (the Monday of
 * this week) on; null for a card without caps (the subquery is not run for it).
 */
const openUse = fixed((ex, p: { storeId: number; ids: number[]; now: string; since: string }) =>
  ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct('cp'))
    .select((eb) => {
      const waiting = eb
        .selectFrom('pending as pe')
        .innerJoin('timetable as t', 't.id', 'pe.timetableId')
        .whereRef('pe.memberCardId', '=', 'mc.id')
        .where('pe.status', '=', PendingStatus.WAITING)
        .where('t.deleted', '=', 0)
        .where('t.endTime', '>', p.now);
      const booked = eb
        .selectFrom('reservation as r')
        .innerJoin('timetable as t', 't.id', 'r.timetableId')
        .select((b) => b.fn.countAll<number>().as('n'))
        .whereRef('r.memberCardId', '=', 'mc.id')
        .where('r.status', '=', ReservationStatus.BOOKED)
        .where('t.deleted', '=', 0)
        .where('t.endTime', '>', p.now);
      return [
        'mc.id',
        eb
          .cast<number>(
            eb.fn.coalesce(waiting.select((b) => b.fn.sum<number>('pe.studentCount').as('n')).$asScalar(), eb.lit(0)),
            'integer',
          )
          .as('pendingSeats'),
        eb
          .cast<number>(
            eb(booked.$asScalar(), '+', waiting.select((b) => b.fn.countAll<number>().as('n')).$asScalar()),
            'integer',
          )
          .as('openBookings'),
        'cp.maxPerDay',
        'cp.maxPerWeek',
        sql<string | null>`case when cp.max_per_day is null and cp.max_per_week is null then null else (${capDaysOf(
          onPostgres(ex),
          p.since,
        )}) end`.as('capDays'),
      ];
    })
    .where('mc.storeId', '=', p.storeId)
    .where('mc.id', 'in', p.ids),
);

/** The days of a card's (`mc`) live bookings and waiting pendings of live classes from `since` on, as one text. */
function capDaysOf(pg: boolean, since: unknown) {
  const days = sql`select substr(t.start_time, 1, 10) as d from reservation r
      join timetable t on t.id = r.timetable_id
      where r.member_card_id = mc.id and r.status in (${sql.join(LIVE_RESERVATION)}) and t.deleted = 0 and t.start_time >= ${since}
    union all
    select substr(t.start_time, 1, 10) as d from pending pe
      join timetable t on t.id = pe.timetable_id
      where pe.member_card_id = mc.id and pe.status = ${PendingStatus.WAITING} and t.deleted = 0 and t.start_time >= ${since}`;
  return pg
    ? sql`select coalesce(string_agg(x.d, ','), '') from (${days}) x`
    : sql`select coalesce(group_concat(x.d, ','), '') from (${days}) x`;
}

/** What each of some member cards holds open at `now` (see `openUse`), by card id. */
export function openUseOf(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  now: string,
): Promise<Map<number, OpenUse>> {
  return sendRead(ex, openUseRead(ex, storeId, ids, now));
}

/** What a card holds open (see `openUse`); `capDays` null for a card whose product has no caps. */
export interface OpenUse {
  pendingSeats: number;
  openBookings: number;
  maxPerDay: number | null;
  maxPerWeek: number | null;
  capDays: string | null;
}

/** The Monday (`YYYY-MM-DD`) of the week of a store-local date or time. */
export function mondayOf(dateTime: string): string {
  const d = new Date(`${dateTime.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** `openUseOf` as a read to send with others. */
export function openUseRead(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  now: string,
): Read<Map<number, OpenUse>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return noRead(new Map());
  return mapRead(
    openUse.plan(ex, { storeId, ids: unique, now, since: mondayOf(now) }),
    (rows) =>
      new Map(
        rows.map((r) => [
          r.id,
          {
            pendingSeats: Number(r.pendingSeats),
            openBookings: Number(r.openBookings),
            maxPerDay: r.maxPerDay === null ? null : Number(r.maxPerDay),
            maxPerWeek: r.maxPerWeek === null ? null : Number(r.maxPerWeek),
            capDays: r.capDays ?? null,
          },
        ]),
      ),
  );
}

/** Gives back `n` seats (deleted sessions included: deleting a session frees its seats). */
export const freeSeats = (tx: Tx, sessionId: number, n: number) => freeSeatsOf(tx, new Map([[sessionId, n]]));

/** A session's waiting pendings, in id order. */
export function waitingPendings(ex: Executor, sessionId: number) {
  return ex
    .selectFrom('pending')
    .selectAll()
    .where('timetableId', '=', sessionId)
    .where('status', '=', PendingStatus.WAITING)
    .orderBy('id')
    .execute();
}

/** A session's live bookings (booked or signed in), in card then id order (the cards' lock order). */
export function liveBookings(ex: Executor, sessionId: number) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('member as m', 'm.id', 'r.memberId')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .selectAll('r')
    .select(['m.name as memberName', 'p.bigType'])
    .where('r.timetableId', '=', sessionId)
    .where('r.status', 'in', LIVE_RESERVATION)
    .orderBy('r.memberCardId')
    .orderBy('r.id')
    .execute();
}

/** What each live booking of a session deducted, with its card's kind (counts or money). */
export function liveBookingCharges(ex: Executor, sessionId: number) {
  return ex
    .selectFrom('reservation as r')
    .innerJoin('memberCard as mc', 'mc.id', 'r.memberCardId')
    .$call(joinCardProduct())
    .select(['p.bigType', 'r.usedCount'])
    .where('r.timetableId', '=', sessionId)
    .where('r.status', 'in', LIVE_RESERVATION)
    .execute();
}

/** Who holds a card now (after a refused charge: did it change hands?). */
export async function cardHolderOf(ex: Executor, memberCardId: number): Promise<number | undefined> {
  const row = await ex.selectFrom('memberCard').select('memberId').where('id', '=', memberCardId).executeTakeFirst();
  return row?.memberId;
}
