// 转卡 (issue 29, item 5) on SQLite and PostgreSQL: the card moves with its ledger note and fee,
// future bookings kept for the old holder or cancelled with refund, refusals in Chinese, and a
// transfer raced with the old holder's bookings over three app instances on one PostgreSQL.
import {
  addGroupPending,
  addMemberReservation,
  CardMsg,
  Msg,
  PendingStatus,
  cardRefundQuote,
  queryCardTransferPreview,
  TransferMsg,
  transferMemberCard,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../../test/factory-engine.ts';
import { describeEachDb, moreInstances } from '../../../../test/harness.ts';
import { checkInvariants } from '../../../../test/invariants.ts';

describeEachDb('转卡: a card moves to another member', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const api = () => env().client;
  const db = () => env().database.db;
  afterEach(async () => {
    await ef().setMode(0);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  /** A card of 10 classes held by 甲, two future classes, and 乙 to receive it. */
  async function scene() {
    const e = ef();
    const s = await e.scene({ product: { perCount: 1 } });
    const a = await e.memberWithCard(s.product.id, { member: { name: '甲' }, card: { totalCount: 10 } });
    const b = await env().factory.member({ name: '乙' });
    const classes = [];
    for (const h of ['09', '18']) {
      classes.push(
        await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} ${h}:00:00` }),
      );
    }
    return { e, s, a, b, card: a.card, classes };
  }
  const card = (id: number) => db().selectFrom('memberCard').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const liveOf = (mcId: number) =>
    db()
      .selectFrom('reservation')
      .select(['id', 'memberId'])
      .where('memberCardId', '=', mcId)
      .where('status', 'in', [1, 2])
      .execute();

  it('keep: the card and its balance move, the booked class stays with 甲, the fee is money received, ledger and audit name both', async () => {
    const { a, b, card: c, classes } = await scene();
    await api().ok(addMemberReservation.path, { mcId: c.id, tid: classes[0].id, studentCount: 1 });
    const preview = await api().ok(queryCardTransferPreview.path, { mcId: c.id });
    expect(preview).toEqual({
      holder: { id: a.member.id, name: '甲', mobile: a.member.mobile },
      bookings: 1,
      pendings: 0,
    });
    await api().ok(transferMemberCard.path, {
      mcId: c.id,
      toMid: b.id,
      fee: 5000,
      method: 'wechat',
      futureBookings: 'keep',
    });
    const after = await card(c.id);
    expect([after.memberId, Number(after.usedCount), after.transferredAt !== null]).toEqual([b.id, 1, true]);
    expect((await liveOf(c.id)).map((r) => r.memberId)).toEqual([a.member.id]);
    const note = await db()
      .selectFrom('cardLedger')
      .selectAll()
      .where('memberCardId', '=', c.id)
      .where('kind', '=', 'transfer')
      .execute();
    expect(note).toHaveLength(1);
    expect(note[0].remark).toContain('甲');
    expect(note[0].remark).toContain('→ 乙');
    expect(note[0].remark).toContain('收手续费50.00 元');
    const fee = await db()
      .selectFrom('cardPayment')
      .selectAll()
      .where('memberCardId', '=', c.id)
      .where('kind', '=', 'fee')
      .execute();
    expect(fee.map((p) => [Number(p.amount), p.method, p.ledgerId])).toEqual([[5000, 'wechat', note[0].id]]);
    const entry = await db()
      .selectFrom('auditLog')
      .select('id')
      .where('call', '=', transferMemberCard.path)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const targets = await db()
      .selectFrom('auditTarget')
      .select(['type', 'refId'])
      .where('auditId', '=', entry.id)
      .execute();
    expect(targets.map((t) => `${t.type}:${t.refId}`).sort()).toEqual(
      [`card:${c.id}`, `member:${a.member.id}`, `member:${b.id}`].sort(),
    );
    // 甲 can no longer book with it; 乙 can.
    const refused = await api().call(addMemberReservation.path, {
      mcId: c.id,
      tid: classes[1].id,
      mid: a.member.id,
      studentCount: 1,
    });
    expect([refused.status, refused.msg]).toEqual([409, Msg.cardNotOwned]);
    expect(
      (await api().call(addMemberReservation.path, { mcId: c.id, tid: classes[1].id, studentCount: 1 })).code,
    ).toBe(0);
    expect((await liveOf(c.id)).map((r) => r.memberId).sort()).toEqual([a.member.id, b.id].sort());
  });

  it('cancel: the future bookings are cancelled and refunded first', async () => {
    const { b, card: c, classes } = await scene();
    for (const s of classes) await api().ok(addMemberReservation.path, { mcId: c.id, tid: s.id, studentCount: 1 });
    expect(Number((await card(c.id)).usedCount)).toBe(2);
    await api().ok(transferMemberCard.path, { mcId: c.id, toMid: b.id, futureBookings: 'cancel' });
    const after = await card(c.id);
    expect([after.memberId, Number(after.usedCount)]).toEqual([b.id, 0]);
    expect(await liveOf(c.id)).toEqual([]);
    const realCounts = await db()
      .selectFrom('timetable')
      .select('realCount')
      .where(
        'id',
        'in',
        classes.map((s) => s.id),
      )
      .execute();
    expect(realCounts.map((r) => r.realCount)).toEqual([0, 0]);
  });

  it('pendings waiting for sign-in cannot be kept; cancelled they go', async () => {
    const { e, a, b, card: c, classes } = await scene();
    await e.setMode(1);
    await api().ok(addGroupPending.path, { mid: a.member.id, tid: classes[0].id, mcId: c.id });
    const kept = await api().call(transferMemberCard.path, { mcId: c.id, toMid: b.id, futureBookings: 'keep' });
    expect([kept.status, kept.msg]).toEqual([409, TransferMsg.keepPendings(1)]);
    expect((await card(c.id)).memberId).toBe(a.member.id);
    await api().ok(transferMemberCard.path, { mcId: c.id, toMid: b.id, futureBookings: 'cancel' });
    const p = await db().selectFrom('pending').select('status').where('memberCardId', '=', c.id).execute();
    expect(p.map((x) => x.status)).toEqual([PendingStatus.CANCELLED]);
  });

  it('a transferred card is no longer refunded in full within the cooling-off days (domain: no transfer)', async () => {
    const { a, b } = await scene();
    const product = await env().factory.cardProduct({ cardType: 1, validDays: 30, totalCount: 10 });
    const { id: mcId } = await api().ok<{ id: number }>('/store/api/insert/member/card', {
      mid: a.member.id,
      cardId: product.id,
      totalCount: 10,
      payment: { amount: 50000, method: 'cash', remark: null },
    });
    expect(await api().ok(cardRefundQuote.path, { mcId })).toMatchObject({ rule: 'cooling_off', amount: 50000 });
    await api().ok(transferMemberCard.path, { mcId, toMid: b.id, futureBookings: 'keep' });
    const after = await api().ok(cardRefundQuote.path, { mcId });
    expect(after.rule).toBe('product_rule');
    expect(after.detail).toContain('冷静期内，但已转卡');
  });

  it('refuses in Chinese: to the holder, an unknown member, no method for a fee, a refunded or frozen card; nothing written', async () => {
    const { a, b, card: c } = await scene();
    const t = (body: Record<string, unknown>) =>
      api().call(transferMemberCard.path, { mcId: c.id, toMid: b.id, futureBookings: 'keep', ...body });
    expect([(await t({ toMid: a.member.id })).status, (await t({ toMid: a.member.id })).msg]).toEqual([
      400,
      TransferMsg.sameHolder,
    ]);
    expect((await t({ toMid: 999999 })).status).toBe(404);
    const noMethod = await t({ fee: 100 });
    expect([noMethod.status, noMethod.msg]).toEqual([400, TransferMsg.feeMethod]);
    expect((await t({ futureBookings: 'later' })).msg).toBe(TransferMsg.futureBookings);
    await db().updateTable('memberCard').set({ frozen: 1 }).where('id', '=', c.id).execute();
    expect((await t({})).msg).toBe(TransferMsg.frozen);
    await db()
      .updateTable('memberCard')
      .set({ frozen: 0, refundedAt: '2026-01-01 00:00:00' })
      .where('id', '=', c.id)
      .execute();
    expect((await t({})).msg).toBe(CardMsg.refunded);
    await db().updateTable('memberCard').set({ refundedAt: null }).where('id', '=', c.id).execute();
    expect((await card(c.id)).memberId).toBe(a.member.id);
    expect(
      await db()
        .selectFrom('cardLedger')
        .select('id')
        .where('memberCardId', '=', c.id)
        .where('kind', '=', 'transfer')
        .execute(),
    ).toEqual([]);
  });

  describeRace(env);
});

/** A transfer (keeping future bookings) sent amid 20 bookings of the old holder, through three instances. */
function describeRace(env: () => import('../../../../test/harness.ts').TestEnv) {
  const instances = moreInstances(env, 2);
  const clients = () => instances.clients;

  it('raced with bookings over three instances: no booking of the old holder is charged to the card after it moved', async (ctx) => {
    if (env().dialect !== 'postgres') return ctx.skip();
    const db = env().database.db;
    let moved = 0;
    for (let round = 0; round < 4; round++) {
      const e = new EngineFactory(env().factory);
      const s = await e.scene({ product: { perCount: 1 } });
      const { member, card } = await e.memberWithCard(s.product.id, { card: { totalCount: 30 } });
      const to = await env().factory.member();
      const sessions: { id: number }[] = [];
      for (let i = 0; i < 20; i++) {
        const hour = String(8 + (i % 12)).padStart(2, '0');
        const date = `2099-09-${String(10 + Math.floor(i / 12) + round * 2).padStart(2, '0')}`;
        sessions.push(
          await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${date} ${hour}:00:00` }),
        );
      }
      const book = (i: number) =>
        clients()[i % 3].call(addMemberReservation.path, {
          mcId: card.id,
          tid: sessions[i].id,
          mid: member.id,
          studentCount: 1,
        });
      // Half the bookings go first, the transfer in the middle of the rest.
      const first = Array.from({ length: 10 }, (_, i) => book(i));
      const transfer = clients()[round % 3].call(transferMemberCard.path, {
        mcId: card.id,
        toMid: to.id,
        futureBookings: 'keep',
      });
      const rest = Array.from({ length: 10 }, (_, i) => book(10 + i));
      const [t, ...answers] = await Promise.all([transfer, ...first, ...rest]);
      expect(answers.filter((a) => a.code !== 0 && a.status !== 409)).toEqual([]);
      expect([t.code, t.msg]).toEqual([0, '']);
      moved++;
      const note = await db
        .selectFrom('cardLedger')
        .select('id')
        .where('memberCardId', '=', card.id)
        .where('kind', '=', 'transfer')
        .executeTakeFirstOrThrow();
      // Every charge of the old holder's bookings was written before the card moved.
      const late = await db
        .selectFrom('cardLedger as l')
        .innerJoin('reservation as r', 'r.id', 'l.reservationId')
        .select('l.id')
        .where('l.memberCardId', '=', card.id)
        .where('l.kind', '=', 'deduct')
        .where('r.memberId', '=', member.id)
        .where('l.id', '>', note.id)
        .execute();
      expect(late).toEqual([]);
      const refused = answers.filter((a) => a.status === 409).map((a) => a.msg);
      expect(refused.every((m) => m === Msg.cardNotOwned)).toBe(true);
      const after = await db.selectFrom('memberCard').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow();
      expect(after.memberId).toBe(to.id);
      expect(Number(after.usedCount)).toBe(answers.filter((a) => a.code === 0).length);
      expect(await checkInvariants(db, env().storeId)).toEqual([]);
    }
    expect(moved).toBe(4);
  });
}
