import type pg from 'pg';

/**
 * Fewer round trips per transaction on PostgreSQL, without the business code knowing.
 *
 * On the machines this runs on, what a statement costs the app is mostly its round trip: the socket
 * write that sends it and the read that wakes the process for its answer (bench/README.md, "Round
 * trips"). A transaction of one booking was six of them: BEGIN, the reads, the audit entry, the
 * booking, COMMIT, plus the login's look-up before it. The pool's connections run in pg's pipeline
 * mode (several statements on the wire before the first answer), and each connection's `query`
 * holds back what need not go alone:
 *
 * - BEGIN is not sent when the transaction starts but with its first statement, in the same write
 *   (a transaction that sends nothing sends neither BEGIN nor COMMIT). Plain reads (`READ_MARK`:
 *   the reads of db/fixed.ts `sendRead`, checked to be SELECTs without a row lock) that come before
 *   anything else go without it: at READ COMMITTED each statement reads its own snapshot inside a
 *   transaction or not, so they read the same; a transaction that only read (a booking refused by
 *   its rules) then sends neither BEGIN nor ROLLBACK.
 * - A statement marked to go with the next (`WITH_NEXT`, see `Fixed.sendWithNext` in fixed.ts: an
 *   audit entry, whose answer nobody waits for) is held and sent in the same write as the
 *   transaction's next statement or its COMMIT. If it fails, that next statement or the COMMIT
 *   fails with its error, so the transaction rolls back as if it had failed where it was written.
 *   Outside a transaction it is sent at once.
 *
 * Every statement keeps its own Sync (pg's pipeline mode), so each answers as before; in a
 * transaction a failure aborts the transaction and every later statement fails, which is what the
 * caller sees anyway (it rolls back).
 */

/** Marks a statement to be sent with the transaction's next one (its answer is not waited for). */
export const WITH_NEXT = '/* with next */ ';
/** Marks a plain read (a SELECT without a row lock or a side effect). */
export const READ_MARK = '/* plain read */ ';

/** `q` marked (`WITH_NEXT` or `READ_MARK`) for a PostgreSQL connection of this module. */
export const marked = <Q extends { sql: string }>(mark: string, q: Q): Q => ({ ...q, sql: mark + q.sql });

type Query = (...args: unknown[]) => Promise<unknown>;
interface Held {
  text: string;
  values: unknown;
}

let sends = 0;
/** Writes of statements to PostgreSQL so far in this process (statements sent together count once). */
export const pgSends = (): number => sends;

const done = (command: string) => Promise.resolve({ command, rowCount: null, rows: [], fields: [] });

/** Makes `client` hold back BEGIN and `WITH_NEXT` statements as described above (once per connection). */
export function pipelineTransactions(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  let begin = false;
  let inTx = false;
  let held: Held[] = [];

  /** Sends `text` alone, in a write of its own. */
  const alone = (text: string, values: unknown): Promise<unknown> => {
    sends += 1;
    return query(text, values);
  };

  /** Sends BEGIN if it is due and what is held, then `text`, in one write; answers `text`'s result or the first failure. */
  const send = async (text: string, values: unknown): Promise<unknown> => {
    const before: Promise<unknown>[] = [];
    sends += 1;
    stream.cork();
    let last: Promise<unknown>;
    try {
      if (begin) before.push(query('begin'));
      begin = false;
      for (const h of held) before.push(query(h.text, h.values));
      held = [];
      last = query(text, values);
    } finally {
      stream.uncork();
    }
    // Every promise is settled (none left rejected unheard); the first failure is the one to report.
    const settled = await Promise.allSettled([...before, last]);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return (settled[settled.length - 1] as PromiseFulfilledResult<unknown>).value;
  };

  (client as unknown as { query: Query }).query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || rest.length) return query(text, values, ...rest);
    if (text === 'begin') {
      begin = true;
      inTx = true;
      return done('BEGIN');
    }
    if (text === 'commit' || text === 'rollback') {
      inTx = false;
      if (text === 'rollback') held = [];
      // Nothing was sent in the transaction: there is nothing to end.
      if (begin && !held.length) {
        begin = false;
        return done(text.toUpperCase());
      }
      return send(text, values);
    }
    if (text.startsWith(READ_MARK)) {
      const statement = text.slice(READ_MARK.length);
      // Nothing held: the read goes alone, before BEGIN if BEGIN is still due (see above).
      return held.length ? send(statement, values) : alone(statement, values);
    }
    if (text.startsWith(WITH_NEXT)) {
      const statement = text.slice(WITH_NEXT.length);
      if (!inTx) return alone(statement, values);
      held.push({ text: statement, values });
      return done('HELD');
    }
    return begin || held.length ? send(text, values) : alone(text, values);
  };
}
