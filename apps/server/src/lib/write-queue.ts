import { inSavepoint } from '../db/dialect.ts';
import { auditedBody, inAuditedTx, rootOf, scopeOf, type AuditScope } from './audit.ts';
import type { Db, Dialect, Tx } from '../db/index.ts';

interface Job {
  fn: (tx: Tx) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}
interface Queue {
  jobs: Job[];
  running: boolean;
}

/** Most writes one SQLite transaction groups together. */
const MAX_GROUP = 64;
const queues = new WeakMap<Db, Queue>();

/**
 * Runs `fn` in a write transaction and answers once it is durable.
 *
 * On PostgreSQL each call gets its own transaction. On SQLite, where one connection serialises
 * every transaction anyway and each COMMIT waits for an fsync (synchronous=FULL), calls that
 * arrive together share one transaction (group commit): each runs in its own savepoint, so a
 * refusal rolls back only its own writes, later calls see the earlier ones exactly as if they had
 * run one after the other, and a single COMMIT makes the whole group durable before any caller is
 * answered. If that COMMIT fails, every call of the group fails.
 */
export function inWriteTx<T>(
  handle: Db,
  dialect: Dialect,
  body: (tx: Tx) => Promise<T>,
  /** A job's scope (a call's comes with its database handle, see scopedDb). */
  jobScope?: AuditScope,
): Promise<T> {
  // Already inside the call's write transaction (a handler run in one): join it.
  if (inAuditedTx(handle)) return body(handle as Tx);
  // The audit entry of the change is written in the same transaction, after the body.
  const scope = jobScope ?? scopeOf(handle);
  const db = rootOf(handle);
  const fn = (tx: Tx) => auditedBody(scope, tx, () => body(tx));
  if (dialect !== 'sqlite') return db.transaction().execute(fn);
  let q = queues.get(db);
  if (!q) {
    q = { jobs: [], running: false };
    queues.set(db, q);
  }
  const queue = q;
  return new Promise<T>((resolve, reject) => {
    queue.jobs.push({ fn, resolve: resolve as (v: unknown) => void, reject });
    if (!queue.running) {
      queue.running = true;
      setImmediate(() => void drain(db, queue));
    }
  });
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs groups until the queue is empty. Each group starts on a later turn of the event loop
 * (setImmediate), so the requests that arrived meanwhile, while the last COMMIT blocked, join it.
 */
async function drain(db: Db, q: Queue): Promise<void> {
  try {
    while (q.jobs.length) {
      const group = q.jobs.splice(0, MAX_GROUP);
      const outcomes: Outcome[] = [];
      try {
        await db.transaction().execute(async (tx) => {
          for (const job of group) outcomes.push(await runInSavepoint(tx, job));
        });
      } catch (error) {
        for (const job of group) job.reject(error);
        await nextTurn();
        continue;
      }
      group.forEach((job, i) => {
        const o = outcomes[i];
        if (o.ok) job.resolve(o.value);
        else job.reject(o.error);
      });
      await nextTurn();
    }
  } finally {
    q.running = false;
  }
}

async function runInSavepoint(tx: Tx, job: Job): Promise<Outcome> {
  try {
    return { ok: true, value: await inSavepoint(tx, () => job.fn(tx)) };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * Runs `fn` in a transaction of its own (never grouped with other writes: a large bulk change, or
 * work that must not share a group commit), with the audit entry of the change written in it.
 */
export function inOwnTx<T>(handle: Db, body: (tx: Tx) => Promise<T>): Promise<T> {
  if (inAuditedTx(handle)) return body(handle as Tx);
  const scope = scopeOf(handle);
  return rootOf(handle)
    .transaction()
    .execute((tx) => auditedBody(scope, tx, () => body(tx)));
}
