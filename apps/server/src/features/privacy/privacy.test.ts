// Members' own data (issue 45, item 5): the download holds every table's rows about the member and
// nothing of another member's; consents are recorded with time, version and how, and withdrawn; a
// request to delete the account is decided by the manager: refused while the member holds prepaid
// value or sessions to come, then every trace of their name and mobile is gone from every table
// while the ledger still balances.
import {
  addCardShare,
  CONSENT_KINDS,
  HEALTH_DEFAULT_QUESTIONS,
  insertLead,
  insertLeadFollowUp,
  insertMemberCard,
  memberAskErasure,
  memberBook,
  memberCancelBooking,
  memberMe,
  memberMyData,
  memberMyPrivacy,
  memberSubmitHealth,
  memberUpdateConsent,
  memberWithdrawErasure,
  PRIVACY_NOTICE_VERSION,
  PrivacyMsg,
  queryErasureRequestList,
  refundMemberCard,
  updateErasureRequest,
  type DataSection,
} from '@studio/contract';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb, newStore, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { NOT_EXPORTED, SECTIONS } from './data-repository.ts';

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describeEachDb('members’ own data (个人信息)', (env) => {
  const desk = () => env().client;
  const db = () => env().database.db;
  let ef: EngineFactory;
  let world: {
    product: { id: number; cardName: string };
    course: { id: number };
    teacher: { id: number };
    session: { id: number };
  };
  /** A member with a card bought at the desk (paid), a gift card shared with `sharedWith`, a lead and a booking cancelled. */
  async function richMember(name: string, sharedWith?: number) {
    const mobile = randomMobile();
    const member = await ef.f.member({ name, mobile, remark: `${name}的备注：手机${mobile}` });
    const gift = await ef.f.memberCard(member.id, world.product.id, { totalCount: 10 });
    const bought = await desk().ok<{ id: number }>(insertMemberCard.path, {
      mid: member.id,
      cardId: world.product.id,
      totalCount: 5,
      payment: { amount: 50_000, method: 'cash', remark: `${name}付现金` },
    });
    if (sharedWith) await desk().ok(addCardShare.path, { mcId: gift.id, mid: sharedWith });
    const lead = await desk().ok<{ id: number }>(insertLead.path, {
      name,
      mobile,
      source: '到店',
      notes: `${name}想练瑜伽`,
    });
    await desk().ok(insertLeadFollowUp.path, { leadId: lead.id, way: 'phone', note: `给${name}打了电话` });
    const client = await memberClient(env(), member);
    const booked = await client.ok<{ id: number }>(memberBook.path, { tid: world.session.id, mcId: gift.id });
    await client.ok(memberCancelBooking.path, { id: booked.id });
    return { member, mobile, name, gift, bought, client };
  }

  beforeAll(async () => {
    ef = new EngineFactory(env().factory);
    const scene = await ef.scene({ product: { shareMax: 2, price: 50_000 } });
    const session = await ef.session({
      courseId: scene.course.id,
      teacherId: scene.teacher.id,
      startTime: `${FUTURE} 09:00:00`,
    });
    world = { ...scene, session };
  });

  it('downloads every table’s rows about the member and nothing of another member’s', async () => {
    const b = await richMember('隐私乙某');
    const a = await richMember('隐私甲某', b.member.id);
    // B shares nothing with A; B books and keeps a class.
    await b.client.ok(memberBook.path, { tid: world.session.id, mcId: b.gift.id });
    await a.client.ok(memberUpdateConsent.path, { kind: 'privacy', granted: true });
    const data = await a.client.ok<{ sections: DataSection[] }>(memberMyData.path, {});
    const byTable = new Map(data.sections.map((s) => [s.key, s]));
    const aCards = [a.gift.id, a.bought.id];
    const bCards = [b.gift.id, b.bought.id];

    // Every table naming a member or a card is in the download or set aside with a reason.
    const tables = await db().introspection.getTables();
    const linked = tables.filter((t) => t.columns.some((c) => ['member_id', 'member_card_id'].includes(c.name)));
    expect(linked.length).toBeGreaterThan(10);
    const covered = new Set([...SECTIONS.map((s) => snake(s.table)), ...Object.keys(NOT_EXPORTED).map(snake)]);
    expect(linked.map((t) => t.name).filter((n) => !covered.has(n))).toEqual([]);

    // Each such table's rows of A's (by member or card) are all there; none of B's own.
    for (const t of linked) {
      const key = SECTIONS.find((s) => snake(s.table) === t.name)?.table;
      if (!key) continue;
      const has = (c: string) => t.columns.some((x) => x.name === c);
      const of = (memberId: number, cards: number[]) =>
        sql<Record<string, unknown>>`select * from ${sql.table(t.name)} where store_id = ${env().storeId} and (${
          has('member_id') ? sql`member_id = ${memberId}` : sql`false`
        } or ${has('member_card_id') ? sql`member_card_id in (${sql.join(cards)})` : sql`false`})`
          .execute(db())
          .then((r) => r.rows);
      const section = byTable.get(key)!;
      const idAt = section.columns.findIndex((c) => ['id'].includes(c.key));
      const exported = new Set(section.rows.map((r) => (idAt >= 0 ? Number(r[idAt]) : JSON.stringify(r))));
      const mine = await of(a.member.id, aCards);
      if (idAt >= 0) {
        for (const row of mine) expect(exported, `${t.name} ${String(row.id)}`).toContain(Number(row.id));
        const bOnly = (await of(b.member.id, bCards)).filter((r) => !mine.some((m) => m.id === r.id));
        for (const row of bOnly) expect(exported, `${t.name} ${String(row.id)} is B's`).not.toContain(Number(row.id));
      } else {
        expect(section.rows.length, t.name).toBe(mine.length);
      }
    }
    // The rows are there for real: cards, payments, bookings, the lead and its follow-up, the consent.
    const count = (k: string) => byTable.get(k)!.rows.length;
    expect([
      count('memberCard'),
      count('cardPayment'),
      count('reservation'),
      count('lead'),
      count('leadFollowUp'),
    ]).toEqual([2, 1, 1, 1, 1]);
    expect(count('memberConsent')).toBe(1);
    expect(count('cardShare')).toBe(1);
    // B's mobile appears nowhere in A's download (masked where A's own records quote it: the share);
    // B's name only in the record of A's card shared with B.
    const text = JSON.stringify(data);
    expect(text).toContain(a.mobile);
    expect(text).not.toContain(b.mobile);
    expect(text).toContain(`${b.mobile.slice(0, 3)}****${b.mobile.slice(7)}`);
    const naming = data.sections.flatMap((s) => s.rows.filter((r) => JSON.stringify(r).includes(b.name)));
    expect(naming.length).toBeGreaterThan(0);
    for (const r of naming) expect(JSON.stringify(r)).toContain('共享给');
    // The same parts as a workbook, a sheet each, for the member only.
    const res = await env().app.inject({
      method: 'GET',
      url: '/member/files/my-data.xlsx',
      headers: { cookie: a.client.cookie! },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(SECTIONS.map((s) => s.title));
    expect(wb.getWorksheet('我的资料')!.getRow(2).values).toContain(a.mobile);
    expect((await env().app.inject({ method: 'GET', url: '/member/files/my-data.xlsx' })).statusCode).toBe(401);
  });

  it('records each consent with its time, version and how, newest first; the notice is asked until agreed', async () => {
    const m = await ef.f.member({ mobile: randomMobile() });
    const c = await memberClient(env(), m);
    const first = await c.ok<{ needsNotice: boolean; current: unknown[] }>(memberMyPrivacy.path, {});
    expect(first).toMatchObject({ needsNotice: true, current: [], noticeVersion: PRIVACY_NOTICE_VERSION });
    await c.ok(memberUpdateConsent.path, { kind: 'privacy', granted: true });
    await c.ok(memberUpdateConsent.path, { kind: 'marketing', granted: true });
    await c.ok(memberUpdateConsent.path, { kind: 'marketing', granted: false });
    const now = await c.ok<{ needsNotice: boolean; current: any[]; history: any[] }>(memberMyPrivacy.path, {});
    expect(now.needsNotice).toBe(false);
    expect(now.current.map((x) => [x.kind, x.granted, x.way])).toEqual([
      ['privacy', true, 'phone'],
      ['marketing', false, 'phone'],
    ]);
    expect(now.current[0].version).toBe(PRIVACY_NOTICE_VERSION);
    expect(now.history.map((x) => [x.kind, x.granted])).toEqual([
      ['marketing', false],
      ['marketing', true],
      ['privacy', true],
    ]);
    expect(now.history[0].at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(CONSENT_KINDS).toContain('health');
    expect(await c.call(memberUpdateConsent.path, { kind: 'ads', granted: true })).toMatchObject({ status: 400 });
    expect(await c.call(memberUpdateConsent.path, { kind: 'marketing' })).toMatchObject({ status: 400 });
  });

  it('erases the member at the manager’s approval: refused while they hold paid value or a class to come; afterwards no name or mobile of theirs in any table, the ledger balances', async () => {
    const b = await richMember('删除乙某');
    const a = await richMember('删除甲某', b.member.id);
    // A's health declaration (its note names A): deleted with the account.
    await a.client.ok(memberUpdateConsent.path, { kind: 'health', granted: true });
    await a.client.ok(memberSubmitHealth.path, {
      version: 1,
      answers: HEALTH_DEFAULT_QUESTIONS.map((_, i) => i === 3),
      note: `${a.name}去年膝盖做过手术`,
      shareDetails: true,
    });
    const asked = await a.client.ok<{ id: number; dueDate: string }>(memberAskErasure.path, { reason: '搬家了' });
    expect(await a.client.call(memberAskErasure.path, {})).toMatchObject({ status: 409, msg: PrivacyMsg.pending });
    const list = await desk().ok<any[]>(queryErasureRequestList.path, { status: 'pending' });
    expect(list.find((r) => r.id === asked.id)).toMatchObject({
      memberName: a.name,
      mobile: a.mobile,
      reason: '搬家了',
    });
    // Another store's manager cannot see or decide it.
    const other = await newStore(env().app, env().database, '别家门店');
    expect(await other.client.call(updateErasureRequest.path, { id: asked.id, approve: true })).toMatchObject({
      status: 404,
    });
    // Rejecting needs a note; approving is refused while A holds paid value, then a class to come.
    expect(await desk().call(updateErasureRequest.path, { id: asked.id, approve: false })).toMatchObject({
      status: 400,
      msg: PrivacyMsg.rejectNote,
    });
    const held = await desk().call(updateErasureRequest.path, { id: asked.id, approve: true });
    expect(held).toMatchObject({ status: 409, msg: PrivacyMsg.holdsCards(world.product.cardName) });
    await desk().ok(refundMemberCard.path, {
      id: a.bought.id,
      amount: 50_000,
      method: 'cash',
      remark: '删除账号前退卡',
    });
    const booked = await a.client.ok<{ id: number }>(memberBook.path, { tid: world.session.id, mcId: a.gift.id });
    expect(await desk().call(updateErasureRequest.path, { id: asked.id, approve: true })).toMatchObject({
      status: 409,
      msg: PrivacyMsg.holdsBookings(1),
    });
    await a.client.ok(memberCancelBooking.path, { id: booked.id });
    expect(await desk().ok(updateErasureRequest.path, { id: asked.id, approve: true })).toBeNull();
    expect(await desk().call(updateErasureRequest.path, { id: asked.id, approve: true })).toMatchObject({
      status: 409,
      msg: PrivacyMsg.decided,
    });

    // Every row of every table: nothing of A's name or mobile; B's still there (the scan sees names).
    const tables = await db().introspection.getTables();
    const found: string[] = [];
    let bSeen = 0;
    for (const t of tables) {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(t.name)}`.execute(db());
      for (const r of rows) {
        const text = JSON.stringify(r);
        if (text.includes(a.mobile) || text.includes(a.name)) found.push(`${t.name}: ${text.slice(0, 200)}`);
        if (text.includes(b.mobile)) bSeen += 1;
      }
    }
    expect(found, found.join('\n')).toEqual([]);
    expect(
      await db().selectFrom('healthDeclaration').select('id').where('memberId', '=', a.member.id).execute(),
    ).toEqual([]);
    expect(bSeen).toBeGreaterThan(3);
    // The records stay: A's cards and ledger, now nobody's; the invariants (ledger sums) hold.
    const cards = await db().selectFrom('memberCard').select('id').where('memberId', '=', a.member.id).execute();
    expect(cards.length).toBe(2);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
    // A is signed out; the request is done with the manager named.
    expect((await a.client.call(memberMe.path, {})).status).toBe(401);
    const done = (await desk().ok<any[]>(queryErasureRequestList.path, {})).find((r) => r.id === asked.id);
    expect(done).toMatchObject({ status: 'done', memberName: PrivacyMsg.erasedName, mobile: null });
    expect(done.decidedByName).toBeTruthy();
  });

  describe('a request withdrawn or rejected', () => {
    it('is withdrawn by the member, asked again, rejected by the manager with a note', async () => {
      const m = await ef.f.member({ mobile: randomMobile() });
      const c: Client = await memberClient(env(), m);
      expect(await c.call(memberWithdrawErasure.path, {})).toMatchObject({ status: 409, msg: PrivacyMsg.noPending });
      await c.ok(memberAskErasure.path, {});
      expect((await c.ok<any>(memberMyPrivacy.path, {})).erasure).toMatchObject({ id: expect.any(Number) });
      await c.ok(memberWithdrawErasure.path, {});
      expect((await c.ok<any>(memberMyPrivacy.path, {})).erasure).toBeNull();
      const again = await c.ok<{ id: number }>(memberAskErasure.path, {});
      await desk().ok(updateErasureRequest.path, {
        id: again.id,
        approve: false,
        note: '会员卡还在冷静期内，请先到店办理',
      });
      const row = (await desk().ok<any[]>(queryErasureRequestList.path, { status: 'rejected' })).find(
        (r) => r.id === again.id,
      );
      expect(row).toMatchObject({ status: 'rejected', note: '会员卡还在冷静期内，请先到店办理', memberName: m.name });
      expect((await c.call(memberMe.path, {})).status).toBe(200);
    });
  });
});
