import type { FastifyBaseLogger } from 'fastify';

/** Runs and failures of each repeating job of this process, by its `what` (read by ops/metrics.ts). */
const tally = new Map<string, { runs: number; failures: number }>();

/** Runs and failures so far of every job started in this process. */
export function jobCounts(): ReadonlyMap<string, { readonly runs: number; readonly failures: number }> {
  return tally;
}

/** Items a job skipped because handling them threw (one order, one refund), by job `what`. */
const itemFailures = new Map<string, number>();

/** Items skipped so far by each job of this process (read by ops/metrics.ts). */
export function jobItemFailures(): ReadonlyMap<string, number> {
  return itemFailures;
}

/**
 * One item of a job's round failed: logged with the job's name and counted in /metrics
 * (`studio_job_item_failures_total`); the round goes on with the next item.
 */
export function jobItemFailed(
  what: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
  item: Record<string, unknown>,
  err: unknown,
): void {
  itemFailures.set(what, (itemFailures.get(what) ?? 0) + 1);
  log.warn({ ...item, err: err instanceof Error ? err.message : String(err) }, `${what}: one item failed; skipped`);
}

/**
 * Runs `run` now and then every `everyMs` (a minute by default) on this instance; a run still going
 * when the next is due is not started twice. Every job so run must be safe on several instances at
 * once (each guards its own writes). A failure is logged and the job tried again next time.
 * Answers `stop()`, which starts no further run and waits for the one in progress.
 */
export function startRepeating(o: {
  what: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  run: () => Promise<unknown>;
  everyMs?: number;
}): () => Promise<void> {
  const counts = tally.get(o.what) ?? { runs: 0, failures: 0 };
  tally.set(o.what, counts);
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    counts.runs += 1;
    running = o
      .run()
      .catch((err: unknown) => {
        counts.failures += 1;
        o.log.warn({ err: (err as Error).message }, `${o.what} failed; tried again later`);
      })
      .finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, o.everyMs ?? 60_000);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
