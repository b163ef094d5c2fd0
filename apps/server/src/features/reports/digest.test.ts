import {
  ALERT_DIGEST_DEFAULT,
  BIG_TYPE_COUNT,
  CARD_TYPE_EXPIRES,
  queryAlertDigest,
  ReportMsg,
  saveWechatSetting,
  updateAlertDigest,
} from '@studio/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase } from '../../db/index.ts';
import { addDays } from '../../lib/time.ts';
import { describeEachDb, PG_URL } from '../../../test/harness.ts';
import { allowReceiver, fastWorker, Receiver, waitFor } from '../../../test/outbox.ts';
import { runDueDigests } from './digest.ts';

/** An instant given as Asia/Shanghai local time (the test stores' zone). */
const shanghai = (local: string) => Date.parse(`${local.replace(' ', 'T')}+08:00`);

describeEachDb('daily card-alert digest to the WeCom robot', (env) => {
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
    allowReceiver(env().app, receiver);
  });
  afterAll(() => receiver.stop());
  const ok = <T = any>(path: string, body: Record<string, unknown>) => env().client.ok<T>(path, body);
  const digestRows = async () =>
    (
      await env()
        .database.db.selectFrom('outbox')
        .select(['orderKey', 'payload'])
        .where('storeId', '=', env().storeId)
        .where('orderKey', 'like', 'digest:%')
        .execute()
    ).map((r) => r.orderKey);

  it('settings: default off, saved and read back, bad values refused', async () => {
    expect(await ok(queryAlertDigest.path, {})).toEqual(ALERT_DIGEST_DEFAULT);
    const d = { enabled: 1, time: '08:30', days: 14, minCount: 3, minMoney: 20_000 };
    await ok(updateAlertDigest.path, d);
    expect(await ok(queryAlertDigest.path, {})).toEqual(d);
    const bad = await env().client.call(updateAlertDigest.path, { ...d, time: '25:00' });
    expect([bad.status, bad.msg]).toEqual([400, ReportMsg.digestTime]);
    const missing = await env().client.call(updateAlertDigest.path, { enabled: 1 });
    expect(missing.status).toBe(400);
    // Another store's setting is its own.
    expect(await env().other.client.ok(queryAlertDigest.path, {})).toEqual(ALERT_DIGEST_DEFAULT);
  });

  it('sends once a day at or after its time, with the cards to look after, on any number of instances', async () => {
    const f = env().factory;
    await ok(saveWechatSetting.path, { webhookUrl: receiver.url });
    const product = await f.cardProduct({ cardName: '季卡', bigType: BIG_TYPE_COUNT, cardType: CARD_TYPE_EXPIRES });
    const m = await f.member({ name: '提醒甲' });
    await f.memberCard(m.id, product.id, { totalCount: 10, usedCount: 9, expireTime: '2099-12-31 23:59:59' });
    await ok(updateAlertDigest.path, { enabled: 1, time: '09:00', days: 30, minCount: 2, minMoney: 0 });
    const day = '2099-03-10';

    // Before its time: nothing.
    expect(await runDueDigests(env().app.deps, shanghai(`${day} 08:59:00`))).not.toContain(env().storeId);
    expect(await digestRows()).toEqual([]);

    // At its time, two runs at once (and on PostgreSQL a second instance's pool): one message.
    const at = shanghai(`${day} 09:00:30`);
    const second = PG_URL && env().dialect === 'postgres' ? await secondPool() : null;
    try {
      const runs = await Promise.all([
        runDueDigests(env().app.deps, at),
        runDueDigests({ ...env().app.deps, db: second?.db ?? env().database.db }, at),
        runDueDigests(env().app.deps, at + 60_000),
      ]);
      expect(runs.flat().filter((id) => id === env().storeId)).toHaveLength(1);
    } finally {
      await second?.close();
    }
    expect(await digestRows()).toEqual([`digest:${day}`]);
    // Later the same day: still one. The next day: a second.
    await runDueDigests(env().app.deps, shanghai(`${day} 22:00:00`));
    expect(await digestRows()).toEqual([`digest:${day}`]);
    await runDueDigests(env().app.deps, shanghai(`${addDays(day, 1)} 09:01:00`));
    expect((await digestRows()).sort()).toEqual([`digest:${day}`, `digest:${addDays(day, 1)}`]);

    // Delivered to the robot: the heading, the count and the member's card.
    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      await waitFor(async () => receiver.texts().filter((t) => t.includes('会员卡提醒')).length >= 2, 'two digests');
    } finally {
      await stop();
    }
    const text = receiver.texts().find((t) => t.includes(`会员卡提醒（${day}）`))!;
    expect(text).toContain('提醒甲');
    expect(text).toContain('余额 1次');
    expect(text).toContain('次数不足');
  });

  it('a store with the digest off, or without a robot, gets nothing', async () => {
    await env().other.client.ok(updateAlertDigest.path, { ...ALERT_DIGEST_DEFAULT, enabled: 0 });
    const sent = await runDueDigests(env().app.deps, shanghai('2099-04-01 23:00:00'));
    expect(sent).not.toContain(env().other.storeId);
    // On, but no webhook: the day is claimed, no message is queued.
    await env().other.client.ok(updateAlertDigest.path, { ...ALERT_DIGEST_DEFAULT, enabled: 1 });
    await runDueDigests(env().app.deps, shanghai('2099-04-01 23:00:00'));
    const rows = await env()
      .database.db.selectFrom('outbox')
      .select('id')
      .where('storeId', '=', env().other.storeId)
      .execute();
    expect(rows).toEqual([]);
  });

  /** A second pool on the same PostgreSQL schema: another app instance. */
  async function secondPool() {
    const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(env().database.db);
    return openDatabase({ url: PG_URL!, schema: rows[0].s, poolMax: 5 });
  }
});
