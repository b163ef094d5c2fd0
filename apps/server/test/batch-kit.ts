import { expect } from 'vitest';
import type { Db } from '../src/db/index.ts';
import { checkInvariants } from './invariants.ts';
import { EngineFactory } from './factory-engine.ts';
import type { TestEnv } from './harness.ts';

export { FUTURE } from './factory-engine.ts';
export const API = '/store/api';

/** Everything a batch operation may write for a store, for all-or-nothing assertions. */
export async function snapshot(db: Db, storeId: number) {
  const count = async (table: 'timetable' | 'reservation' | 'pending' | 'history' | 'cardLedger' | 'timetableCard') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('storeId', '=', storeId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const cards = await db
    .selectFrom('memberCard')
    .select(['id', 'usedCount'])
    .where('storeId', '=', storeId)
    .orderBy('id')
    .execute();
  const live = await db
    .selectFrom('timetable')
    .select(['id', 'realCount', 'deleted'])
    .where('storeId', '=', storeId)
    .orderBy('id')
    .execute();
  return {
    sessions: await count('timetable'),
    sessionCards: await count('timetableCard'),
    reservations: await count('reservation'),
    pendings: await count('pending'),
    history: await count('history'),
    ledger: await count('cardLedger'),
    cards: cards.map((c) => `${c.id}:${Number(c.usedCount)}`).join(','),
    seats: live.map((s) => `${s.id}:${s.realCount}:${s.deleted}`).join(','),
  };
}

/** Messages queued for delivery (outbox rows) of a store: a bulk path must queue what the engine queues. */
export async function outboxCount(db: Db, storeId: number): Promise<number> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('storeId', '=', storeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Asserts the engine's invariants hold for the store. */
export async function expectInvariants(db: Db, storeId: number): Promise<void> {
  expect(await checkInvariants(db, storeId)).toEqual([]);
}

/** The engine factory of the test store (sessions, members with cards, deduction mode). */
export const engineFactory = (env: TestEnv) => new EngineFactory(env.factory);
