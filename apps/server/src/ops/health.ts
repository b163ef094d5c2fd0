import type { FastifyInstance } from 'fastify';
import type { DbHandle } from '../db/index.ts';
import { pendingMigrations } from '../db/migrate.ts';
import { ping } from '../db/ping.ts';

/** How long /readyz waits for the database before answering 503. */
export const READY_TIMEOUT_MS = 1000;

export const HealthMsg = {
  notReady: '服务暂未就绪：数据库没有及时应答',
  migrationsPending: '服务暂未就绪：数据库迁移尚未完成',
} as const;

/**
 * Whether the database answers within `timeoutMs` and has run every migration this code knows.
 * Once the migrations are found complete they are not asked again (they never go back).
 */
export function readinessCheck(database: DbHandle, timeoutMs = READY_TIMEOUT_MS) {
  let migrated = false;
  const probe = async (): Promise<string | null> => {
    await ping(database.db);
    if (!migrated) {
      const pending = await pendingMigrations(database.db, database.dialect);
      if (pending.length) return HealthMsg.migrationsPending;
      migrated = true;
    }
    return null;
  };
  return async (): Promise<string | null> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(HealthMsg.notReady), timeoutMs);
    });
    try {
      return await Promise.race([probe().catch(() => HealthMsg.notReady), late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * `GET /healthz`: the process answers. `GET /readyz`: the database answers within a second and is
 * migrated (503 otherwise), for a load balancer deciding whether to send traffic here.
 */
export function registerHealth(app: FastifyInstance, database: DbHandle): void {
  const ready = readinessCheck(database);
  app.get('/healthz', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { code: 0, data: { status: 'ok' }, msg: '' };
  });
  app.get('/readyz', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    const problem = await ready();
    if (problem) return reply.status(503).send({ code: 503, data: null, msg: problem });
    return { code: 0, data: { status: 'ready' }, msg: '' };
  });
}
