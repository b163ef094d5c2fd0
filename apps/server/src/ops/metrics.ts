import crypto from 'node:crypto';
import { addMemberReservation, batchAddMemberReservation, memberBook } from '@studio/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DbHandle } from '../db/index.ts';
import { forbidden, unauthorized } from '../lib/errors.ts';
import type { Events } from '../lib/events.ts';
import { waitlistPromoted } from '../features/waitlist/public.ts';
import { jobCounts, jobItemFailures } from '../lib/jobs.ts';
import { outboxBacklog } from '../outbox/stats.ts';

export const MetricsMsg = {
  forbidden: '监控数据只对本机开放，或请携带监控令牌',
  badToken: '监控令牌不正确',
} as const;

/** The calls that book: answered code 0 counts as booked, a 4xx as refused. */
const BOOKING_CALLS = new Set([addMemberReservation.path, batchAddMemberReservation.path, memberBook.path]);

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * A scrape is let in from this machine (the socket's peer is loopback and no proxy forwarded it:
 * a reverse proxy on the same host connects from loopback too), or with `Authorization: Bearer
 * <METRICS_TOKEN>`.
 */
function checkAccess(req: FastifyRequest, token: string | undefined): void {
  const auth = req.headers.authorization;
  if (auth !== undefined) {
    const given = /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim() ?? '';
    if (token && safeEqual(given, token)) return;
    throw unauthorized(MetricsMsg.badToken);
  }
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  if (!forwarded && LOOPBACK.has(req.socket.remoteAddress ?? '')) return;
  throw forbidden(MetricsMsg.forbidden);
}

function safeEqual(a: string, b: string): boolean {
  const x = crypto.createHash('sha256').update(a).digest();
  const y = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

/**
 * Prometheus metrics of one app (`GET /metrics`): requests by route pattern and status with their
 * latency, booking outcomes, the PostgreSQL pool, the outbox backlog, job runs and failures, and
 * the process's own (CPU, memory, event loop). Everything is read from the response hook and the
 * app's existing events and counters, nothing from business code.
 */
export function registerMetrics(
  app: FastifyInstance,
  o: { database: DbHandle; token?: string; events: Events },
): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const bookings = new Counter({
    name: 'studio_booking_outcomes_total',
    help: 'Booking calls answered: booked (code 0) or refused (4xx); waitlist_promoted: members given a seat from the waitlist',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['booked', 'refused', 'waitlist_promoted']) bookings.inc({ outcome }, 0);
  // Promotions of this app, from its events (told once the promotion is written).
  o.events.on(waitlistPromoted, async () => void bookings.inc({ outcome: 'waitlist_promoted' }), 'announce');
  new Gauge({
    name: 'studio_db_pool_connections',
    help: 'PostgreSQL pool of this instance: connections in use, requests waiting for one (0 on SQLite)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = o.database.poolStats?.() ?? { inUse: 0, waiting: 0 };
      this.set({ state: 'in_use' }, s.inUse);
      this.set({ state: 'waiting' }, s.waiting);
    },
  });
  // Read once per scrape; the age gauge comes after the depth gauge, whose collect sets both.
  const outboxAge = new Gauge({
    name: 'studio_outbox_oldest_age_seconds',
    help: 'Age of the oldest outbox message not yet sent (0 when none)',
    registers: [],
  });
  new Gauge({
    name: 'studio_outbox_depth',
    help: 'Outbox messages not yet sent nor given up on (-1 when the database could not be read)',
    registers: [registry],
    async collect() {
      try {
        const b = await outboxBacklog(o.database.db);
        this.set(b.depth);
        outboxAge.set(b.oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - b.oldestCreatedAt) / 1000));
      } catch {
        this.set(-1);
        outboxAge.set(0);
      }
    },
  });
  registry.registerMetric(outboxAge);
  // As for the outbox: the runs gauge's collect sets the failures gauge registered after it.
  const jobFailures = new Gauge({
    name: 'studio_job_failures_total',
    help: 'Failed runs of each repeating job of this process',
    labelNames: ['job'] as const,
    registers: [],
  });
  new Gauge({
    name: 'studio_job_runs_total',
    help: 'Runs of each repeating job started by this process',
    labelNames: ['job'] as const,
    registers: [registry],
    collect() {
      for (const [job, c] of jobCounts()) {
        this.set({ job }, c.runs);
        jobFailures.set({ job }, c.failures);
      }
    },
  });
  registry.registerMetric(jobFailures);
  new Gauge({
    name: 'studio_job_item_failures_total',
    help: 'Items (an order, a refund) a job of this process skipped because handling them failed; the rest went on',
    labelNames: ['job'] as const,
    registers: [registry],
    collect() {
      for (const [job, n] of jobItemFailures()) this.set({ job }, n);
    },
  });

  app.addHook('onResponse', async (req, reply) => {
    const pattern = req.routeOptions.url;
    // The route's pattern (a static file is `/*`), never the raw URL: labels stay few.
    const labels = { route: pattern ?? '(unmatched)', method: req.method, status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    if (pattern && BOOKING_CALLS.has(pattern)) {
      if (reply.statusCode === 200) bookings.inc({ outcome: 'booked' });
      else if (reply.statusCode >= 400 && reply.statusCode < 500) bookings.inc({ outcome: 'refused' });
    }
  });

  app.get('/metrics', async (req, reply) => {
    checkAccess(req, o.token);
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
  return registry;
}
