import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { DEMO_ADMIN } from './ops/seed/index.ts';
import { lockSqliteFile, prepareDatabase } from './ops/startup.ts';
import { outboxHandlers } from './features/index.ts';
import { releaseUnconfirmed } from './features/lessons/public.ts';
import { runNoShows } from './features/no-show/public.ts';
import {
  closeExpiredOrders,
  RECONCILE_JOB,
  reconcileYesterday,
  REFUND_SETTLE_JOB,
  settleOpenRefunds,
} from './features/payment/public.ts';
import { runDueDigests } from './features/reports/public.ts';
import { runReminders } from './features/reminders/public.ts';
import { endClosedWaits } from './features/waitlist/public.ts';
import { purgeOldEntries } from './features/audit/public.ts';
import { startRepeating } from './lib/jobs.ts';
import { returnStaleLeads } from './features/leads/public.ts';
import { startOutboxWorker } from './outbox/index.ts';

const config = loadConfig();
const sqliteFile = path.join(config.dataDir, 'studio.db');
let releaseSqlite: (() => void) | undefined;
if (!config.databaseUrl) {
  try {
    releaseSqlite = lockSqliteFile(sqliteFile);
  } catch (err) {
    console.error(`\n  ${(err as Error).message}\n`);
    process.exit(1);
  }
}
// Until the app (and its logger) exists, a lost connection is reported on stderr.
const lost = { report: (err: Error) => console.error(`database connection lost: ${err.message}`) };
const database = openDatabase(
  config.databaseUrl
    ? {
        url: config.databaseUrl,
        poolMax: config.pgPoolMax,
        // A broken connection is logged and replaced; the requests that used it answered 503.
        onConnectionError: (err) => lost.report(err),
      }
    : { file: sqliteFile },
);
// Several instances may start at once: migrations and the first-run seed run one at a time.
const seed = await prepareDatabase(database, {
  mode: config.seed,
  adminPassword: config.adminPassword,
  deskPassword: config.deskPassword,
  teacherPassword: config.teacherPassword,
});
const app = await buildApp({ config, database });
lost.report = (err) => app.log.warn({ err: err.message }, 'database connection lost');
// Sends queued store messages and creates on-demand online rooms (see outbox/README.md).
const stopOutbox = startOutboxWorker({
  db: database.db,
  dialect: database.dialect,
  log: app.log,
  handlers: outboxHandlers(app.deps.events),
  allowHosts: config.outboundAllowHosts,
});

// The minute jobs, on every instance (each guards its writes so that any number may run at once):
// the daily card-alert digest to each store's WeCom robot (once per store and day); pendings not
// signed in by their class's end, charged or counted as no-shows (once); waits past the promotion
// cutoff ended without charge.
const { db, dialect } = database;
const stopJobs = [
  startRepeating({ what: 'card alert digest', log: app.log, run: () => runDueDigests(app.deps) }),
  startRepeating({ what: 'no-show job', log: app.log, run: () => runNoShows(db, dialect) }),
  startRepeating({ what: 'waitlist cutoff job', log: app.log, run: () => endClosedWaits(db, dialect) }),
  // Lessons still waiting for their teacher (待确认) past the store's time limit: released, members told.
  startRepeating({ what: 'lesson release job', log: app.log, run: () => releaseUnconfirmed(app.deps) }),
  // Online orders unpaid after 15 minutes: asked at the provider, fulfilled if paid, else closed there and here.
  startRepeating({ what: 'pay order close job', log: app.log, run: () => closeExpiredOrders(app.deps) }),
  // Online refunds still 退款中 after 2 minutes (no notification, or the request got no answer): asked at the provider.
  startRepeating({ what: REFUND_SETTLE_JOB, log: app.log, run: () => settleOpenRefunds(app.deps) }),
  // 对账: from 10:00 store time, yesterday's bills of each provider matched with the orders (once a day).
  startRepeating({
    what: RECONCILE_JOB,
    log: app.log,
    run: () => reconcileYesterday(app.deps),
    everyMs: 300_000,
  }),
  // Reminders to members: class reminders and card reminders queued, and the messages due sent (each once).
  startRepeating({ what: 'reminder job', log: app.log, run: () => runReminders(app.deps) }),
  // Leads untouched for the store's days back to the pool (公海): the cutoff moves once a day.
  startRepeating({
    what: 'lead pool return',
    log: app.log,
    run: () => returnStaleLeads(db, dialect),
    everyMs: 3600_000,
  }),
  startRepeating({
    what: 'audit log retention',
    log: app.log,
    run: () => purgeOldEntries(db, config.auditRetentionDays),
    everyMs: 3600_000,
  }),
];

// Graceful stop (SIGTERM from systemd / docker / a deploy, SIGINT from a terminal): stop accepting
// connections, let the requests in flight finish (each connection closes after its answer), cut
// what is still open after STOP_GRACE_MS; meanwhile the jobs and the outbox worker finish their
// current item and start no other; then the pool closes and the process exits 0.
const STOP_GRACE_MS = 10_000;
let stopping = false;
const stop = async (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'stopping: finishing requests in flight');
  const cut = setTimeout(() => {
    app.log.warn('stopping: requests still open after the grace period are cut');
    app.server.closeAllConnections();
  }, STOP_GRACE_MS);
  cut.unref();
  try {
    await Promise.all([app.close(), stopOutbox(), ...stopJobs.map((stopJob) => stopJob())]);
    clearTimeout(cut);
    await database.close();
    releaseSqlite?.();
  } catch (err) {
    app.log.error({ err }, 'stopping failed');
    process.exit(1);
  }
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL' : path.join(config.dataDir, 'studio.db');
const url = `http://localhost:${config.port}/`;
const lines = [``, `  团课工作室后台已启动: ${url}`, `  数据库: ${where}`];
if (seed.seeded) {
  lines.push(`  已载入演示门店。登录账号: ${DEMO_ADMIN}`);
  lines.push(
    seed.generatedPassword
      ? `  登录密码 (随机生成，仅显示这一次): ${seed.generatedPassword}`
      : `  登录密码: 环境变量 ADMIN_PASSWORD 的值`,
  );
  for (const o of seed.others ?? []) {
    const env = o.account === 'desk' ? 'DESK_PASSWORD' : 'TEACHER_PASSWORD';
    lines.push(`  ${o.label}账号: ${o.account}  密码: ${o.password ?? `环境变量 ${env} 的值`}`);
  }
} else if (config.seed === 'empty') {
  lines.push(`  空白启动: 打开页面后按首次使用向导创建门店和管理员。`);
}
console.log(lines.join('\n') + '\n');
