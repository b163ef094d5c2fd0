import { OperateType, ReservationStatus } from '@studio/contract';
import type { KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import type { Db, Tx } from '../../db/index.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { chargeAndWriteReservations, type ReservationToWrite } from './booking-repository.ts';

const NOW = '2026-01-01 09:00:00';

/** The database, and how many statements were sent through it (built ones and `fixed` ones alike). */
function counting(db: Db) {
  const sent = { n: 0 };
  const counter: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      sent.n++;
      return args.result;
    },
  };
  return { db: db.withPlugin(counter) as Db, sent };
}

/** Undoes the transaction the test looked into. */
class Undo extends Error {}

/** Runs `fn` in a transaction that is rolled back afterwards; answers what it answered. */
async function thenRollBack<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  let out: T;
  await db
    .transaction()
    .execute(async (tx) => {
      out = await fn(tx);
      throw new Undo();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Undo)) throw e;
    });
  return out!;
}

describeEachDb('the booking statement (chargeAndWriteReservations)', (env) => {
  const ef = () => new EngineFactory(env().factory);

  /** `n` sessions of one course (`capacity` seats each) and `m` members, each with a card of `perCount`. */
  async function scene(n: number, m: number, o: { capacity?: number; perCount?: number; balance?: number } = {}) {
    const e = ef();
    const { teacher, course, product } = await e.scene({ product: { perCount: o.perCount ?? 1 } });
    const sessions = [];
    for (let i = 0; i < n; i++) {
      const hour = String(8 + i).padStart(2, '0');
      sessions.push(
        await e.session({
          courseId: course.id,
          teacherId: teacher.id,
          startTime: `${FUTURE} ${hour}:00:00`,
          reservableCount: o.capacity ?? 500,
        }),
      );
    }
    const holders = [];
    for (let i = 0; i < m; i++)
      holders.push(await e.memberWithCard(product.id, { card: { totalCount: o.balance ?? 10 } }));
    return { e, sessions, holders };
  }

  /** Each holder books each session with its card, `perCount` a seat: the rows, seats and charges of the set. */
  function set(sessions: { id: number }[], holders: { member: { id: number }; card: { id: number } }[], perCount = 1) {
    const rows: ReservationToWrite[] = [];
    const overrides: (string | null)[] = [];
    for (const s of sessions) {
      for (const [i, h] of holders.entries()) {
        rows.push({
          storeId: env().storeId,
          timetableId: s.id,
          memberId: h.member.id,
          memberCardId: h.card.id,
          pendingId: null,
          studentCount: 1,
          usedCount: perCount,
          remark: i % 3 === 0 ? `备注${i}` : null,
          operatorId: env().staffId,
          status: ReservationStatus.BOOKED,
          createTime: NOW,
        });
        overrides.push(i % 4 === 1 ? '越过预约规则：已过预约截止时间' : null);
      }
    }
    const seats = new Map(sessions.map((s) => [s.id, holders.length]));
    const spent = new Map(holders.map((h) => [h.card.id, sessions.length * perCount]));
    const owners = new Map(rows.map((r) => [r.memberCardId, r.memberId]));
    return { rows, overrides, seats, spent, owners };
  }

  it('writes a batch over several sessions and cards (one statement on PostgreSQL): seats, charges, rows, trail', async () => {
    const { e, sessions, holders } = await scene(3, 100, { perCount: 2, balance: 10 });
    const { rows, overrides, seats, spent, owners } = set(sessions, holders, 2);
    const { db, sent } = counting(env().database.db);
    const made = await db
      .transaction()
      .execute((tx) =>
        chargeAndWriteReservations(tx, env().storeId, rows, spent, OperateType.ADMIN_BOOKED, overrides, seats, owners),
      );
    if (env().dialect === 'postgres') expect(sent.n).toBe(1);
    else expect(sent.n).toBeGreaterThan(1);
    if (!('ids' in made)) throw new Error(`refused: ${JSON.stringify(made)}`);
    expect(made.ids).toHaveLength(300);
    expect(new Set(made.ids).size).toBe(300);

    const base = env().database.db;
    const written = await base.selectFrom('reservation').selectAll().where('id', 'in', made.ids).execute();
    const byId = new Map(written.map((r) => [r.id, r]));
    // Each id answered is the row given at its place.
    rows.forEach((r, i) => {
      const w = byId.get(made.ids[i])!;
      expect([w.timetableId, w.memberId, w.memberCardId, Number(w.usedCount), w.remark]).toEqual([
        r.timetableId,
        r.memberId,
        r.memberCardId,
        r.usedCount,
        r.remark,
      ]);
    });
    for (const s of sessions) expect((await e.sessionRow(s.id)).realCount).toBe(100);
    for (const h of holders) expect((await e.cardRow(h.card.id)).usedCount).toBe(6);

    const history = await base.selectFrom('history').selectAll().where('reservationId', 'in', made.ids).execute();
    const historyOf = new Map(history.map((h) => [h.reservationId, h]));
    expect(history).toHaveLength(300);
    rows.forEach((r, i) => {
      const h = historyOf.get(made.ids[i])!;
      expect([h.operateType, h.remark, h.override ?? null, h.memberCardId, Number(h.usedCount)]).toEqual([
        OperateType.ADMIN_BOOKED,
        r.remark,
        overrides[i],
        r.memberCardId,
        2,
      ]);
    });
    const ledger = await base.selectFrom('cardLedger').selectAll().where('reservationId', 'in', made.ids).execute();
    expect(ledger).toHaveLength(300);
    for (const l of ledger) {
      expect([l.kind, Number(l.amount), l.remark, l.createdAt]).toEqual(['deduct', 2, null, NOW]);
    }
    expect(await checkInvariants(base, env().storeId)).toEqual([]);
  });

  it('refuses when the second of two sessions is full: names it, charges no card, writes no row', async () => {
    const { e, sessions, holders } = await scene(2, 3, { capacity: 3 });
    await e.db.updateTable('timetable').set({ reservableCount: 2 }).where('id', '=', sessions[1].id).execute();
    const { rows, overrides, seats, spent, owners } = set(sessions, holders);
    const seen = await thenRollBack(env().database.db, async (tx) => {
      const made = await chargeAndWriteReservations(
        tx,
        env().storeId,
        rows,
        spent,
        OperateType.ADMIN_BOOKED,
        overrides,
        seats,
        owners,
      );
      const cards = await tx
        .selectFrom('memberCard')
        .select('usedCount')
        .where(
          'id',
          'in',
          holders.map((h) => h.card.id),
        )
        .execute();
      const bookings = await tx
        .selectFrom('reservation')
        .select('id')
        .where(
          'timetableId',
          'in',
          sessions.map((s) => s.id),
        )
        .execute();
      const trail = await tx
        .selectFrom('history')
        .select('id')
        .where(
          'timetableId',
          'in',
          sessions.map((s) => s.id),
        )
        .execute();
      return { made, charged: cards.map((c) => Number(c.usedCount)), bookings: bookings.length, trail: trail.length };
    });
    expect(seen).toEqual({ made: { fullSession: sessions[1].id }, charged: [0, 0, 0], bookings: 0, trail: 0 });
    expect((await e.sessionRow(sessions[1].id)).realCount).toBe(0);
  });

  it('refuses when the second of two cards is short: names it, writes no row', async () => {
    const { e, sessions, holders } = await scene(2, 2, { balance: 10 });
    await e.db.updateTable('memberCard').set({ usedCount: 9 }).where('id', '=', holders[1].card.id).execute();
    const { rows, overrides, seats, spent, owners } = set(sessions, holders);
    const seen = await thenRollBack(env().database.db, async (tx) => {
      const made = await chargeAndWriteReservations(
        tx,
        env().storeId,
        rows,
        spent,
        OperateType.ADMIN_BOOKED,
        overrides,
        seats,
        owners,
      );
      const bookings = await tx
        .selectFrom('reservation')
        .select('id')
        .where(
          'timetableId',
          'in',
          sessions.map((s) => s.id),
        )
        .execute();
      const ledger = await tx
        .selectFrom('cardLedger')
        .select('id')
        .where(
          'memberCardId',
          'in',
          holders.map((h) => h.card.id),
        )
        .execute();
      return { made, bookings: bookings.length, ledger: ledger.length };
    });
    expect(seen).toEqual({ made: { brokeCard: holders[1].card.id }, bookings: 0, ledger: 0 });
    expect((await e.cardRow(holders[1].card.id)).usedCount).toBe(9);
    expect((await e.cardRow(holders[0].card.id)).usedCount).toBe(0);
  });

  it('a single free booking (no seats to take, no card to charge) still writes its row and trail', async () => {
    const { e, sessions, holders } = await scene(1, 1);
    // As a bulk run's: the session was written with its seat taken.
    await e.db.updateTable('timetable').set({ realCount: 1 }).where('id', '=', sessions[0].id).execute();
    const { rows, overrides, owners } = set(sessions, holders);
    rows[0].usedCount = 0;
    const made = await env()
      .database.db.transaction()
      .execute((tx) =>
        chargeAndWriteReservations(
          tx,
          env().storeId,
          rows,
          new Map(),
          OperateType.ADMIN_BOOKED,
          overrides,
          new Map(),
          owners,
        ),
      );
    if (!('ids' in made)) throw new Error(`refused: ${JSON.stringify(made)}`);
    const [id] = made.ids;
    const history = await env()
      .database.db.selectFrom('history')
      .select('id')
      .where('reservationId', '=', id)
      .execute();
    const ledger = await env()
      .database.db.selectFrom('cardLedger')
      .selectAll()
      .where('reservationId', '=', id)
      .execute();
    expect(history).toHaveLength(1);
    expect(ledger.map((l) => [l.kind, Number(l.amount)])).toEqual([['deduct', 0]]);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('sets over the same sessions and cards, given in opposite orders, all commit (one lock order)', async () => {
    const { e, sessions, holders } = await scene(13, 12, { balance: 100 });
    const [shared, own] = [sessions.slice(0, 3), sessions.slice(3)];
    const [a, b] = holders;
    const reversedIf = <T>(i: number, list: T[]) => (i % 2 ? [...list].reverse() : list);
    // Sets of one member each over the same three sessions, and sets of the same two members (and
    // cards) in a session of their own; every other set lists its sessions or cards the other way.
    const sets = [
      ...holders.slice(2).map((h, i) => ({ ...set(shared, [h]), seatsIn: reversedIf(i, shared), cardsIn: [h] })),
      ...own.map((s, i) => ({ ...set([s], [a, b]), seatsIn: [s], cardsIn: reversedIf(i, [a, b]) })),
    ];
    const made = await Promise.all(
      sets.map((x) =>
        env()
          .database.db.transaction()
          .execute((tx) =>
            chargeAndWriteReservations(
              tx,
              env().storeId,
              x.rows,
              new Map(x.cardsIn.map((h) => [h.card.id, x.spent.get(h.card.id)!])),
              OperateType.ADMIN_BOOKED,
              x.overrides,
              new Map(x.seatsIn.map((s) => [s.id, x.seats.get(s.id)!])),
              x.owners,
            ),
          ),
      ),
    );
    expect(made.filter((m) => !('ids' in m))).toEqual([]);
    for (const s of shared) expect((await e.sessionRow(s.id)).realCount).toBe(10);
    for (const h of [a, b]) expect((await e.cardRow(h.card.id)).usedCount).toBe(10);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });
});
