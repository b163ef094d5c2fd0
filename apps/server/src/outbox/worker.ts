import type { Db, Dialect } from '../db/index.ts';
import type { AllowedHost } from '../lib/outbound.ts';
import { claimDue, markFailed, markSent, release, type OutboxRow } from './claim.ts';

/** Thrown by a handler when retrying cannot help (e.g. no webhook configured): the row is given up on. */
export class GiveUp extends Error {
  override name = 'GiveUp';
}

export interface OutboxContext {
  db: Db;
  dialect: Dialect;
  /** Time-out of one outbound HTTP request. */
  sendTimeoutMs: number;
  /** Internal hosts outbound requests may reach anyway (OUTBOUND_ALLOW_HOSTS; see lib/outbound.ts). */
  allowHosts: readonly AllowedHost[];
}

/** Delivers one message; throwing means "try again later" (or never, for GiveUp). */
export type OutboxHandler = (row: OutboxRow, payload: unknown, ctx: OutboxContext) => Promise<void>;

interface Log {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface OutboxWorkerOptions {
  db: Db;
  dialect: Dialect;
  handlers: Record<string, OutboxHandler>;
  log?: Log;
  /** Pause between polls when nothing is due (ms). */
  intervalMs?: number;
  /** Rows claimed per poll. */
  batchSize?: number;
  /** Attempts before a row is given up on (its lastError is kept). */
  maxAttempts?: number;
  /** First retry delay; doubles each attempt up to backoffCapMs. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** How long a claimed row stays reserved to this worker; must exceed sendTimeoutMs. */
  leaseMs?: number;
  sendTimeoutMs?: number;
  allowHosts?: readonly AllowedHost[];
}

export const OUTBOX_DEFAULTS = {
  intervalMs: 1000,
  batchSize: 20,
  maxAttempts: 12,
  backoffBaseMs: 2000,
  backoffCapMs: 10 * 60_000,
  leaseMs: 60_000,
  sendTimeoutMs: 10_000,
};

/** Delay before the retry that follows attempt number `attempts` (1-based): base x 2^(n-1), capped. */
export function backoffMs(attempts: number, base: number, cap: number): number {
  return Math.min(cap, base * 2 ** Math.min(attempts - 1, 30));
}

const silentLog: Log = { warn: () => {}, error: () => {} };

/**
 * Starts the outbox worker: polls for due rows, hands each to the handler of its topic, marks it
 * sent, or schedules a retry with exponential backoff, giving up after `maxAttempts`. Rows of one
 * order key go one at a time, in order. Returns `stop()`, which waits for the poll in progress.
 *
 * Delivery is at least once: a row is marked sent right after its handler succeeds, so only a crash
 * between the receiver's answer and that one UPDATE can send it again (once the lease ends).
 */
export function startOutboxWorker(opts: OutboxWorkerOptions): () => Promise<void> {
  const o = { ...OUTBOX_DEFAULTS, ...definedOnly(opts) };
  const log = opts.log ?? silentLog;
  const ctx: OutboxContext = {
    db: opts.db,
    dialect: opts.dialect,
    sendTimeoutMs: o.sendTimeoutMs,
    allowHosts: opts.allowHosts ?? [],
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const deliver = async (row: OutboxRow) => {
    const handler = opts.handlers[row.topic];
    try {
      if (!handler) throw new GiveUp(`no handler for topic ${row.topic}`);
      await handler(row, JSON.parse(row.payload) as unknown, ctx);
      await markSent(opts.db, row.id, Date.now());
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
      const giveUp = err instanceof GiveUp || row.attempts >= o.maxAttempts;
      const now = Date.now();
      await markFailed(
        opts.db,
        row.id,
        message,
        now,
        giveUp ? null : now + backoffMs(row.attempts, o.backoffBaseMs, o.backoffCapMs),
      );
      log.warn(
        { outboxId: row.id, topic: row.topic, attempts: row.attempts, err: message, gaveUp: giveUp },
        'outbox delivery failed',
      );
    }
  };

  const poll = async () => {
    // Keep going while rows come back, so a backlog drains without waiting for the interval.
    for (let round = 0; round < 50 && !stopped; round++) {
      const rows = await claimDue(opts.db, opts.dialect, { now: Date.now(), limit: o.batchSize, leaseMs: o.leaseMs });
      if (!rows.length) return;
      for (const [i, row] of rows.entries()) {
        if (stopped) {
          // Hand the rest back at once instead of letting their lease run out.
          await release(opts.db, rows.slice(i));
          return;
        }
        await deliver(row);
      }
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll()
        .catch((err: unknown) => log.error({ err }, 'outbox poll failed'))
        .finally(schedule);
    }, o.intervalMs);
  };
  schedule();

  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
