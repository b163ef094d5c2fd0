import type { FastifyInstance } from 'fastify';
import type { DbHandle } from '../db/index.ts';
import type { Events } from '../lib/events.ts';
import { registerHealth } from './health.ts';
import { registerMetrics } from './metrics.ts';

/**
 * The operators' endpoints, outside the contract (plain GETs, like the static files): `/healthz`,
 * `/readyz`, `/metrics`. Registered before the calls so the metrics hook sees every answer.
 */
export function registerOps(
  app: FastifyInstance,
  o: { database: DbHandle; metricsToken?: string; events: Events },
): void {
  registerHealth(app, o.database);
  // While the app closes (graceful stop, main.ts), every answer closes its connection after it, so
  // a kept-alive connection ends with its last request instead of holding the stop up.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  registerMetrics(app, { database: o.database, token: o.metricsToken, events: o.events });
}
