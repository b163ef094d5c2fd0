// Shared by the payment suites: the store online on both stand-ins with a product sold online, a
// member's order, and the job item failures /metrics shows.
import { memberCreateOrder } from '@studio/contract';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { App, Client, TestEnv } from './harness.ts';
import { checkInvariants } from './invariants.ts';
import { startOnlineStore, type AlipayStandIn, type OnlineStore, type WechatPayStandIn } from './payment-stand-ins.ts';

/**
 * The suite's store online on both stand-ins (started before the suite's tests, stopped after), with a
 * 10次卡 sold online at 99.00 元; after each test the store's invariants hold. `apps`: the instances the
 * stand-ins notify (the suite's own by default).
 */
export function onlineStoreOfFile(env: () => TestEnv, apps: () => App[] = () => [env().app]) {
  const s = {} as { online: OnlineStore; wx: WechatPayStandIn; ali: AlipayStandIn; product: { id: number } };
  beforeAll(async () => {
    s.online = await startOnlineStore(apps, env().client);
    s.wx = s.online.wx;
    s.ali = s.online.ali;
    s.product = await env().factory.cardProduct({
      cardName: '10次卡',
      totalCount: 10,
      onlineSale: 1,
      onlinePrice: 9900,
    });
  }, 60_000);
  afterEach(async () => {
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });
  afterAll(async () => {
    await s.online?.close();
  });
  return s;
}

/** A member's order on the members' channel (memberCreateOrder), which must succeed. */
export async function buyOnline(client: Client, body: Record<string, unknown>) {
  const a = await client.call(memberCreateOrder.path, body);
  expect(a.code, a.msg).toBe(0);
  return a.data as { orderNo: string; amount: number };
}

/** Items of `job` skipped so far in this process because handling them threw, as /metrics shows them. */
export async function jobItemFailuresInMetrics(app: App, job: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  expect(res.statusCode).toBe(200);
  const line = res.body.split('\n').find((l) => l.startsWith(`studio_job_item_failures_total{job="${job}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}
