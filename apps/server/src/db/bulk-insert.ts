import { CompiledQuery } from 'kysely';
import { chunks } from './chunks.ts';
import type { Executor } from './index.ts';
import { onPostgres } from './dialect.ts';
import type { Database, NewRow } from './schema.ts';

/** Up to this many rows go through Kysely as usual. */
export const FEW = 20;

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Inserts rows of one table in multi-row statements written here rather than through Kysely's
 * query tree, which costs about a microsecond per bound value: a bulk run writing tens of
 * thousands of bookings with their trail feels that (bench/template.ts). The columns are the first
 * row's (undefined left out, as Kysely does); every row binds the same columns, a missing value as
 * NULL. Each statement is first compiled by Kysely from its first row, so the handle's plugins
 * (the suites' audit guard) see every write as they see any other. Answers the `returning`
 * columns of every row, camelCase, in no guaranteed order.
 */
export async function insertRows<T extends keyof Database & string, R extends string = never>(
  ex: Executor,
  table: T,
  rows: readonly NewRow<T>[],
  returning: readonly R[] = [],
): Promise<Record<R, unknown>[]> {
  if (!rows.length) return [];
  if (rows.length <= FEW) {
    // A few rows (a single booking's): Kysely's own statement, its cost per value does not show.
    const q = ex.insertInto(table).values(rows as never);
    return (returning.length ? await q.returning(returning as never).execute() : await q.execute()) as never;
  }
  const first = rows[0] as Record<string, unknown>;
  const columns = Object.keys(first).filter((c) => first[c] !== undefined);
  const postgres = onPostgres(ex);
  const head = `insert into "${snake(table)}" (${columns.map((c) => `"${snake(c)}"`).join(', ')}) values `;
  const tail = returning.length ? ` returning ${returning.map((c) => `"${snake(c)}" as "${c}"`).join(', ')}` : '';
  const out: Record<R, unknown>[] = [];
  for (const part of chunks(rows, columns.length)) {
    ex.insertInto(table)
      .values(part[0] as never)
      .compile();
    const params: unknown[] = [];
    const groups: string[] = [];
    for (const row of part as Record<string, unknown>[]) {
      const marks: string[] = [];
      for (const c of columns) {
        params.push(row[c] ?? null);
        marks.push(postgres ? `$${params.length}` : '?');
      }
      groups.push(`(${marks.join(', ')})`);
    }
    const res = await ex.executeQuery<Record<R, unknown>>(CompiledQuery.raw(head + groups.join(', ') + tail, params));
    out.push(...res.rows);
  }
  return out;
}
