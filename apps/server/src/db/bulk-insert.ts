import { CompiledQuery } from 'kysely';
import { chunks } from './chunks.ts';
import type { Executor } from './index.ts';
import { onPostgres } from './dialect.ts';
import { snakeCase as snake } from './snake-case.ts';
import type { Database, NewRow } from './schema.ts';
import { auditStrict } from './strict.ts';

/** The INSERT text of a table, columns and returning list, without its VALUES groups. */
const heads = new Map<string, { head: string; tail: string }>();

/**
 * Inserts rows of one table in multi-row statements written here rather than through Kysely's
 * query tree, which costs about a microsecond per bound value and tens of microseconds per
 * statement: a bulk run writing tens of thousands of bookings with their trail, and every single
 * booking's three trail rows, feel that (bench/template.ts, bench/booking.ts). The columns are those
 * any row gives (undefined left out, as Kysely does); a row without one binds NULL. Under the suites
 * (AUDIT_STRICT=1) each statement is also compiled by Kysely from its first row, so the handle's
 * plugins (the audit guard) see every write as they see any other. Answers the `returning` columns
 * of every row, camelCase, in no guaranteed order.
 */
export async function insertRows<T extends keyof Database & string, R extends string = never>(
  ex: Executor,
  table: T,
  rows: readonly NewRow<T>[],
  returning: readonly R[] = [],
): Promise<Record<R, unknown>[]> {
  if (!rows.length) return [];
  const seen = new Set<string>();
  for (const row of rows as Record<string, unknown>[]) {
    for (const c in row) if (row[c] !== undefined) seen.add(c);
  }
  const columns = [...seen];
  const postgres = onPostgres(ex);
  const key = `${table}|${columns.join(',')}|${returning.join(',')}`;
  let text = heads.get(key);
  if (!text) {
    if (heads.size > 500) heads.clear();
    text = {
      head: `insert into "${snake(table)}" (${columns.map((c) => `"${snake(c)}"`).join(', ')}) values `,
      tail: returning.length ? ` returning ${returning.map((c) => `"${snake(c)}" as "${c}"`).join(', ')}` : '',
    };
    heads.set(key, text);
  }
  const out: Record<R, unknown>[] = [];
  for (const part of chunks(rows, columns.length)) {
    if (auditStrict) {
      ex.insertInto(table)
        .values(part[0] as never)
        .compile();
    }
    const params: unknown[] = [];
    let groups = '';
    for (const row of part as Record<string, unknown>[]) {
      let marks = '';
      for (const c of columns) {
        params.push(row[c] ?? null);
        marks += marks ? (postgres ? `, $${params.length}` : ', ?') : postgres ? `$${params.length}` : '?';
      }
      groups += groups ? `, (${marks})` : `(${marks})`;
    }
    const res = await ex.executeQuery<Record<R, unknown>>(CompiledQuery.raw(text.head + groups + text.tail, params));
    for (const r of res.rows) out.push(r);
  }
  return out;
}
