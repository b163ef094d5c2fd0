// The close job (closeExpiredOrders) store by store and order by order (issue 42, item 1), against the
// payment stand-ins on SQLite and PostgreSQL: a second store whose stored WeChat Pay setting no longer
// builds its adapter cannot close its expired WeChat orders; the job does not throw, counts each such
// order in /metrics, closes that store's Alipay order and every expired order of the working store,
// and once the setting is repaired the next round closes the rest.
import { updatePaySetting } from '@studio/contract';
import { expect, it } from 'vitest';
import { localDateTime } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { standInPaySetting } from '../../../test/payment-stand-ins.ts';
import { CLOSE_JOB, closeExpiredOrders } from './orders.ts';
import { buyOnline, jobItemFailuresInMetrics, onlineStoreOfFile } from '../../../test/payment-support.ts';

describeEachDb('online payment: the close job store by store, order by order', (env) => {
  const s = onlineStoreOfFile(env);
  const db = () => env().database.db;
  const status = async (orderNo: string) =>
    (await db().selectFrom('payOrder').select('status').where('orderNo', '=', orderNo).executeTakeFirstOrThrow())
      .status;
  /** The job's store clock, `minutes` from now (an order expires after 15). */
  const at = (minutes: number) => (tz: string) => localDateTime(tz, Date.now() + minutes * 60_000);

  it("one store's orders that cannot be closed are counted and skipped; the other store's, and its own others, close", async () => {
    const e = env();
    // The working store: a WeChat and an Alipay order, never paid.
    const me = await memberClient(e, await e.factory.member());
    const working = [
      await buyOnline(me, { productId: s.product.id, method: 'wechat_native' }),
      await buyOnline(me, { productId: s.product.id, method: 'alipay_precreate' }),
    ].map((o) => o.orderNo);
    // The second store, online on the same stand-ins: two WeChat orders and an Alipay one.
    const other = e.other;
    await other.client.ok(updatePaySetting.path, standInPaySetting(s.wx, s.ali));
    const product = await other.factory.cardProduct({
      cardName: '次卡',
      totalCount: 8,
      onlineSale: 1,
      onlinePrice: 8800,
    });
    const them = await memberClient({ ...other, app: e.app }, await other.factory.member());
    const stuck = [
      await buyOnline(them, { productId: product.id, method: 'wechat_native' }),
      await buyOnline(them, { productId: product.id, method: 'wechat_native' }),
    ].map((o) => o.orderNo);
    const closable = (await buyOnline(them, { productId: product.id, method: 'alipay_precreate' })).orderNo;
    // Its stored WeChat setting no longer builds an adapter (a certificate field that is no text).
    const row = await db()
      .selectFrom('paySetting')
      .select('wechat')
      .where('storeId', '=', other.storeId)
      .executeTakeFirstOrThrow();
    const setWechat = (wechat: string | null) =>
      db().updateTable('paySetting').set({ wechat }).where('storeId', '=', other.storeId).execute();
    await setWechat(JSON.stringify({ ...JSON.parse(row.wechat ?? '{}'), platformCertificates: null }));

    const before = await jobItemFailuresInMetrics(e.app, CLOSE_JOB);
    await expect(closeExpiredOrders(e.app.deps, at(16))).resolves.toBeGreaterThanOrEqual(3);
    for (const no of [...working, closable]) expect(await status(no), no).toBe(2);
    for (const no of stuck) expect(await status(no), no).toBe(0);
    expect(await jobItemFailuresInMetrics(e.app, CLOSE_JOB)).toBe(before + stuck.length);

    // Repaired, the next round closes them; nothing more is counted.
    await setWechat(row.wechat);
    await closeExpiredOrders(e.app.deps, at(17));
    for (const no of stuck) expect(await status(no), no).toBe(2);
    expect(await jobItemFailuresInMetrics(e.app, CLOSE_JOB)).toBe(before + stuck.length);
    expect(await checkInvariants(db(), other.storeId)).toEqual([]);
  });
});
