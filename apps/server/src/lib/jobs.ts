import type { FastifyBaseLogger } from 'fastify';

/** Runs and failures of each repeating job of this process, by its `what` (read by ops/metrics.ts). */
const tally = new Map<string, { runs: number; failures: number }>();

/** Runs and failures so far of every job started in this process. */
export function jobCounts(): ReadonlyMap<string, { readonly runs: number; readonly failures: number }> {
  return tally;
}

/** Items (one order, one refund) each job skipped after a failure, by job (read by ops/metrics.ts). */
const itemFailures = new Map<string, number>();

/** Items skipped after a failure so far in this process, by job. */
export function itemFailureCounts(): ReadonlyMap<string, number> {
  return itemFailures;
}

/**
 * One item of a job's round failed (an order, a refund, a store's bill): logged with what it was and
 * counted in /metrics (`studio_job_item_failures_total{job}`); the caller skips it and goes on with the
 * rest, so one item never stops the others. `job` names the job as its `startRepeating` `what` does.
 */
export function itemFailed(
  log: Pick<FastifyBaseLogger, 'warn'>,
  job: string,
  item: Record<string, unknown>,
  err: unknown,
): void {
  itemFailures.set(job, (itemFailures.get(job) ?? 0) + 1);
  log.warn(
    { ...item, job, err: err instanceof Error ? err.message : String(err) },
    `${job}: one item failed and was skipped`,
  );
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
