// 营销短信 (issue 44, item 7): consent recorded with time and how (members on their page, leads by
// staff and on the sign-up page), the audience counting only those who agree (one text a mobile),
// every text ending with the unsubscribe link and 回T退订 added by the server, sent through the
// outbox to the provider stand-in; a reply T (the provider's uplink push) and the link's click
// withdraw, and the withdrawn are left out of the next send. Only the manager sends.
import {
  insertLead,
  MARKETING_STOP,
  MarketingMsg,
  memberTrialSignup,
  memberUnsubscribe,
  memberUnsubscribeInfo,
  memberUpdateConsent,
  queryLeadInfo,
  queryMarketingPreview,
  queryMarketingSendList,
  queryMarketingSetting,
  sendMarketing,
  updateLeadConsent,
  updateLeadStage,
  updateMarketingSetting,
  updateSmsSetting,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addressMaker } from '../../../test/public-door.ts';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb, moreInstances, staffClient, tally, type Client } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { fastWorker, waitFor } from '../../../test/outbox.ts';
import { SECRET, startSmsStandIn } from '../../../test/sms-stand-in.ts';

const freshAddress = addressMaker(198, 51, 101);

describeEachDb('营销短信: consent, audience, send, reply T and the unsubscribe link', (env) => {
  let standIn: Awaited<ReturnType<typeof startSmsStandIn>>;
  const db = () => env().database.db;
  /** On PostgreSQL one more app instance on the suite's database. */
  const instances = moreInstances(env, 1);
  const mgr = () => env().client;
  /** The people of the store: who agreed how. */
  const p = {} as Record<string, { mobile: string; id: number }>;
  let desk: Client;
  let teacher: Client;

  const addLead = async (name: string, mobile = randomMobile()) => {
    const { id } = await mgr().ok<{ id: number }>(insertLead.path, { name, mobile, source: '电话', ownerId: null });
    return { id, mobile };
  };
  const consentRows = (table: 'memberConsent' | 'leadConsent') =>
    db().selectFrom(table).selectAll().where('storeId', '=', env().storeId).orderBy('id').execute();

  beforeAll(async () => {
    standIn = await startSmsStandIn(env().app);
    await mgr().ok(updateSmsSetting.path, { ...standIn.setting('tencent', SECRET.tencent), dailyCap: 500 });
    desk = await staffClient(env(), 'desk');
    const t = await env().factory.teacher();
    teacher = await staffClient(env(), 'teacher', t.id);

    // Members: 甲 agrees on their page; 乙 was never asked; 丙 agreed, then switched it off.
    for (const [key, choices] of [
      ['甲', [true]],
      ['乙', []],
      ['丙', [true, false]],
    ] as const) {
      const m = await env().factory.member({ mobile: randomMobile() });
      p[key] = { id: m.id, mobile: m.mobile };
      const c = await memberClient(env(), m);
      for (const granted of choices) await c.ok(memberUpdateConsent.path, { kind: 'marketing', granted });
    }
    // Leads: 丁 agreed at the desk (到店), 戊 never, 己 by phone then 已联系, 庚 on the sign-up page,
    // and 甲's own mobile as a lead who agreed too (one person: one text).
    p.丁 = await addLead('丁');
    p.戊 = await addLead('戊');
    p.己 = await addLead('己');
    p.甲lead = await addLead('甲的潜客', p.甲.mobile);
    await mgr().ok(updateLeadConsent.path, { id: p.丁.id, granted: true, way: 'visit' });
    await mgr().ok(updateLeadConsent.path, { id: p.己.id, granted: true, way: 'phone' });
    await mgr().ok(updateLeadConsent.path, { id: p.甲lead.id, granted: true, way: 'phone' });
    await mgr().ok(updateLeadStage.path, { id: p.己.id, stage: 'contacted' });
    const mobile = randomMobile();
    await env()
      .anon()
      .from(freshAddress())
      .ok(memberTrialSignup.path, { storeId: env().storeId, name: '庚', mobile, interests: '瑜伽', marketing: true });
    const g = await db()
      .selectFrom('lead')
      .select('id')
      .where('storeId', '=', env().storeId)
      .where('mobile', '=', mobile)
      .executeTakeFirstOrThrow();
    p.庚 = { id: g.id, mobile };
  });
  afterAll(() => standIn.close());

  it('a lead’s consent is recorded with time, how and who, and shown with the lead', async () => {
    const info = await mgr().ok(queryLeadInfo.path, { id: p.丁.id });
    expect(info.consents).toHaveLength(1);
    expect(info.consents[0]).toMatchObject({ granted: true, way: 'visit', staffName: expect.any(String) });
    expect(info.consents[0].at).toMatch(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/);
    const g = await mgr().ok(queryLeadInfo.path, { id: p.庚.id });
    expect(g.consents).toEqual([expect.objectContaining({ granted: true, way: 'online', staffName: null })]);
    // A sign-up without the box ticked records nothing (not asked is not agreed).
    const other = randomMobile();
    await env()
      .anon()
      .from(freshAddress())
      .ok(memberTrialSignup.path, { storeId: env().storeId, name: '辛', mobile: other, interests: '普拉提' });
    const rows = await consentRows('leadConsent');
    expect(rows.filter((r) => r.granted === 1 || Number(r.granted) === 1).length).toBe(4);
    expect(rows.some((r) => r.way === 'online' && r.leadId !== p.庚.id)).toBe(false);
  });

  it('staff other than the owner may not record a consent on someone else’s lead; bad input is refused', async () => {
    const a = await desk.call(updateLeadConsent.path, { id: p.丁.id, granted: true, way: 'visit' });
    expect(a.status).toBe(403);
    const bad = await mgr().call(updateLeadConsent.path, { id: p.丁.id, granted: true, way: 'online' });
    expect(bad.status).toBe(400);
  });

  it('the preview counts only those who agree, one per mobile, and names the excluded', async () => {
    const members = await mgr().ok(queryMarketingPreview.path, { members: true, leads: false, text: '周末活动' });
    // 甲 agrees; 乙 never asked, 丙 withdrew.
    expect(members).toMatchObject({ recipients: 1, members: 1, leads: 0, excluded: 2 });
    expect(members.sample.endsWith(MARKETING_STOP)).toBe(true);
    const leads = await mgr().ok(queryMarketingPreview.path, { members: false, leads: true });
    // 丁, 己, 庚 and 甲 (as a lead) agree; 戊 and 辛 not.
    expect(leads).toMatchObject({ recipients: 4, members: 0, leads: 4, excluded: 2 });
    const both = await mgr().ok(queryMarketingPreview.path, { members: true, leads: true });
    expect(both).toMatchObject({ recipients: 4, members: 1, leads: 3, excluded: 4 });
    const contacted = await mgr().ok(queryMarketingPreview.path, {
      members: false,
      leads: true,
      leadStages: ['contacted'],
    });
    expect(contacted).toMatchObject({ recipients: 1, excluded: 0 });
  });

  it('only the manager previews and sends; bad input is refused before anything is queued', async () => {
    for (const c of [desk, teacher]) {
      expect((await c.call(queryMarketingPreview.path, { members: true })).status).toBe(403);
      expect((await c.call(sendMarketing.path, { members: true, text: '活动' })).status).toBe(403);
      expect((await c.call(queryMarketingSetting.path, {})).status).toBe(403);
    }
    const noTemplate = await mgr().call(sendMarketing.path, { members: true, text: '活动' });
    expect(noTemplate).toMatchObject({ status: 400, msg: MarketingMsg.template });
    await mgr().ok(updateMarketingSetting.path, { templateId: '7654321' });
    expect(await mgr().call(sendMarketing.path, { members: false, leads: false, text: '活动' })).toMatchObject({
      status: 400,
      msg: MarketingMsg.audience,
    });
    expect(await mgr().call(sendMarketing.path, { members: true, text: '   ' })).toMatchObject({
      status: 400,
      msg: MarketingMsg.text,
    });
    expect((await mgr().call(sendMarketing.path, { members: true, text: '字'.repeat(301) })).status).toBe(400);
    expect((await mgr().call(sendMarketing.path, { members: 'yes', text: '活动' })).status).toBe(400);
    const queued = await db().selectFrom('outbox').select('id').where('topic', '=', 'sms.marketing').execute();
    expect(queued).toHaveLength(0);
  });

  let sent: { mobile: string; text: string }[] = [];

  it('a send queues one text a person, ending with the link and 回T退订, sent by the provider', async () => {
    const counts = await mgr().ok(sendMarketing.path, { members: true, leads: true, text: '周末瑜伽体验课八折' });
    expect(counts).toMatchObject({ recipients: 4, members: 1, leads: 3, excluded: 4 });
    const before = standIn.received.length;
    const stop = fastWorker(env().app.deps, { allow: new URL(standIn.base).host });
    try {
      await waitFor(async () => standIn.received.length >= before + 4, 'the marketing texts');
      await waitFor(
        async () =>
          (await db().selectFrom('outbox').select('sentAt').where('topic', '=', 'sms.marketing').execute()).every(
            (r) => r.sentAt !== null,
          ),
        'the outbox rows marked sent',
      );
    } finally {
      await stop();
    }
    sent = standIn.received.slice(before).map((r) => ({
      mobile: r.mobile.replace(/^\+86/, ''),
      text: (r.params as string[])[0],
    }));
    expect(standIn.received.slice(before).every((r) => r.signatureOk && r.templateId === '7654321')).toBe(true);
    expect(sent.map((s) => s.mobile).sort()).toEqual([p.甲, p.丁, p.己, p.庚].map((x) => x.mobile).sort());
    for (const s of sent) {
      expect(s.text.startsWith('周末瑜伽体验课八折')).toBe(true);
      expect(s.text.endsWith(MARKETING_STOP)).toBe(true);
      expect(s.text).toMatch(/\/m\/\?u=[\w-]{22} /);
    }
    const entry = await db()
      .selectFrom('auditLog')
      .select(['summary'])
      .where('call', '=', sendMarketing.path)
      .where('storeId', '=', env().storeId)
      .executeTakeFirstOrThrow();
    expect(entry.summary).toContain('发送营销短信 4 人');
  });

  const uplinkUrl = async () => (await mgr().ok(queryMarketingSetting.path, {})).uplinkUrl as string;
  const post = (url: string, body: unknown) =>
    env().app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('a reply T withdraws every member and lead of that mobile (短信回复T); other replies and forged addresses do nothing', async () => {
    const url = await uplinkUrl();
    expect(url).toMatch(/\/sms\/uplink\/tencent\/\d+\/[\w-]{22}$/);
    const reply = (mobile: string, text: string, sign = '悦动健身') => ({
      extend: '',
      mobile,
      nationcode: '86',
      sign,
      text,
      time: Math.floor(Date.now() / 1000),
    });
    // A forged key, another store's number, another provider: refused, nothing recorded.
    const forged = await post(url.replace(/[\w-]{22}$/, 'A'.repeat(22)), reply(p.甲.mobile, 'T'));
    expect(forged.statusCode).toBe(404);
    const aliyun = await post(url.replace('/tencent/', '/aliyun/'), [
      { phone_number: p.甲.mobile, content: 'T', sign_name: '悦动健身' },
    ]);
    expect(aliyun.statusCode).toBe(404);
    const garbage = await post(url, 'not json');
    expect(garbage.statusCode).toBe(400);
    // Not a stop word, or another signature: ignored.
    expect((await post(url, reply(p.甲.mobile, '好的谢谢'))).json()).toEqual({ result: 0, errmsg: 'OK' });
    expect((await post(url, reply(p.甲.mobile, 'T', '别家签名'))).json()).toEqual({ result: 0, errmsg: 'OK' });
    expect((await mgr().ok(queryMarketingPreview.path, { members: true })).recipients).toBe(1);

    const ok = await post(url, reply(p.甲.mobile, ' t '));
    expect(ok.json()).toEqual({ result: 0, errmsg: 'OK' });
    const m = (await consentRows('memberConsent')).filter((r) => r.memberId === p.甲.id).at(-1);
    expect(m).toMatchObject({ kind: 'marketing', way: 'sms_reply' });
    expect(Number(m?.granted)).toBe(0);
    const lead = await mgr().ok(queryLeadInfo.path, { id: p.甲lead.id });
    expect(lead.consents[0]).toMatchObject({ granted: false, way: 'sms_reply', staffName: null });
    // 退订 as a reply withdraws too; a second reply records nothing more.
    await post(url, reply(p.己.mobile, '退订'));
    await post(url, reply(p.己.mobile, 'TD'));
    const ji = await mgr().ok(queryLeadInfo.path, { id: p.己.id });
    expect(ji.consents.map((c: { way: string; granted: boolean }) => [c.way, c.granted])).toEqual([
      ['sms_reply', false],
      ['phone', true],
    ]);
  });

  it('the unsubscribe link names the store and withdraws with one click (点击退订链接)', async () => {
    const text = sent.find((s) => s.mobile === p.丁.mobile)!.text;
    const token = /\/m\/\?u=([\w-]{22})/.exec(text)![1];
    const anon = env().anon();
    expect(await anon.ok(memberUnsubscribeInfo.path, { token })).toMatchObject({ unsubscribed: false });
    expect(await anon.ok(memberUnsubscribe.path, { token })).toBeNull();
    expect(await anon.ok(memberUnsubscribeInfo.path, { token })).toMatchObject({ unsubscribed: true });
    const d = await mgr().ok(queryLeadInfo.path, { id: p.丁.id });
    expect(d.consents[0]).toMatchObject({ granted: false, way: 'link' });
    // A forged or malformed token names nobody.
    const forged = await anon.call(memberUnsubscribe.path, {
      token: token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    });
    expect(forged.status).toBe(404);
    expect((await anon.call(memberUnsubscribe.path, { token: '' })).status).toBe(400);
  });

  it('those who withdrew (reply, link, their switch) are left out of the next send', async () => {
    const both = await mgr().ok(queryMarketingPreview.path, { members: true, leads: true });
    // Only 庚 still agrees.
    expect(both).toMatchObject({ recipients: 1, members: 0, leads: 1, excluded: 7 });
    const counts = await mgr().ok(sendMarketing.path, { members: true, leads: true, text: '新课上线' });
    expect(counts.recipients).toBe(1);
    const rows = await db()
      .selectFrom('outbox')
      .select('payload')
      .where('topic', '=', 'sms.marketing')
      .where('sentAt', 'is', null)
      .execute();
    expect(rows.map((r) => (JSON.parse(r.payload) as { mobile: string }).mobile)).toEqual([p.庚.mobile]);
  });

  const sendsOf = (text: string) =>
    db()
      .selectFrom('marketingSend')
      .selectAll()
      .where('storeId', '=', env().storeId)
      .where('text', '=', text)
      .execute();
  const unsentTo = async (mobile: string) =>
    (
      await db()
        .selectFrom('outbox')
        .select('payload')
        .where('topic', '=', 'sms.marketing')
        .where('sentAt', 'is', null)
        .where('deadAt', 'is', null)
        .execute()
    ).filter((r) => (JSON.parse(r.payload) as { mobile: string }).mobile === mobile).length;

  it('the same text to the same audience twice at once (two tabs, two instances): one send, the other told why', async () => {
    const before = await unsentTo(p.庚.mobile);
    const input = { members: true, leads: true, leadStages: [], text: '周三晚课加开' };
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) => instances.clients[i % instances.clients.length].call(sendMarketing.path, input)),
    );
    expect(tally(answers)).toEqual({ ok: 1, [`409 ${MarketingMsg.repeated}`]: 3 });
    expect(await sendsOf('周三晚课加开')).toHaveLength(1);
    expect(await unsentTo(p.庚.mobile)).toBe(before + 1);
    // The stages in another order are the same audience; another text is another send.
    expect(await mgr().call(sendMarketing.path, { ...input, leadStages: ['contacted', 'new'] })).toMatchObject({
      status: 200,
    });
    expect(await mgr().call(sendMarketing.path, { ...input, leadStages: ['new', 'contacted'] })).toMatchObject({
      status: 409,
      msg: MarketingMsg.repeated,
    });
    // Past the window the same text may go again (the send of then keeps its row).
    await db()
      .updateTable('marketingSend')
      .set({ createdAt: '2026-01-01 09:00:00' })
      .where('storeId', '=', env().storeId)
      .where('text', '=', '周三晚课加开')
      .where('leadStages', '=', '[]')
      .execute();
    await mgr().ok(sendMarketing.path, input);
    expect(await sendsOf('周三晚课加开')).toHaveLength(3);
    expect(await unsentTo(p.庚.mobile)).toBe(before + 3);
  });

  it('发送记录 (manager only): each send with who, when, text, audience and the outbox’s sent, failed and withdrawn', async () => {
    expect((await desk.call(queryMarketingSendList.path, { page: 1 })).status).toBe(403);
    // 庚 withdraws by the link of a text still waiting: those texts are given up as withdrawn.
    const waiting = await db()
      .selectFrom('outbox')
      .select('payload')
      .where('topic', '=', 'sms.marketing')
      .where('sentAt', 'is', null)
      .executeTakeFirstOrThrow();
    const token = /\/m\/\?u=([\w-]{22})/.exec((JSON.parse(waiting.payload) as { text: string }).text)![1];
    await env().anon().ok(memberUnsubscribe.path, { token });
    const stop = fastWorker(env().app.deps, { allow: new URL(standIn.base).host });
    try {
      await waitFor(
        async () =>
          (
            await db()
              .selectFrom('outbox')
              .select('id')
              .where('topic', '=', 'sms.marketing')
              .where('sentAt', 'is', null)
              .where('deadAt', 'is', null)
              .execute()
          ).length === 0,
        'every marketing text done',
      );
    } finally {
      await stop();
    }
    const { list, total } = await mgr().ok(queryMarketingSendList.path, { page: 1 });
    expect(total).toBe(5);
    const me = (await mgr().ok<{ name: string }>('/api/auth/me')).name;
    expect(list.map((r: { text: string }) => r.text)).toEqual([
      '周三晚课加开',
      '周三晚课加开',
      '周三晚课加开',
      '新课上线',
      '周末瑜伽体验课八折',
    ]);
    expect(list[4]).toMatchObject({
      staffName: me,
      toMembers: true,
      toLeads: true,
      leadStages: [],
      recipients: 4,
      members: 1,
      leads: 3,
      excluded: 4,
      sent: 4,
      failed: 0,
      withdrawn: 0,
      waiting: 0,
    });
    expect(list[4].createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(list[3]).toMatchObject({ recipients: 1, sent: 0, failed: 0, withdrawn: 1, waiting: 0 });
    expect(list[1]).toMatchObject({ leadStages: ['contacted', 'new'], withdrawn: 1 });
  });

  it('Aliyun’s uplink push (上行短信, a batch): a T withdraws, +86 numbers are read, another signature and other texts are ignored', async () => {
    await mgr().ok(updateSmsSetting.path, { ...standIn.setting('aliyun', SECRET.aliyun), dailyCap: 500 });
    try {
      const url = await uplinkUrl();
      expect(url).toMatch(/\/sms\/uplink\/aliyun\/\d+\/[\w-]{22}$/);
      // The store now texts through Aliyun: Tencent's address is refused.
      expect((await post(url.replace('/aliyun/', '/tencent/'), { mobile: p.丁.mobile, text: 'T' })).statusCode).toBe(
        404,
      );
      const [辛, 壬] = [await addLead('辛'), await addLead('壬')];
      for (const l of [辛, 壬]) await mgr().ok(updateLeadConsent.path, { id: l.id, granted: true, way: 'phone' });
      const sign = standIn.setting('aliyun').signName;
      const item = (mobile: string, content: string, sign_name = sign) => ({
        phone_number: mobile,
        content,
        sign_name,
        dest_code: '1234',
        send_time: '2026-12-08 10:00:00',
        sequence_id: Math.floor(Math.random() * 1e9),
      });
      const res = await post(url, [
        item(`+86${辛.mobile}`, 'T'),
        item(壬.mobile, '收到'),
        item(壬.mobile, 'T', '别家签名'),
      ]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ code: 0, msg: '接收成功' });
      const latest = async (id: number) =>
        ((await mgr().ok(queryLeadInfo.path, { id })).consents as { way: string; granted: boolean }[])[0];
      expect(await latest(辛.id)).toMatchObject({ way: 'sms_reply', granted: false });
      expect(await latest(壬.id)).toMatchObject({ way: 'phone', granted: true });
      // Not the documented shape: refused, nothing recorded.
      expect((await post(url, [{ mobile: 壬.mobile, text: 'T' }])).statusCode).toBe(400);
      expect(await latest(壬.id)).toMatchObject({ way: 'phone', granted: true });
    } finally {
      await mgr().ok(updateSmsSetting.path, { ...standIn.setting('tencent', SECRET.tencent), dailyCap: 500 });
    }
  });
});
