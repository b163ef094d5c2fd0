import crypto from 'node:crypto';
import { URL } from 'node:url';
import pg from 'pg';
import type { Db } from '../../src/db/index.ts';
import { createStoreWithAdmin } from '../../src/features/store-admin/public.ts';
import { EngineFactory } from '../factory-engine.ts';
import { Factory } from '../factory.ts';

export const SCENE_PASSWORD = 'scene-password-1';

/** A store ready for load: an admin, a course, members with cards and sessions far in the future. */
export interface LoadStore {
  storeId: number;
  username: string;
  courseId: number;
  teacherId: number;
  productId: number;
  areaId: number;
  members: { id: number; card: number }[];
  sessions: number[];
  /** The date of the first session (`YYYY-MM-DD`). */
  firstDay: string;
  engine: EngineFactory;
}

/** Session start `hours` hours after 2099-06-01 00:00 (store-local text). */
export function futureSlot(hours: number): string {
  const d = new Date(Date.UTC(2099, 5, 1, 0, 0, 0) + hours * 3_600_000);
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * Makes a store with `members` members (each a count card holding `balance`) and `sessions`
 * sessions of `seats` seats, one hour apart from `firstHour`, all with one teacher.
 */
export async function makeLoadStore(
  db: Db,
  o: { members: number; balance: number; sessions: number; seats: number; mode?: 0 | 1; firstHour?: number },
): Promise<LoadStore> {
  const username = `load_${crypto.randomBytes(4).toString('hex')}`;
  const { storeId } = await createStoreWithAdmin(db, {
    storeName: `压测门店${username.slice(-4)}`,
    admin: { username, password: SCENE_PASSWORD, name: '压测' },
  });
  const f = new Factory(db, storeId);
  const engine = new EngineFactory(f);
  await engine.setMode(o.mode ?? 0);
  const { teacher, product, course } = await engine.scene();
  const area = await f.area();
  const members: { id: number; card: number }[] = [];
  for (let i = 0; i < o.members; i++) {
    const { member, card } = await engine.memberWithCard(product.id, { card: { totalCount: o.balance } });
    members.push({ id: member.id, card: card.id });
  }
  const sessions: number[] = [];
  for (let i = 0; i < o.sessions; i++) {
    const s = await engine.session({
      courseId: course.id,
      teacherId: teacher.id,
      venueId: area.id,
      startTime: futureSlot((o.firstHour ?? 0) + i),
      endTime: futureSlot((o.firstHour ?? 0) + i + 0.5),
      reservableCount: o.seats,
    });
    sessions.push(s.id);
  }
  return {
    storeId,
    username,
    courseId: course.id,
    teacherId: teacher.id,
    productId: product.id,
    areaId: area.id,
    members,
    sessions,
    firstDay: futureSlot(o.firstHour ?? 0).slice(0, 10),
    engine,
  };
}

/** A brand-new PostgreSQL database next to the one of `baseUrl`; `drop()` removes it. */
export async function freshPgDatabase(baseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `hard_${crypto.randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  // A throwaway database: commits need not wait for the WAL flush (see .ci/run).
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Round-robin over a list. */
export const spread = <T>(list: T[], i: number): T => list[i % list.length];

export const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
