import { sql } from 'kysely';
import type { Db, Dialect } from '../../src/db/index.ts';
import { checkInvariants } from '../invariants.ts';

/** Chinese characters: every failure message must hold at least one. */
export const CHINESE = /[\u4e00-\u9fff]/;

export interface RawAnswer {
  status: number;
  text: string;
}

/**
 * Problems with one answer of the API: it must be a `{code, data, msg}` envelope, never a 5xx,
 * and a failure must carry a non-empty Chinese message. Returns an empty list when all is well.
 */
export function envelopeProblems(a: RawAnswer): string[] {
  const out: string[] = [];
  if (a.status >= 500) out.push(`HTTP ${a.status}`);
  let body: unknown;
  try {
    body = JSON.parse(a.text);
  } catch {
    return [...out, `answer is not JSON: ${a.text.slice(0, 200)}`];
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...out, 'answer is not an object'];
  const e = body as Record<string, unknown>;
  if (typeof e.code !== 'number') out.push('code is not a number');
  if (!('data' in e)) out.push('data is missing');
  if (typeof e.msg !== 'string') out.push('msg is not a string');
  if (e.code === 0 && a.status !== 200) out.push(`code 0 with HTTP ${a.status}`);
  if (e.code !== 0) {
    if (a.status < 400) out.push(`failure code ${String(e.code)} with HTTP ${a.status}`);
    if (typeof e.msg !== 'string' || !CHINESE.test(e.msg)) out.push(`failure without a Chinese msg: ${String(e.msg)}`);
  }
  return out;
}

/**
 * Every broken rule of the whole database: the engine's invariant checker, plus the guards that
 * hold whatever the engine's semantics (seats and balances in range) and SQLite's own check.
 */
export async function invariantProblems(db: Db, dialect: Dialect): Promise<string[]> {
  const out: string[] = [...(await checkInvariants(db))];
  const seats = await db
    .selectFrom('timetable')
    .select(['id', 'realCount', 'reservableCount'])
    .where((eb) => eb.or([eb('realCount', '<', 0), eb('realCount', '>', eb.ref('reservableCount'))]))
    .execute();
  for (const s of seats) out.push(`session ${s.id}: ${s.realCount} booked of ${s.reservableCount}`);
  const cards = await db
    .selectFrom('memberCard')
    .select(['id', 'usedCount', 'totalCount'])
    .where((eb) => eb.or([eb('usedCount', '<', 0), eb('usedCount', '>', eb.ref('totalCount'))]))
    .execute();
  for (const c of cards) out.push(`member card ${c.id}: used ${c.usedCount} of ${c.totalCount}`);
  if (dialect === 'sqlite') {
    const rows = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
    const text = rows.rows.map((r) => Object.values(r)[0]).join(',');
    if (text !== 'ok') out.push(`integrity_check: ${text}`);
  }
  return out;
}

/** The strings of `needles` that occur in `haystack` (used to look for another store's data). */
export function leaked(haystack: string, needles: readonly string[]): string[] {
  return needles.filter((n) => n.length >= 2 && haystack.includes(n));
}

/** A positive integer from an env variable, or the default. */
export function envInt(name: string, dflt: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : dflt;
}

/** Every row of every table of the database, as text (order-free): to show that nothing was written. */
export async function databaseSnapshot(db: Db, dialect: Dialect): Promise<string> {
  const tables =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db)
      : await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() order by 1`.execute(
          db,
        );
  const parts: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const text = rows.rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.length : v)));
    parts.push(`${name}:\n${text.sort().join('\n')}`);
  }
  return parts.join('\n');
}
