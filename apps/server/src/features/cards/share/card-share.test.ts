// 多人共享 (issue 29, item 6) on SQLite and PostgreSQL: a card names up to its product's 共享人数
// other members, who book on it at the desk and on the phone (every charge names who booked); the
// list's refusals in Chinese; taken off the list, or the card transferred, they book no more; caps
// count the card's classes whoever booked; the holder and a member it is shared with racing for the
// card's last class over three app instances on one PostgreSQL: one charge.
import {
  addCardLeave,
  addCardShare,
  addMemberReservation,
  CardMsg,
  CardShareMsg,
  deleteCardShare,
  insertMemberCard,
  memberBook,
  memberCardLedger,
  memberCardsForCourse,
  memberCardsForSession,
  memberMyCards,
  Msg,
  memberInfo,
  transferMemberCard,
  updateCardProduct,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../../test/factory-engine.ts';
import { describeEachDb, moreInstances, type TestEnv } from '../../../../test/harness.ts';
import { checkInvariants } from '../../../../test/invariants.ts';
import { addDays, localDateTime } from '../../../lib/time.ts';
import { memberClient } from '../../../../test/member-client.ts';

describeEachDb('多人共享: members book on a card they share', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const api = () => env().client;
  const db = () => env().database.db;
  afterEach(async () => {
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  /** A 家庭卡 (10 classes, shared with up to 2) held by 妈妈, her 女儿 and 儿子, a neighbour, two future classes. */
  async function scene(o: { shareMax?: number; maxPerDay?: number | null } = {}) {
    const e = ef();
    const s = await e.scene({ product: { perCount: 1, shareMax: o.shareMax ?? 2, maxPerDay: o.maxPerDay ?? null } });
    const mum = await e.memberWithCard(s.product.id, { member: { name: '妈妈' }, card: { totalCount: 10 } });
    const daughter = await env().factory.member({ name: '女儿' });
    const son = await env().factory.member({ name: '儿子' });
    const neighbour = await env().factory.member({ name: '邻居' });
    const classes = [];
    for (const h of ['09', '18']) {
      classes.push(
        await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} ${h}:00:00` }),
      );
    }
    return { e, s, mum: mum.member, card: mum.card, daughter, son, neighbour, classes };
  }
  const cardRow = (id: number) =>
    db().selectFrom('memberCard').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('the desk shares the card; the member it names books on it at the desk and on the phone; every charge names who booked', async () => {
    const { s, mum, card, daughter, classes } = await scene();
    await api().ok(addCardShare.path, { mcId: card.id, mid: daughter.id });
    expect((await cardRow(card.id)).sharedWith).toBe(JSON.stringify([daughter.id]));

    // The holder's page lists who shares the card; the daughter's desk picker offers it, naming the holder.
    const detail = await api().ok(memberInfo.path, { id: mum.id });
    expect(detail.cards[0].sharedWith).toEqual([{ id: daughter.id, name: '女儿', mobile: daughter.mobile }]);
    expect(detail.sharedCards).toEqual([]);
    // The daughter's page names the card she may book on, and whose it is.
    const daughterPage = await api().ok(memberInfo.path, { id: daughter.id });
    expect([daughterPage.cards, daughterPage.sharedCards]).toEqual([
      [],
      [{ id: card.id, cardName: s.product.cardName, holderId: mum.id, holderName: '妈妈' }],
    ]);
    const picker = await api().ok(memberCardsForCourse.path, { mid: daughter.id, courseId: s.course.id });
    expect(
      picker.map((c: { id: number; holder: string | null; usable: boolean }) => [c.id, c.holder, c.usable]),
    ).toEqual([[card.id, '妈妈', true]]);

    // The desk books the daughter with her mother's card.
    await api().ok(addMemberReservation.path, { mcId: card.id, tid: classes[0].id, mid: daughter.id, studentCount: 1 });
    // She books the evening class herself on her phone.
    const phone = await memberClient(env(), daughter);
    const mine = await phone.ok(memberMyCards.path, {});
    expect(mine.map((c: { id: number; sharedBy: string | null }) => [c.id, c.sharedBy])).toEqual([[card.id, '妈妈']]);
    const offered = await phone.ok(memberCardsForSession.path, { tid: classes[1].id });
    expect(offered.map((c: { id: number; usable: boolean }) => [c.id, c.usable])).toEqual([[card.id, true]]);
    await phone.ok(memberBook.path, { tid: classes[1].id, mcId: card.id, studentCount: 1 });

    const after = await cardRow(card.id);
    expect([after.memberId, Number(after.usedCount)]).toEqual([mum.id, 2]);
    const booked = await db()
      .selectFrom('reservation')
      .select(['memberId', 'memberCardId'])
      .where('memberCardId', '=', card.id)
      .orderBy('id')
      .execute();
    expect(booked).toEqual([
      { memberId: daughter.id, memberCardId: card.id },
      { memberId: daughter.id, memberCardId: card.id },
    ]);
    // The card's ledger (流水) names her on each charge; the share itself is a note.
    const ledger = await api().ok(memberCardLedger.path, { id: card.id });
    expect(
      ledger.filter((l: { kind: string }) => l.kind === 'deduct').map((l: { bookedBy: string }) => l.bookedBy),
    ).toEqual(['女儿', '女儿']);
    expect(ledger.find((l: { kind: string }) => l.kind === 'share').remark).toBe(`共享给 女儿（${daughter.mobile}）`);
    // The mother's phone sees who used her card.
    const mumPhone = await memberClient(env(), mum);
    const hers = await mumPhone.ok(memberMyCards.path, {});
    expect(hers[0].sharedBy).toBeNull();
    expect(
      hers[0].recent.filter((r: { kind: string }) => r.kind === '预约扣除').map((r: { note: string }) => r.note),
    ).toEqual([`${s.course.name}（女儿）`, `${s.course.name}（女儿）`]);
    // One audit entry per change, naming the card and both members.
    const entries = await db()
      .selectFrom('auditLog')
      .select(['summary'])
      .where('storeId', '=', env().storeId)
      .where('summary', 'like', '共享给%')
      .execute();
    expect(entries).toHaveLength(1);
  });

  it('a member not on the list cannot book on the card, at the desk or on the phone', async () => {
    const { card, neighbour, classes } = await scene();
    const desk = await api().call(addMemberReservation.path, {
      mcId: card.id,
      tid: classes[0].id,
      mid: neighbour.id,
      studentCount: 1,
    });
    expect([desk.status, desk.msg]).toEqual([409, Msg.cardNotOwned]);
    const phone = await memberClient(env(), neighbour);
    const own = await phone.call(memberBook.path, { tid: classes[0].id, mcId: card.id, studentCount: 1 });
    expect([own.status, own.msg]).toEqual([404, '会员卡不存在']);
    expect(await phone.ok(memberMyCards.path, {})).toEqual([]);
    expect(Number((await cardRow(card.id)).usedCount)).toBe(0);
  });

  it('refusals of the list: not shared, full, the holder, twice, not on it, another store’s member, a refunded card', async () => {
    const { e, mum, card, daughter, son, neighbour } = await scene({ shareMax: 2 });
    const ask = (mid: number, mcId = card.id) => api().call(addCardShare.path, { mcId, mid });
    const said = async (p: Promise<{ status: number; msg: string }>) => {
      const r = await p;
      return [r.status, r.msg];
    };
    expect(await said(ask(mum.id))).toEqual([400, CardShareMsg.holder]);
    await api().ok(addCardShare.path, { mcId: card.id, mid: daughter.id });
    expect(await said(ask(daughter.id))).toEqual([409, CardShareMsg.already]);
    await api().ok(addCardShare.path, { mcId: card.id, mid: son.id });
    expect(await said(ask(neighbour.id))).toEqual([409, CardShareMsg.full(2)]);
    expect(await said(api().call(deleteCardShare.path, { mcId: card.id, mid: neighbour.id }))).toEqual([
      409,
      CardShareMsg.notIn,
    ]);
    // A product that is not shared.
    const plain = await e.scene({ product: { perCount: 1 } });
    const single = await e.memberWithCard(plain.product.id);
    expect(await said(ask(daughter.id, single.card.id))).toEqual([409, CardShareMsg.notShared]);
    // Another store's member, an unknown card.
    const other = await env().other.factory.member();
    expect(await said(ask(other.id))).toEqual([404, '会员不存在']);
    expect(await said(ask(daughter.id, 99_999_999))).toEqual([404, '会员卡不存在']);
    // Bad input.
    const bad = await api().call(addCardShare.path, { mcId: card.id });
    expect([bad.status, bad.msg]).toEqual([400, CardShareMsg.member]);
    // A refunded card takes no one.
    await db()
      .updateTable('memberCard')
      .set({ refundedAt: '2026-01-01 00:00:00' })
      .where('id', '=', single.card.id)
      .execute();
    expect(await said(ask(daughter.id, single.card.id))).toEqual([409, CardMsg.refunded]);
    // Lowering the product's 共享人数 keeps those listed, and takes nobody new.
    await api().ok(updateCardProduct.path, {
      id: card.cardId,
      cardName: '家庭卡',
      bigType: 1,
      cardType: 1,
      perCount: 1,
      price: 100000,
      courseIds: [],
      shareMax: 1,
    });
    await api().ok(deleteCardShare.path, { mcId: card.id, mid: son.id });
    expect(await said(ask(son.id))).toEqual([409, CardShareMsg.full(1)]);
    expect((await cardRow(card.id)).sharedWith).toBe(JSON.stringify([daughter.id]));
  });

  it('taken off the list: her booking made stays, a new one is refused; a transfer clears the list', async () => {
    const { mum, card, daughter, neighbour, classes } = await scene();
    await api().ok(addCardShare.path, { mcId: card.id, mid: daughter.id });
    await api().ok(addMemberReservation.path, { mcId: card.id, tid: classes[0].id, mid: daughter.id, studentCount: 1 });
    await api().ok(deleteCardShare.path, { mcId: card.id, mid: daughter.id });
    const again = await api().call(addMemberReservation.path, {
      mcId: card.id,
      tid: classes[1].id,
      mid: daughter.id,
      studentCount: 1,
    });
    expect([again.status, again.msg]).toEqual([409, Msg.cardNotOwned]);
    const kept = await db().selectFrom('reservation').select('status').where('memberCardId', '=', card.id).execute();
    expect(kept).toEqual([{ status: 1 }]);

    await api().ok(addCardShare.path, { mcId: card.id, mid: daughter.id });
    await api().ok(transferMemberCard.path, { mcId: card.id, toMid: neighbour.id, futureBookings: 'keep' });
    const moved = await cardRow(card.id);
    expect([moved.memberId, moved.sharedWith]).toEqual([neighbour.id, '[]']);
    const note = await db()
      .selectFrom('cardLedger')
      .select('remark')
      .where('memberCardId', '=', card.id)
      .where('kind', '=', 'transfer')
      .executeTakeFirstOrThrow();
    expect(note.remark).toContain('共享成员已清除');
    const after = await api().call(addMemberReservation.path, {
      mcId: card.id,
      tid: classes[1].id,
      mid: daughter.id,
      studentCount: 1,
    });
    expect([after.status, after.msg]).toEqual([409, Msg.cardNotOwned]);
    // Nor does the old holder book on it.
    const old = await api().call(addMemberReservation.path, {
      mcId: card.id,
      tid: classes[1].id,
      mid: mum.id,
      studentCount: 1,
    });
    expect([old.status, old.msg]).toEqual([409, Msg.cardNotOwned]);
  });

  it('a card on leave books nothing for the members it is shared with either (domain: a card in leave books nothing)', async () => {
    const e = ef();
    const t = localDateTime('Asia/Shanghai').slice(0, 10);
    const s = await e.scene({ product: { perCount: 1, cardType: 1, validDays: 30, leaveAllowed: 1, shareMax: 1 } });
    const mum = await env().factory.member({ name: '妈妈' });
    const daughter = await env().factory.member({ name: '女儿' });
    const { id: mcId } = await api().ok(insertMemberCard.path, {
      mid: mum.id,
      cardId: s.product.id,
      totalCount: 10,
      payment: { amount: 100000, method: 'cash', remark: null },
    });
    await api().ok(addCardShare.path, { mcId, mid: daughter.id });
    const inLeave = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${addDays(t, 3)} 10:00:00`,
    });
    await api().ok(addCardLeave.path, { mcId, fromDate: addDays(t, 2), toDate: addDays(t, 4), reason: '全家出游' });
    const desk = await api().call(addMemberReservation.path, {
      mcId,
      tid: inLeave.id,
      mid: daughter.id,
      studentCount: 1,
    });
    const leaveWords = `${Number(addDays(t, 2).slice(5, 7))}月${Number(addDays(t, 2).slice(8, 10))}日`;
    expect(desk.status).toBe(409);
    expect(desk.msg).toContain(leaveWords);
    const phone = await memberClient(env(), daughter);
    const own = await phone.call(memberBook.path, { tid: inLeave.id, mcId, studentCount: 1 });
    expect([own.status, own.msg]).toEqual([409, desk.msg]);
    expect(Number((await cardRow(mcId)).usedCount)).toBe(0);
  });

  it('a cap counts the card’s classes whoever booked them', async () => {
    const { card, mum, daughter, classes } = await scene({ maxPerDay: 1 });
    await api().ok(addCardShare.path, { mcId: card.id, mid: daughter.id });
    await api().ok(addMemberReservation.path, { mcId: card.id, tid: classes[0].id, mid: mum.id, studentCount: 1 });
    const second = await api().call(addMemberReservation.path, {
      mcId: card.id,
      tid: classes[1].id,
      mid: daughter.id,
      studentCount: 1,
    });
    expect(second.status).toBe(409);
    expect(second.msg).toContain('每天最多');
  });

  describeRace(env);
});

/** The holder and two members it is shared with race for the card's last class, through three instances. */
function describeRace(env: () => TestEnv) {
  const instances = moreInstances(env, 2);

  it('three members of a family race for the card’s last class over three instances: one charge, never below zero', async (ctx) => {
    if (env().dialect !== 'postgres') return ctx.skip();
    const db = env().database.db;
    for (let round = 0; round < 4; round++) {
      const e = new EngineFactory(env().factory);
      const s = await e.scene({ product: { perCount: 1, shareMax: 2 } });
      const { member: mum, card } = await e.memberWithCard(s.product.id, { card: { totalCount: 1 } });
      const kids = [await env().factory.member(), await env().factory.member()];
      for (const k of kids) await env().client.ok(addCardShare.path, { mcId: card.id, mid: k.id });
      const sessions: { id: number }[] = [];
      for (let i = 0; i < 3; i++) {
        sessions.push(
          await e.session({
            courseId: s.course.id,
            teacherId: s.teacher.id,
            startTime: `2099-10-${String(10 + round).padStart(2, '0')} ${String(9 + i * 2).padStart(2, '0')}:00:00`,
          }),
        );
      }
      const who = [mum, ...kids];
      const answers = await Promise.all(
        who.map((m, i) =>
          instances.clients[i].call(addMemberReservation.path, {
            mcId: card.id,
            tid: sessions[i].id,
            mid: m.id,
            studentCount: 1,
          }),
        ),
      );
      expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
      expect(answers.filter((a) => a.code !== 0).map((a) => [a.status, a.msg])).toEqual([
        [409, Msg.cardBalance],
        [409, Msg.cardBalance],
      ]);
      const after = await db.selectFrom('memberCard').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow();
      expect(Number(after.usedCount)).toBe(1);
      expect(await checkInvariants(db, env().storeId)).toEqual([]);
    }
  });
}
