import crypto from 'node:crypto';
import {
  createTimetableMeeting,
  OnlineMsg,
  saveWechatSetting,
  sendTimetablePicture,
  updateOnlineSetting,
} from '@studio/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, type DbHandle } from '../db/index.ts';
import { EngineFactory } from '../../test/factory-engine.ts';
import { describeEachDb, PG_URL, type TestEnv } from '../../test/harness.ts';
import { enqueue } from './enqueue.ts';
import { outboxHandlers } from '../features/index.ts';
import { WECOM_TOPIC } from '../features/messaging/public.ts';
import { allowReceiver, fastWorker, Receiver, waitFor } from '../../test/outbox.ts';
import { startOutboxWorker } from './index.ts';
import { parseAllowHosts } from '../lib/outbound.ts';
import { backoffMs } from './worker.ts';

/** A second handle on the test database, as another app process would open it. */
async function openSame(env: TestEnv): Promise<DbHandle> {
  if (env.dialect === 'postgres') return openDatabase({ url: PG_URL, schema: env.database.schema, poolMax: 5 });
  const rows = await sql<{ name: string; file: string }>`pragma database_list`.execute(env.database.db);
  return openDatabase({ file: rows.rows.find((r) => r.name === 'main')!.file });
}

const text = (content: string) => ({ msgtype: 'text', text: { content } });

describeEachDb('outbox to a WeCom robot webhook', (env) => {
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
    allowReceiver(env().app, receiver);
  });
  afterAll(() => receiver.stop());

  const setWebhook = (url: string | null) =>
    env().client.ok(saveWechatSetting.path, url === null ? { robot: 'off' } : { webhookUrl: url });

  /** Queues `perKey` text messages on each of `keys` order keys, interleaved, in one transaction each. */
  async function queue(db: DbHandle['db'], keys: string[], perKey: number, tag: string): Promise<string[]> {
    const sent: string[] = [];
    for (let n = 1; n <= perKey; n++) {
      for (const key of keys) {
        const content = `${tag} ${key} #${n}`;
        await db.transaction().execute((tx) => enqueue(tx, env().storeId, WECOM_TOPIC, key, text(content)));
        sent.push(content);
      }
    }
    return sent;
  }

  const mine = (tag: string) => receiver.texts().filter((t) => t.startsWith(`${tag} `));
  const unsent = async (tag: string) => {
    const rows = await env()
      .database.db.selectFrom('outbox')
      .select(['payload', 'sentAt'])
      .where('topic', '=', WECOM_TOPIC)
      .execute();
    return rows.filter((r) => r.payload.includes(`"${tag} `) && r.sentAt === null).length;
  };

  /** Each message exactly once, and per key in queue order. */
  function expectOnceInOrder(tag: string, expected: string[], keys: string[]) {
    const got = mine(tag);
    expect([...got].sort()).toEqual([...expected].sort());
    for (const key of keys) {
      expect(got.filter((t) => t.startsWith(`${tag} ${key} `))).toEqual(
        expected.filter((t) => t.startsWith(`${tag} ${key} `)),
      );
    }
  }

  it('delivers each message once, in order per order key', async () => {
    await setWebhook(receiver.url);
    const tag = crypto.randomBytes(4).toString('hex');
    const keys = ['101', '102', '103'];
    const expected = await queue(env().database.db, keys, 5, tag);
    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      await waitFor(async () => (await unsent(tag)) === 0, 'every message sent');
    } finally {
      await stop();
    }
    expectOnceInOrder(tag, expected, keys);
  });

  it('retries while the receiver answers 500 or its port is closed, and delivers after it comes back', async () => {
    await setWebhook(receiver.url);
    const tag = crypto.randomBytes(4).toString('hex');
    const keys = ['201', '202'];
    receiver.failing = true;
    const expected = await queue(env().database.db, keys, 3, tag);
    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      const failedRow = async (pattern: RegExp) => {
        const rows = await env()
          .database.db.selectFrom('outbox')
          .select(['payload', 'attempts', 'lastError'])
          .where('sentAt', 'is', null)
          .execute();
        return rows.find((r) => r.payload.includes(tag) && r.attempts >= 2 && pattern.test(r.lastError ?? ''));
      };
      expect(await waitFor(() => failedRow(/HTTP 500/), 'retries against the 500')).toBeTruthy();
      await receiver.stop();
      const before = receiver.attempts;
      await waitFor(() => failedRow(/fetch failed|ECONNREFUSED/), 'retries against the closed port');
      expect(receiver.attempts).toBe(before);
      expect(mine(tag)).toEqual([]);
      receiver.failing = false;
      await receiver.start();
      await waitFor(async () => (await unsent(tag)) === 0, 'every message sent after the receiver is back');
    } finally {
      receiver.failing = false;
      await receiver.start().catch(() => undefined);
      await stop();
    }
    expectOnceInOrder(tag, expected, keys);
    // Only the first row of each key was tried while the receiver was down: later ones waited.
    const rows = await env().database.db.selectFrom('outbox').select(['payload', 'attempts']).execute();
    for (const key of keys) {
      const tried = rows.filter((r) => r.payload.includes(`${tag} ${key} #`) && r.attempts > 1);
      expect(tried.length).toBeLessThanOrEqual(1);
    }
  });

  it('a restart of the app in between loses nothing and doubles nothing', async () => {
    await setWebhook(receiver.url);
    const tag = crypto.randomBytes(4).toString('hex');
    const keys = ['301', '302', '303'];
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };

    // First process: sends part of the queue, then the receiver goes down and the app is closed.
    const h1 = await openSame(env());
    const app1 = await buildApp({ config, database: h1, logger: false });
    const stop1 = startOutboxWorker({
      allowHosts: parseAllowHosts(receiver.allowHost),
      ...app1.deps,
      handlers: outboxHandlers(app1.deps.events),
      intervalMs: 10,
      backoffBaseMs: 20,
      backoffCapMs: 200,
      leaseMs: 5000,
    });
    const first = await queue(h1.db, keys, 2, tag);
    await waitFor(async () => (await unsent(tag)) === 0, 'the first part sent');
    receiver.failing = true;
    const second = await queue(h1.db, keys, 2, `${tag}b`);
    await waitFor(async () => {
      const rows = await h1.db.selectFrom('outbox').select(['payload', 'attempts', 'sentAt']).execute();
      const part = rows.filter((r) => r.payload.includes(`"${tag}b `));
      return part.every((r) => r.sentAt === null) && part.filter((r) => r.attempts >= 2).length === keys.length;
    }, 'failed attempts on the second part');
    await stop1();
    await app1.close();
    await h1.close();

    // Second process on the same database: a new app, its own worker.
    receiver.failing = false;
    const h2 = await openSame(env());
    const app2 = await buildApp({ config, database: h2, logger: false });
    const stop2 = startOutboxWorker({
      allowHosts: parseAllowHosts(receiver.allowHost),
      ...app2.deps,
      handlers: outboxHandlers(app2.deps.events),
      intervalMs: 10,
      backoffBaseMs: 20,
      backoffCapMs: 200,
      leaseMs: 5000,
    });
    try {
      await waitFor(async () => (await unsent(`${tag}b`)) === 0, 'the second part sent by the new process');
    } finally {
      await stop2();
      await app2.close();
      await h2.close();
    }
    expectOnceInOrder(tag, first, keys);
    expectOnceInOrder(`${tag}b`, second, keys);
  });

  it('two workers on one database never send a row twice and keep the order per key', async () => {
    await setWebhook(receiver.url);
    const tag = crypto.randomBytes(4).toString('hex');
    const keys = ['401', '402', '403', '404'];
    const expected = await queue(env().database.db, keys, 8, tag);
    const h2 = await openSame(env());
    const stopA = fastWorker(env().app.deps, { allow: receiver.allowHost });
    const stopB = fastWorker({ ...h2, events: env().app.deps.events }, { allow: receiver.allowHost });
    try {
      await waitFor(async () => (await unsent(tag)) === 0, 'every message sent');
    } finally {
      await stopA();
      await stopB();
      await h2.close();
    }
    expectOnceInOrder(tag, expected, keys);
  });

  it('an online room and the timetable picture are posted to the webhook', async () => {
    await setWebhook(receiver.url);
    await env().client.ok(updateOnlineSetting.path, { jitsiBaseUrl: 'https://meet.example.org' });
    const e = new EngineFactory(env().factory);
    const { teacher, course } = await e.scene({ course: { name: '晨间瑜伽' } });
    const s = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: '2099-06-02 07:30:00' });
    expect((await env().client.call(createTimetableMeeting.path, { id: s.id, type: 2 })).code).toBe(0);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const before = receiver.bodies.length;
    expect(
      (await env().client.call(sendTimetablePicture.path, { image: `data:image/png;base64,${png.toString('base64')}` }))
        .code,
    ).toBe(0);
    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      await waitFor(async () => receiver.bodies.length >= before + 2, 'the room and picture messages');
    } finally {
      await stop();
    }
    const room = receiver.texts().find((t) => t.includes('在线教室已创建') && t.includes('2099-06-02 07:30'));
    const joinUrl =
      (
        await env()
          .database.db.selectFrom('timetable')
          .select('meetingInfo')
          .where('id', '=', s.id)
          .executeTakeFirstOrThrow()
      ).meetingInfo ?? '';
    expect(room).toContain('晨间瑜伽');
    expect(room).toContain(JSON.parse(joinUrl).joinUrl);
    const image = receiver.bodies.find((b) => (b as { msgtype: string }).msgtype === 'image') as {
      image: { base64: string; md5: string };
    };
    expect(image.image.base64).toBe(png.toString('base64'));
    expect(image.image.md5).toBe(crypto.createHash('md5').update(png).digest('hex'));
  });

  it('gives up after maxAttempts, keeps the last error, and then lets the next row of the key go', async () => {
    await setWebhook(receiver.url);
    const tag = crypto.randomBytes(4).toString('hex');
    const key = `601-${tag}`;
    await env()
      .database.db.transaction()
      .execute(async (tx) => {
        await enqueue(tx, env().storeId, 'test.always-fails', key, { n: 1 });
        await enqueue(tx, env().storeId, WECOM_TOPIC, key, text(`${tag} after`));
      });
    const stop = startOutboxWorker({
      allowHosts: parseAllowHosts(receiver.allowHost),
      db: env().database.db,
      dialect: env().dialect,
      intervalMs: 10,
      backoffBaseMs: 10,
      backoffCapMs: 40,
      maxAttempts: 3,
      handlers: {
        ...outboxHandlers(env().app.deps.events),
        'test.always-fails': async () => {
          throw new Error('接收方拒绝');
        },
      },
    });
    try {
      await waitFor(async () => mine(tag).length === 1, 'the next row of the key');
    } finally {
      await stop();
    }
    const rows = await env()
      .database.db.selectFrom('outbox')
      .selectAll()
      .where('orderKey', '=', key)
      .orderBy('id')
      .execute();
    expect(rows[0]).toMatchObject({ attempts: 3, sentAt: null, lastError: '接收方拒绝' });
    expect(rows[0].deadAt).not.toBeNull();
    expect(rows[1].sentAt).not.toBeNull();
    expect(rows[1].sentAt!).toBeGreaterThanOrEqual(rows[0].deadAt!);
  });

  it('backs off exponentially up to the cap', () => {
    expect([1, 2, 3, 4, 10, 40].map((n) => backoffMs(n, 2000, 600_000))).toEqual([
      2000, 4000, 8000, 16000, 600_000, 600_000,
    ]);
  });

  it('no webhook: the picture is refused, and a queued message is given up on with its reason', async () => {
    await setWebhook(null);
    const a = await env().client.call(sendTimetablePicture.path, { image: 'data:image/png;base64,iVBORw0KGgo=' });
    expect([a.status, a.msg]).toEqual([409, OnlineMsg.webhookMissing]);
    const bad = await env().client.call(sendTimetablePicture.path, { image: 'data:image/jpeg;base64,AAAA' });
    expect([bad.status, bad.msg]).toEqual([400, OnlineMsg.pictureDataUrl]);
    const tag = crypto.randomBytes(4).toString('hex');
    await queue(env().database.db, ['501'], 1, tag);
    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      const row = await waitFor(async () => {
        const rows = await env().database.db.selectFrom('outbox').selectAll().where('orderKey', '=', '501').execute();
        return rows.find((r) => r.payload.includes(tag) && r.deadAt !== null);
      }, 'the message given up on');
      expect(row.sentAt).toBeNull();
      expect(row.lastError).toBe(OnlineMsg.webhookMissing);
    } finally {
      await stop();
    }
    expect(mine(tag)).toEqual([]);
  });
});
