// 潜客 (issue 44, items 1-2): one lead per store and mobile (merged, also when created at once on
// three instances), the member shown, who sees and changes what, follow-ups and stages, 我的待跟进,
// the pool (take, assign) and its return by the daily job on an injected clock, all in the audit log.
import {
  insertLead,
  insertLeadFollowUp,
  LeadMsg,
  Msg,
  queryLeadInfo,
  queryLeadList,
  queryLeadSetting,
  queryLeadTodoList,
  takeLead,
  updateLead,
  updateLeadOwner,
  updateLeadSetting,
  updateLeadStage,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import { randomMobile } from '../../../test/factory.ts';
import { Client, describeEachDb, moreInstances, staffClient, type TestEnv } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { returnStaleLeads } from './public.ts';

const lead = (o: Record<string, unknown> = {}) => ({ name: '王小姐', mobile: randomMobile(), source: '到店', ...o });

async function staffIdOf(c: Client): Promise<number> {
  return (await c.ok<{ id: number }>('/api/auth/me')).id;
}

describeEachDb('leads: one per mobile, pipeline, pool', (env) => {
  const instances = moreInstances(env, 2);
  let desk: Client;
  let deskId: number;
  let seller: Client;
  let sellerId: number;
  const db = () => env().database.db;
  const row = (id: number) => db().selectFrom('lead').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const entries = (id: number) =>
    db()
      .selectFrom('auditLog as a')
      .innerJoin('auditTarget as t', 't.auditId', 'a.id')
      .select(['a.summary', 'a.kind', 'a.actorName', 'a.call'])
      .where('t.type', '=', 'lead')
      .where('t.refId', '=', id)
      .orderBy('a.id')
      .execute();

  beforeAll(async () => {
    desk = await staffClient(env(), 'desk');
    deskId = await staffIdOf(desk);
    seller = await staffClient(env(), 'teacher', (await env().factory.teacher()).id);
    sellerId = await staffIdOf(seller);
  });

  it('adds a lead; the same mobile again merges into it (empty fields filled, notes appended)', async () => {
    const { client } = env();
    const mobile = randomMobile();
    const a = await client.ok(insertLead.path, lead({ mobile, notes: '想练瑜伽' }));
    expect(a.merged).toBe(false);
    const b = await desk.ok(insertLead.path, {
      name: '王女士',
      mobile,
      source: '电话',
      interests: '普拉提',
      notes: '周末有空',
      preferredTimes: '周六上午',
    });
    expect(b).toEqual({ id: a.id, merged: true });
    expect(await row(a.id)).toMatchObject({
      name: '王小姐',
      source: '到店',
      interests: '普拉提',
      preferredTimes: '周六上午',
      notes: '想练瑜伽\n周末有空',
      ownerId: null,
      stage: 'new',
    });
    expect(await db().selectFrom('lead').select('id').where('mobile', '=', mobile).execute()).toHaveLength(1);
    expect((await entries(a.id)).map((e) => e.summary)).toEqual([
      '新增潜客 王小姐，来源 到店，放入公海',
      '手机号已有潜客 王小姐，合并到该潜客',
    ]);
  });

  it('edits a lead (audited); a mobile another lead holds merges into it, follow-ups moved over', async () => {
    const { client } = env();
    const mine = (o: Record<string, unknown> = {}) => lead({ ownerId: sellerId, ...o });
    const { id } = await seller.ok(insertLead.path, mine({ name: '赵小姐', notes: '下班后联系' }));
    const mobile = randomMobile();
    const ok = await seller.call(updateLead.path, {
      id,
      name: '赵女士',
      mobile,
      source: '电话',
      interests: '普拉提',
      notes: '晚上联系',
    });
    expect([ok.status, ok.data]).toEqual([200, { id, merged: false }]);
    expect(await row(id)).toMatchObject({
      name: '赵女士',
      mobile,
      source: '电话',
      interests: '普拉提',
      notes: '晚上联系',
    });
    const edited = (await entries(id)).at(-1)!;
    expect(edited).toMatchObject({ call: updateLead.path, kind: 'lead' });
    // Not another's lead (the desk), not an unknown source, not a wrong mobile: nothing written.
    const before = await row(id);
    const notYours = await desk.call(updateLead.path, { id, name: 'x', mobile, source: '电话' });
    expect([notYours.status, notYours.msg]).toEqual([403, LeadMsg.notYours]);
    const src = await seller.call(updateLead.path, { id, name: 'x', mobile, source: '没有的来源' });
    expect([src.status, src.msg]).toEqual([400, LeadMsg.unknownSource]);
    const bad = await seller.call(updateLead.path, { id, name: 'x', mobile: '123', source: '电话' });
    expect(bad.status).toBe(400);
    const none = await client.call(updateLead.path, { id: 99_999_999, name: 'x', mobile, source: '电话' });
    expect(none.status).toBe(404);
    expect(await row(id)).toEqual(before);

    // The mobile of another lead: this one merges into it (as adding it again would) and is gone.
    const other = await client.ok(insertLead.path, lead({ name: '赵女士2', notes: '老客户介绍' }));
    const otherMobile = (await row(other.id)).mobile;
    await seller.ok(insertLeadFollowUp.path, { leadId: id, way: 'phone', note: '第一次电话' });
    const merged = await seller.call(updateLead.path, {
      id,
      name: '赵女士',
      mobile: otherMobile,
      source: '电话',
      interests: '普拉提',
      notes: '晚上联系',
    });
    expect([merged.status, merged.data]).toEqual([200, { id: other.id, merged: true }]);
    expect(await db().selectFrom('lead').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await row(other.id)).toMatchObject({
      name: '赵女士2',
      interests: '普拉提',
      notes: '老客户介绍\n晚上联系',
      ownerId: sellerId,
    });
    const info = await client.ok(queryLeadInfo.path, { id: other.id });
    expect(info.followUps.map((f: { note: string }) => f.note)).toEqual(['第一次电话']);
    expect((await entries(other.id)).at(-1)!.summary).toBe(
      `手机号改为 ${otherMobile}，该手机号已有潜客 赵女士2，合并到该潜客`,
    );
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
    // Out of the seller's open new leads (a later test counts them).
    await seller.ok(updateLeadStage.path, { id: other.id, stage: 'lost', lostReason: '测试结束' });
  });

  it('refuses a wrong mobile, an unknown source, and a non-manager naming another owner, writing nothing', async () => {
    const { client } = env();
    const before = await db().selectFrom('lead').select('id').execute();
    const bad = await client.call(insertLead.path, lead({ mobile: '1380000' }));
    expect([bad.status, bad.msg]).toEqual([400, '请输入正确的11位手机号']);
    const src = await client.call(insertLead.path, lead({ source: '小红书' }));
    expect([src.status, src.msg]).toEqual([400, LeadMsg.unknownSource]);
    const other = await desk.call(insertLead.path, lead({ ownerId: sellerId }));
    expect([other.status, other.msg]).toEqual([403, LeadMsg.ownerManager]);
    expect(await db().selectFrom('lead').select('id').execute()).toEqual(before);
    // The manager adds the source; then it is accepted.
    await client.ok(updateLeadSetting.path, { returnDays: 15, sources: ['小红书'] });
    expect(await desk.ok(queryLeadSetting.path)).toMatchObject({ returnDays: 15, sources: ['小红书'] });
    expect((await client.ok(insertLead.path, lead({ source: '小红书' }))).merged).toBe(false);
    const dup = await client.call(updateLeadSetting.path, { returnDays: 15, sources: ['团购'] });
    expect([dup.status, dup.msg]).toEqual([400, LeadMsg.sourceTwice]);
  });

  it('shows a lead whose mobile is already a member as such', async () => {
    const m = await env().factory.member({ name: '老会员' });
    const { id } = await desk.ok(insertLead.path, lead({ mobile: m.mobile }));
    expect((await env().client.ok(queryLeadInfo.path, { id })).memberId).toBe(m.id);
    const fresh = await desk.ok(insertLead.path, lead());
    expect((await env().client.ok(queryLeadInfo.path, { id: fresh.id })).memberId).toBeNull();
  });

  it('the same mobile added at once on three instances (PostgreSQL; one on SQLite) is one lead', async () => {
    for (let round = 0; round < 5; round++) {
      const mobile = randomMobile();
      const answers = await Promise.all(
        instances.clients.flatMap((c, i) =>
          [0, 1, 2].map((k) => c.call(insertLead.path, lead({ mobile, notes: `第${i}-${k}条` }))),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const ids = new Set(answers.map((a) => a.data.id));
      expect(ids.size).toBe(1);
      expect(answers.filter((a) => !a.data.merged)).toHaveLength(1);
      const rows = await db().selectFrom('lead').selectAll().where('mobile', '=', mobile).execute();
      expect(rows).toHaveLength(1);
      // Every request's note is kept, once.
      expect(rows[0].notes!.split('\n').sort()).toEqual(
        instances.clients.flatMap((_, i) => [0, 1, 2].map((k) => `第${i}-${k}条`)).sort(),
      );
    }
  });

  it('a seller takes a pool lead, follows it up (新线索 → 已联系), sets stages; others may not', async () => {
    const { id } = await desk.ok(insertLead.path, lead({ name: '李先生' }));
    const notYet = await seller.call(insertLeadFollowUp.path, { leadId: id, way: 'phone', note: '打过电话' });
    expect([notYet.status, notYet.msg]).toEqual([403, LeadMsg.notYours]);
    await seller.ok(takeLead.path, { id });
    const again = await desk.call(takeLead.path, { id });
    expect([again.status, again.msg]).toEqual([409, LeadMsg.taken]);
    expect((await row(id)).ownerId).toBe(sellerId);
    // The desk no longer sees it (another's lead); the seller does.
    const deskSees = await desk.call(queryLeadInfo.path, { id });
    expect([deskSees.status, deskSees.msg]).toEqual([403, LeadMsg.notYours]);
    const deskList = await desk.ok(queryLeadList.path, { scope: 'all', page: 1 });
    expect(deskList.list.map((l: { id: number }) => l.id)).not.toContain(id);
    const sellerList = await seller.ok(queryLeadList.path, { scope: 'mine', stage: 'new', page: 1 });
    expect(sellerList.list.map((l: { id: number }) => l.id)).toEqual([id]);

    await seller.ok(insertLeadFollowUp.path, { leadId: id, way: 'wechat', note: '加了微信', nextDate: '2031-03-05' });
    expect(await row(id)).toMatchObject({ stage: 'contacted', nextFollowUp: '2031-03-05' });
    await seller.ok(insertLeadFollowUp.path, { leadId: id, way: 'phone', note: '约了周六' });
    expect(await row(id)).toMatchObject({ stage: 'contacted', nextFollowUp: null });
    const info = await seller.ok(queryLeadInfo.path, { id });
    expect(info.followUps.map((f: { note: string; way: string }) => [f.way, f.note])).toEqual([
      ['phone', '约了周六'],
      ['wechat', '加了微信'],
    ]);

    await seller.ok(updateLeadStage.path, { id, stage: 'trial_booked' });
    const noReason = await seller.call(updateLeadStage.path, { id, stage: 'lost' });
    expect([noReason.status, noReason.msg]).toEqual([400, LeadMsg.lostReason]);
    const won = await seller.call(updateLeadStage.path, { id, stage: 'won' });
    expect([won.status, won.msg]).toEqual([400, LeadMsg.stage]);
    await seller.ok(updateLeadStage.path, { id, stage: 'lost', lostReason: '嫌远' });
    expect(await row(id)).toMatchObject({ stage: 'lost', lostReason: '嫌远' });
    const stranger = await desk.call(updateLeadStage.path, { id, stage: 'contacted' });
    expect([stranger.status, stranger.msg]).toEqual([403, LeadMsg.notYours]);

    const log = await entries(id);
    expect(log.map((e) => e.kind)).toEqual(log.map(() => 'lead'));
    expect(log.map((e) => e.call)).toEqual([
      insertLead.path,
      takeLead.path,
      insertLeadFollowUp.path,
      insertLeadFollowUp.path,
      updateLeadStage.path,
      updateLeadStage.path,
    ]);
  });

  it('我的待跟进: overdue and today first, then later, then undated; closed leads left out', async () => {
    const me = await staffClient(env(), 'desk');
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    const make = async (name: string, nextDate: string | null) => {
      const { id } = await me.ok(insertLead.path, lead({ name, ownerId: await staffIdOf(me) }));
      if (nextDate) await me.ok(insertLeadFollowUp.path, { leadId: id, way: 'phone', note: '跟进', nextDate });
      return id;
    };
    const none = await make('未定', null);
    const later = await make('以后', addDays(today, 3));
    const todayId = await make('今天', today);
    const overdue = await make('逾期', addDays(today, -2));
    const lost = await make('流失', addDays(today, -5));
    await me.ok(updateLeadStage.path, { id: lost, stage: 'lost', lostReason: '不需要' });
    const list = await me.ok(queryLeadTodoList.path);
    expect(list.map((l: { id: number; due: string }) => [l.id, l.due])).toEqual([
      [overdue, 'overdue'],
      [todayId, 'today'],
      [later, 'later'],
      [none, 'none'],
    ]);
  });

  it('the manager assigns and reassigns (and puts back in the pool); an unknown lead changes nothing', async () => {
    const { client } = env();
    const a = (await client.ok(insertLead.path, lead())).id;
    const b = (await client.ok(insertLead.path, lead({ source: '电话' }))).id;
    await client.ok(updateLeadOwner.path, { ids: [a, b], ownerId: deskId });
    expect([(await row(a)).ownerId, (await row(b)).ownerId]).toEqual([deskId, deskId]);
    // The manager's filters: by owner (not the pool's with them), by source.
    const ofDesk = await client.ok(queryLeadList.path, { scope: 'all', ownerId: deskId, page: 1 });
    expect(ofDesk.list.every((l: { ownerId: number }) => l.ownerId === deskId)).toBe(true);
    expect(ofDesk.list.map((l: { id: number }) => l.id)).toEqual(expect.arrayContaining([a, b]));
    const byPhone = await client.ok(queryLeadList.path, { scope: 'all', source: '电话', page: 1 });
    expect(byPhone.list.map((l: { id: number }) => l.id)).toContain(b);
    expect(byPhone.list.every((l: { source: string }) => l.source === '电话')).toBe(true);
    const notDesk = await desk.call(updateLeadOwner.path, { ids: [a], ownerId: sellerId });
    expect([notDesk.status, notDesk.msg]).toEqual([403, Msg.forbiddenRole]);
    const missing = await client.call(updateLeadOwner.path, { ids: [a, 99_999_999], ownerId: sellerId });
    expect([missing.status, missing.msg]).toEqual([404, Msg.notFound('潜客')]);
    expect((await row(a)).ownerId).toBe(deskId);
    await client.ok(updateLeadOwner.path, { ids: [b], ownerId: null });
    expect((await row(b)).ownerId).toBeNull();
    const other = await env().other.client.call(updateLeadOwner.path, { ids: [a], ownerId: null });
    expect(other.status).toBe(404);
    expect((await entries(a)).map((e) => e.summary)).toContain('分配 2 位潜客给 desk员工');
  });

  it('a lead untouched for the store days goes back to the pool by the daily job (injected clock)', async () => {
    const e: TestEnv = env();
    await e.client.ok(updateLeadSetting.path, { returnDays: 3, sources: [] });
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    const idle = (await seller.ok(insertLead.path, lead({ ownerId: sellerId }))).id;
    const busy = (await seller.ok(insertLead.path, lead({ ownerId: sellerId }))).id;
    const pool = (await seller.ok(insertLead.path, lead())).id;
    const clockAt = (date: string) => () => `${date} 02:00:00`;
    // Three whole days later: not yet.
    expect(await returnStaleLeads(e.database.db, e.dialect, clockAt(addDays(today, 3)))).not.toContain(idle);
    expect((await row(idle)).ownerId).toBe(sellerId);
    // A follow-up moves the count on (made today: only the touch matters here).
    await db()
      .updateTable('lead')
      .set({ touchedAt: `${addDays(today, 2)} 09:00:00` })
      .where('id', '=', busy)
      .execute();
    const back = await returnStaleLeads(e.database.db, e.dialect, clockAt(addDays(today, 4)));
    expect(back).toContain(idle);
    expect(back).not.toContain(busy);
    expect(back).not.toContain(pool);
    expect((await row(idle)).ownerId).toBeNull();
    expect((await row(busy)).ownerId).toBe(sellerId);
    // Run again (another instance, the next hour): nothing more.
    expect(await returnStaleLeads(e.database.db, e.dialect, clockAt(addDays(today, 4)))).toEqual([]);
    const log = await entries(idle);
    expect(log.at(-1)).toMatchObject({ actorName: '潜客回收', summary: '3天未跟进，回收到公海', kind: 'lead' });
    // 0 days: never.
    await e.client.ok(updateLeadSetting.path, { returnDays: 0, sources: [] });
    expect(await returnStaleLeads(e.database.db, e.dialect, clockAt(addDays(today, 400)))).not.toContain(busy);
    expect(await checkInvariants(db(), e.storeId)).toEqual([]);
  });
});
