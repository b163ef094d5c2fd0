import type { FastifyBaseLogger } from 'fastify';

/**
 * Runs `run` now and then every `everyMs` (a minute by default) on this instance; a run still going
 * when the next is due is not started twice. Every job so run must be safe on several instances at
 * once (each guards its own writes). A failure is logged and the job tried again next time.
 * Answers `stop()`, which waits for a run in progress.
 */
export function startRepeating(o: {
  what: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  run: () => Promise<unknown>;
  everyMs?: number;
}): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = o
      .run()
      .catch((err: unknown) => o.log.warn({ err: (err as Error).message }, `${o.what} failed; tried again later`))
      .finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, o.everyMs ?? 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
