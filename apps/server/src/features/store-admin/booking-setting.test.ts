import { PendingStatus } from '@studio/contract';
import { expect, it } from 'vitest';
import type { Factory } from '../../../test/factory.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { insertSession } from '../../../test/session-row.ts';
import { addDays, localDateTime } from '../../lib/time.ts';

const QUERY = '/store/api/query/store/booking/setting';
const UPDATE = '/store/api/update/store/booking/setting';

/** A session `dayOffset` days from today in Shanghai time, with `deleted` as given. */
function session(f: Factory, dayOffset: number, deleted = 0) {
  const day = addDays(localDateTime('Asia/Shanghai').slice(0, 10), dayOffset);
  return insertSession(f.db, f, { startTime: `${day} 10:00:00`, endTime: `${day} 11:00:00`, deleted });
}

async function pending(f: Factory, timetableId: number, status: number = PendingStatus.WAITING) {
  const member = await f.member();
  return f.db
    .insertInto('pending')
    .values({
      storeId: f.storeId,
      timetableId,
      memberId: member.id,
      studentCount: 1,
      status,
      createTime: '2026-01-01 00:00:00',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

const base = { deductionMode: 1, onlineDefault: 0, timezone: 'Asia/Shanghai', storeName: '设置测试门店' };

describeEachDb('store booking settings', (env) => {
  it('answers the defaults of a new store', async () => {
    const { other } = env();
    const s = await other.client.ok(QUERY);
    expect(s).toEqual({
      deductionMode: 0,
      onlineDefault: 0,
      timezone: 'Asia/Shanghai',
      storeName: expect.stringContaining('另一门店'),
      pendingWaiting: 0,
    });
  });

  it('saves mode, online default, canonical time zone and name; the profile shows the new name', async () => {
    const { client, storeId } = env();
    const a = await client.ok(UPDATE, {
      deductionMode: 1,
      onlineDefault: 1,
      timezone: 'asia/tokyo',
      storeName: ' 新名字 ',
    });
    expect(a).toEqual({ pendingKept: 0, notice: null });
    expect(await client.ok(QUERY)).toEqual({
      deductionMode: 1,
      onlineDefault: 1,
      timezone: 'Asia/Tokyo',
      storeName: '新名字',
      pendingWaiting: 0,
    });
    const modules = await env()
      .database.db.selectFrom('storeModule')
      .select(['moduleId', 'status'])
      .where('storeId', '=', storeId)
      .orderBy('moduleId')
      .execute();
    expect(modules).toEqual([
      { moduleId: 1, status: 1 },
      { moduleId: 6, status: 1 },
    ]);
    const me = await client.ok('/api/auth/me');
    expect(me.posts[0].store.name).toBe('新名字');
    await client.ok(UPDATE, base);
  });

  it('refuses bad input in Chinese without writing anything', async () => {
    const { client } = env();
    await client.ok(UPDATE, base);
    const cases: [unknown, string][] = [
      [{ ...base, deductionMode: 2 }, '扣费模式只能是0或1'],
      [{ ...base, deductionMode: '1' }, '扣费模式只能是0或1'],
      [{ ...base, onlineDefault: null }, '在线教室默认设置只能是0或1'],
      [{ ...base, timezone: 'Mars/Olympus' }, '请选择正确的时区'],
      [{ ...base, timezone: '' }, '请选择正确的时区'],
      [{ ...base, timezone: 8 }, '请选择正确的时区'],
      [{ ...base, storeName: '  ' }, '请输入门店名称'],
      [{ ...base, storeName: 'x'.repeat(51) }, '名称不能超过50个字符'],
      [{ ...base, storeName: 'a\u0000b' }, '请求内容包含无效字符'],
      [{ ...base, confirmPending: 2 }, 'confirmPending 只能是0或1'],
      [{ deductionMode: 0 }, '在线教室默认设置只能是0或1'],
    ];
    for (const [body, msg] of cases) {
      const a = await client.call(UPDATE, body);
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
    const s = await client.ok(QUERY);
    expect(s).toMatchObject({ deductionMode: 1, timezone: 'Asia/Shanghai', storeName: '设置测试门店' });
  });

  it('counts only waiting pending items of live, not yet over sessions of this store', async () => {
    const { client, factory, other } = env();
    await client.ok(UPDATE, base);
    const future = await session(factory, 2);
    await pending(factory, future.id);
    await pending(factory, future.id);
    await pending(factory, future.id, PendingStatus.SIGNED_IN);
    await pending(factory, future.id, PendingStatus.CANCELLED);
    await pending(factory, (await session(factory, -2)).id);
    await pending(factory, (await session(factory, 3, 1)).id);
    await pending(other.factory, (await session(other.factory, 2)).id);
    expect((await client.ok(QUERY)).pendingWaiting).toBe(2);
    expect((await other.client.ok(QUERY)).pendingWaiting).toBe(1);
  });

  it('refuses to switch to booking deduction while pending items wait, unless confirmed', async () => {
    const { client, database, storeId } = env();
    await client.ok(UPDATE, base);
    const waiting = (await client.ok(QUERY)).pendingWaiting as number;
    expect(waiting).toBeGreaterThan(0);

    const refused = await client.call(UPDATE, { ...base, deductionMode: 0, storeName: '不应保存' });
    expect(refused.status).toBe(409);
    expect(refused.msg).toBe(`还有${waiting}个待签到预约，请先处理（签到或取消）后再切换为预约即扣费`);
    expect(refused.data).toEqual({ pendingWaiting: waiting });
    expect(await client.ok(QUERY)).toMatchObject({ deductionMode: 1, storeName: '设置测试门店' });

    // Staying in sign-in mode while they wait is fine.
    expect(await client.ok(UPDATE, { ...base, onlineDefault: 1 })).toEqual({ pendingKept: 0, notice: null });

    const before = await database.db
      .selectFrom('pending')
      .selectAll()
      .where('storeId', '=', storeId)
      .orderBy('id')
      .execute();
    const ok = await client.ok(UPDATE, { ...base, deductionMode: 0, confirmPending: 1 });
    expect(ok).toEqual({
      pendingKept: waiting,
      notice: `已切换为预约即扣费。之前的${waiting}个待签到预约保持不变，仍可签到（签到时扣费）或取消（不扣费）`,
    });
    const after = await database.db
      .selectFrom('pending')
      .selectAll()
      .where('storeId', '=', storeId)
      .orderBy('id')
      .execute();
    expect(after).toEqual(before);
    expect(await client.ok(QUERY)).toMatchObject({ deductionMode: 0, pendingWaiting: waiting });

    // Back to sign-in mode and to booking mode again: confirmPending is needed again.
    await client.ok(UPDATE, base);
    expect((await client.call(UPDATE, { ...base, deductionMode: 0 })).status).toBe(409);
  });

  it("counts another store's pending items for that store only", async () => {
    const { other } = env();
    await other.client.ok(UPDATE, { ...base, storeName: '另一门店' });
    const a = await other.client.call(UPDATE, { ...base, storeName: '另一门店', deductionMode: 0 });
    expect(a.status).toBe(409);
    expect(a.msg).toBe('还有1个待签到预约，请先处理（签到或取消）后再切换为预约即扣费');
  });

  it('switches freely when nothing waits', async () => {
    const { app, database } = env();
    const { newStore } = await import('../../../test/harness.ts');
    const fresh = await newStore(app, database, '空闲门店');
    await fresh.client.ok(UPDATE, base);
    expect(await fresh.client.ok(UPDATE, { ...base, deductionMode: 0 })).toEqual({ pendingKept: 0, notice: null });
  });
});
