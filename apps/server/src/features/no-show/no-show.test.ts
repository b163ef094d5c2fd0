import {
  addGroupPending,
  BIG_TYPE_MONEY,
  liftMemberSuspension,
  memberPolicyStatus,
  Msg,
  NoShowMsg,
  OperateType,
  PendingStatus,
  signInPendingCall,
  updateBookingPolicy,
  waiveNoShow,
} from '@studio/contract';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import type { CallCtx } from '../../lib/context.ts';
import { liftSuspension, memberStatus, runNoShows } from './service.ts';

/** The clock of the job: after the day of FUTURE's classes (10:00-11:00). */
const after =
  (time = '12:00:00') =>
  () =>
    `${FUTURE} ${time}`;

describeEachDb('no-shows (爽约): charged once after the class, waived by staff, suspension after repeats', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const api = () => env().client;
  const run = (clock = after()) => runNoShows(env().database.db, env().dialect, clock);
  beforeEach(async () => {
    await ef().setMode(1);
    await api().ok(updateBookingPolicy.path, { noShow: 'forfeit', noShowLimit: 0, noShowSuspendDays: 0 });
  });
  afterEach(async () => {
    // Leave nothing for the next test's job run.
    await run(after('23:59:59'));
    await api().ok(updateBookingPolicy.path, { noShow: 'none', noShowLimit: 0, noShowSuspendDays: 0 });
    await ef().setMode(0);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  /** A member with a 2-per-class card holding a pending of a 10:00-11:00 class on FUTURE. */
  async function pendingOf(startTime = `${FUTURE} 10:00:00`) {
    const e = ef();
    const s = await e.scene({ product: { perCount: 2, cardType: 2 } });
    const { member, card } = await e.memberWithCard(s.product.id, { card: { totalCount: 20 } });
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime });
    await api().ok(addGroupPending.path, { mid: member.id, tid: session.id, studentCount: 1 });
    const p = await e.db
      .selectFrom('pending')
      .selectAll()
      .where('timetableId', '=', session.id)
      .executeTakeFirstOrThrow();
    return { e, s, member, card, session, pending: p };
  }
  const pendingRow = (id: number) =>
    env().database.db.selectFrom('pending').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('does nothing before the class ends, then charges the pending once to a usable card', async () => {
    const { e, card, pending } = await pendingOf();
    expect(await run(after('10:59:59'))).toBe(0);
    expect((await pendingRow(pending.id)).status).toBe(PendingStatus.WAITING);
    expect(await run()).toBeGreaterThanOrEqual(1);
    const p = await pendingRow(pending.id);
    expect([p.status, Number(p.noShowFee), p.noShowCardId]).toEqual([PendingStatus.NO_SHOW, 2, card.id]);
    expect((await e.cardRow(card.id)).usedCount).toBe(2);
    const ledger = await e.db.selectFrom('cardLedger').selectAll().where('memberCardId', '=', card.id).execute();
    // Booked without a card: the member's first usable card paid, and the entry says so.
    const { cardName } = await e.db
      .selectFrom('cardProduct')
      .select('cardName')
      .where('id', '=', card.cardId)
      .executeTakeFirstOrThrow();
    expect(ledger.map((l) => [l.kind, Number(l.amount), l.remark])).toEqual([
      ['no_show', 2, NoShowMsg.chargedFirstCard(cardName)],
    ]);
    const history = await e.db
      .selectFrom('history')
      .selectAll()
      .where('pendingId', '=', pending.id)
      .orderBy('id')
      .execute();
    expect(history.map((h) => h.operateType)).toEqual([OperateType.ADMIN_BOOKED, OperateType.NO_SHOW]);
    // A second run (another instance, a restart) charges nobody again; a late sign-in is refused.
    await run();
    expect((await e.cardRow(card.id)).usedCount).toBe(2);
    const late = await api().call(signInPendingCall.path, { pendingId: pending.id, mcId: card.id, remark: '' });
    expect(late.status).toBe(409);
  });

  it('charges the card the pending names, never another; only a pending without one falls back, saying so', async () => {
    const e = ef();
    const teacher = await e.f.teacher();
    const times = await e.f.cardProduct({ cardName: '20次卡', perCount: 1 });
    const money = await e.f.cardProduct({ cardName: '储值卡', bigType: BIG_TYPE_MONEY, perCount: 50_00 });
    const course = await e.f.course({ cardIds: [times.id, money.id] });
    const member = await e.f.member();
    // The money card is the member's oldest: the first usable one.
    const stored = await e.f.memberCard(member.id, money.id, { totalCount: 500_00 });
    const twenty = await e.f.memberCard(member.id, times.id, { totalCount: 20 });
    const spare = await e.f.memberCard(member.id, times.id, { totalCount: 20 });
    const pendingOn = async (hour: string, mcId?: number) => {
      const session = await e.session({ courseId: course.id, teacherId: teacher.id, startTime: `${FUTURE} ${hour}` });
      await api().ok(addGroupPending.path, { mid: member.id, tid: session.id, studentCount: 1, ...(mcId && { mcId }) });
      return e.db.selectFrom('pending').selectAll().where('timetableId', '=', session.id).executeTakeFirstOrThrow();
    };
    const withTwenty = await pendingOn('07:00:00', twenty.id);
    const withoutCard = await pendingOn('08:00:00');
    const withSpare = await pendingOn('09:00:00', spare.id);
    // The named card can no longer pay by the end: the no-show is recorded without a charge, saying why.
    await e.db.updateTable('memberCard').set({ frozen: 1 }).where('id', '=', spare.id).execute();
    await run();
    expect((await e.cardRow(twenty.id)).usedCount).toBe(1);
    expect((await e.cardRow(stored.id)).usedCount).toBe(50_00);
    expect((await e.cardRow(spare.id)).usedCount).toBe(0);
    // History says which card paid, and why none did.
    const trail = async (pendingId: number) => {
      const h = await e.db
        .selectFrom('history')
        .select(['memberCardId', 'usedCount', 'remark'])
        .where('pendingId', '=', pendingId)
        .where('operateType', '=', OperateType.NO_SHOW)
        .executeTakeFirstOrThrow();
      return [h.memberCardId, Number(h.usedCount), h.remark];
    };
    expect(await trail(withTwenty.id)).toEqual([twenty.id, 1, '爽约扣费']);
    expect(await trail(withoutCard.id)).toEqual([stored.id, 50_00, NoShowMsg.chargedFirstCard('储值卡')]);
    expect(await trail(withSpare.id)).toEqual([null, 0, `爽约（未扣费：${Msg.cardFrozen}）`]);
    const charged = async (id: number) => {
      const p = await pendingRow(id);
      return [p.status, Number(p.noShowFee), p.noShowCardId];
    };
    expect(await charged(withTwenty.id)).toEqual([PendingStatus.NO_SHOW, 1, twenty.id]);
    expect(await charged(withoutCard.id)).toEqual([PendingStatus.NO_SHOW, 50_00, stored.id]);
    expect(await charged(withSpare.id)).toEqual([PendingStatus.NO_SHOW, 0, null]);
    // The desk sees each no-show with the card it was charged to.
    const status = await api().ok(memberPolicyStatus.path, { mid: member.id });
    expect(
      status.noShows.map((n: { pendingId: number; cardName: string | null; fee: number }) => [
        n.pendingId,
        n.cardName,
        n.fee,
      ]),
    ).toEqual([
      [withSpare.id, null, 0],
      [withoutCard.id, '储值卡', 50_00],
      [withTwenty.id, '20次卡', 1],
    ]);
  });

  it('charges each no-show once when two instances run the job at once', async () => {
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await pendingOf());
    const [a, b] = await Promise.all([run(), run()]);
    expect(a + b).toBeGreaterThanOrEqual(6);
    for (const m of made) {
      expect((await m.e.cardRow(m.card.id)).usedCount).toBe(2);
      const rows = await m.e.db.selectFrom('cardLedger').select('id').where('memberCardId', '=', m.card.id).execute();
      expect(rows).toHaveLength(1);
    }
  });

  it('records a no-show without a charge when no card can pay, and charges nothing under the default policy', async () => {
    const { e, card, pending } = await pendingOf();
    await e.db.updateTable('memberCard').set({ frozen: 1 }).where('id', '=', card.id).execute();
    await run();
    const p = await pendingRow(pending.id);
    expect([p.status, Number(p.noShowFee), p.noShowCardId]).toEqual([PendingStatus.NO_SHOW, 0, null]);
    expect((await e.cardRow(card.id)).usedCount).toBe(0);

    await api().ok(updateBookingPolicy.path, { noShow: 'none' });
    const other = await pendingOf();
    await run();
    expect((await pendingRow(other.pending.id)).status).toBe(PendingStatus.WAITING);
  });

  it('leaves a store alone while it deducts at booking, whatever its policy says', async () => {
    const { e, card, pending } = await pendingOf();
    await e.setMode(0);
    try {
      expect(await run()).toBe(0);
      expect((await pendingRow(pending.id)).status).toBe(PendingStatus.WAITING);
    } finally {
      await e.setMode(1);
    }
    expect(await run()).toBeGreaterThanOrEqual(1);
    expect((await pendingRow(pending.id)).status).toBe(PendingStatus.NO_SHOW);
    expect((await e.cardRow(card.id)).usedCount).toBe(2);
  });

  it('lets staff waive a charge once with a reason, refunded on the ledger', async () => {
    const { e, card, member, pending } = await pendingOf();
    await run();
    const noReason = await api().call(waiveNoShow.path, { pendingId: pending.id, reason: ' ' });
    expect([noReason.status, noReason.msg]).toEqual([400, NoShowMsg.reason]);
    await api().ok(waiveNoShow.path, { pendingId: pending.id, reason: '会员生病，提前电话告知' });
    expect((await e.cardRow(card.id)).usedCount).toBe(0);
    const again = await api().call(waiveNoShow.path, { pendingId: pending.id, reason: '再次' });
    expect([again.status, again.msg]).toEqual([409, NoShowMsg.alreadyWaived]);
    const ledger = await e.db
      .selectFrom('cardLedger')
      .select(['kind', 'amount'])
      .where('memberCardId', '=', card.id)
      .orderBy('id')
      .execute();
    expect(ledger.map((l) => [l.kind, Number(l.amount)])).toEqual([
      ['no_show', 2],
      ['waive', -2],
    ]);
    const status = await api().ok(memberPolicyStatus.path, { mid: member.id });
    expect(status.noShows).toEqual([
      expect.objectContaining({ pendingId: pending.id, fee: 2, waiveReason: '会员生病，提前电话告知' }),
    ]);
    const waiting = await pendingOf();
    const notYet = await api().call(waiveNoShow.path, { pendingId: waiting.pending.id, reason: 'x' });
    expect([notYet.status, notYet.msg]).toEqual([409, NoShowMsg.notNoShow]);
    expect((await env().other.client.call(waiveNoShow.path, { pendingId: pending.id, reason: 'x' })).status).toBe(404);
  });

  it('suspends online booking after the limit of no-shows in 30 days, until staff lift it', async () => {
    await api().ok(updateBookingPolicy.path, { noShow: 'none', noShowLimit: 2, noShowSuspendDays: 7 });
    const first = await pendingOf(`${FUTURE} 10:00:00`);
    const { member } = first;
    // A second class of the same member, the same day.
    const session2 = await first.e.session({
      courseId: first.s.course.id,
      teacherId: first.s.teacher.id,
      startTime: `${FUTURE} 08:00:00`,
    });
    await api().ok(addGroupPending.path, { mid: member.id, tid: session2.id, studentCount: 1 });
    await run();
    // The status and the lift on the job's clock (a week after the classes would be too late to see it).
    const ctx = {
      db: env().database.db,
      dialect: env().dialect,
      store: { id: env().storeId, name: '', timezone: 'Asia/Shanghai' },
    } as unknown as CallCtx;
    const s = await memberStatus(ctx, member.id, after('13:00:00'));
    expect(s.noShows).toHaveLength(2);
    expect(s.noShows.every((n) => n.fee === 0)).toBe(true);
    expect(s.suspendedUntil).toBe('2099-06-08 10:00:00');
    // Seen through the call too (on today's clock those no-shows are in the future: not counted yet).
    const viaApi = await api().ok(memberPolicyStatus.path, { mid: member.id });
    expect(viaApi.noShows).toHaveLength(2);
    await liftSuspension(ctx, member.id, after('13:00:00'));
    const lifted = await memberStatus(ctx, member.id, after('14:00:00'));
    expect(lifted.suspendedUntil).toBeNull();
    expect(lifted.liftedAt).toBe(`${FUTURE} 13:00:00`);
    await expect(liftSuspension(ctx, member.id, after('14:00:00'))).rejects.toMatchObject({
      message: NoShowMsg.notSuspended,
    });
    const notSuspended = await api().call(liftMemberSuspension.path, { mid: member.id });
    expect([notSuspended.status, notSuspended.msg]).toEqual([409, NoShowMsg.notSuspended]);
    // Another store's member is no member here, for the view and the lift alike.
    for (const path of [memberPolicyStatus.path, liftMemberSuspension.path]) {
      const r = await env().other.client.call(path, { mid: member.id });
      expect([r.status, r.msg], path).toEqual([404, Msg.notFound('会员')]);
    }
  });
});
