import type pg from 'pg';

/**
 * Named prepared statements on PostgreSQL. Kysely sends every query unnamed, so the server parses
 * and plans each statement again on every execution; a booking's nine statements cost the
 * database more than the round trips themselves (bench/README.md, "Prepared statements"). Here a
 * connection's `query(text, values)` of a data statement goes out as `{name, text, values}`: pg
 * parses it once per connection and afterwards sends only Bind and Execute.
 *
 * Bounded: one name per distinct statement text, at most MAX_NAMES texts in the process (queries
 * whose text varies, such as `in (...)` lists of other lengths, stop being named once the table is
 * full, and stay unnamed as before). A statement whose result columns changed under it (a
 * migration added a column to a table it reads with `*`) fails once with SQLSTATE 0A000 "cached
 * plan must not change result type"; the connection then forgets its statements (DEALLOCATE ALL
 * before its next query), and that one failure answers as the database being briefly unavailable
 * (lib/db-errors.ts), so the client may try again.
 */

const MAX_NAMES = 5000;
const names = new Map<string, string>();
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    name = `s${names.size}`;
    names.set(text, name);
  }
  return name;
}

/** A result type changed under a prepared statement (see above). */
export const isStalePlan = (e: unknown): boolean =>
  (e as { code?: unknown } | null)?.code === '0A000' &&
  /cached plan must not change result type/.test(String((e as { message?: unknown }).message));

type Query = (...args: unknown[]) => unknown;

/** Makes `client` name its data statements (called once per new connection). */
export function prepareStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  let stale = false;
  // Sent before the statement that follows, in order (pg sends a connection's queries in the order
  // they are made), so nothing waits for it.
  const forget = () => {
    stale = false;
    // pg remembers which names it has parsed on this connection; PostgreSQL forgets them here.
    (client as unknown as { connection: { parsedStatements: Record<string, unknown> } }).connection.parsedStatements =
      {};
    (query('deallocate all') as Promise<unknown>).catch(() => undefined);
  };
  (client as unknown as { query: Query }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    const name =
      typeof text === 'string' && Array.isArray(values) && DATA_STATEMENT.test(text) ? nameOf(text) : undefined;
    if (name === undefined || rest.length) return query(text, values, ...rest);
    if (stale) forget();
    return (query({ name, text, values }) as Promise<unknown>).catch((e: unknown) => {
      if (isStalePlan(e)) stale = true;
      throw e;
    });
  };
}
