import { expect, it } from 'vitest';
import { describeEachDb } from '../../../../test/harness.ts';

const API = '/store/api';

describeEachDb('store modules', (env) => {
  it('round-trips the deduction mode and the online default', async () => {
    const { client, storeId } = env();
    expect(await client.ok(`${API}/query/module/status`, { storeId, moduleId: 6 })).toEqual({ status: 0 });
    await client.ok(`${API}/update/module/status`, { storeId, moduleId: 6, status: 1 });
    expect(await client.ok(`${API}/query/module/status`, { storeId, moduleId: 6 })).toEqual({ status: 1 });
    await client.ok(`${API}/update/module/status`, { storeId, moduleId: 6, status: 0 });
    expect(await client.ok(`${API}/query/module/status`, { storeId, moduleId: 6 })).toEqual({ status: 0 });
    await client.ok(`${API}/update/module/status`, { storeId, moduleId: 1, status: 5 });
    expect(await client.ok(`${API}/query/module/status`, { storeId, moduleId: 1 })).toEqual({ status: 5 });
    expect(await client.ok(`${API}/query/module/status`, { moduleId: 42 })).toEqual({ status: 0 });
    await client.ok(`${API}/update/module/status`, { moduleId: 42, status: 3 });
    expect(await client.ok(`${API}/query/module/status`, { storeId, moduleId: 42 })).toEqual({ status: 3 });
  });

  it('validates in Chinese', async () => {
    const { client, storeId } = env();
    const a = await client.call(`${API}/update/module/status`, { storeId, moduleId: 6, status: 2 });
    expect([a.status, a.msg]).toEqual([400, '扣费模式只能是0或1']);
    const b = await client.call(`${API}/query/module/status`, { storeId });
    expect([b.status, b.msg]).toEqual([400, '请选择模块']);
    const c = await client.call(`${API}/update/module/status`, { storeId, moduleId: 6, status: 'x' });
    expect([c.status, c.msg]).toEqual([400, '状态取值不正确']);
  });

  it('refuses another store’s storeId with 403 and changes nothing there', async () => {
    const { client, other } = env();
    const a = await client.call(`${API}/update/module/status`, { storeId: other.storeId, moduleId: 6, status: 1 });
    expect(a.status).toBe(403);
    const b = await client.call(`${API}/query/module/status`, { storeId: other.storeId, moduleId: 6 });
    expect([b.status, b.data]).toEqual([403, null]);
    expect(await other.client.ok(`${API}/query/module/status`, { storeId: other.storeId, moduleId: 6 })).toEqual({
      status: 0,
    });
  });
});
