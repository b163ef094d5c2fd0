// Paid trials (issue 44, item 3): a 体验卡 bought online or at the desk by a member whose mobile is a
// store lead does not convert the lead; the member's booking with it is the lead's trial (已约体验, no
// second seat), its attendance marks it 到店 (已体验 with the class's teacher), its cancel cancels it,
// a no-show heads the owner's 我的待跟进; the member's first real card converts the lead.
import {
  addMemberReservation,
  cancelLeadTrial,
  cancelReservationCall,
  insertLead,
  insertMemberCard,
  LeadMsg,
  markAttendanceCall,
  queryLeadInfo,
  queryLeadTodoList,
  queryLeadTrialList,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb, staffClient, type Client } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';
import { buyOnline, onlineStoreOfFile } from '../../../test/payment-support.ts';
import { localDateTime } from '../../lib/time.ts';

describeEachDb('leads: paid trials (体验卡)', (env) => {
  const s = onlineStoreOfFile(env);
  const db = () => env().database.db;
  const ef = () => new EngineFactory(env().factory);
  let seller: Client;
  let sellerId: number;
  let trialProduct: { id: number };
  let realProduct: { id: number };
  let course: { id: number };
  let teacher: { id: number };
  const leadRow = (id: number) => db().selectFrom('lead').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const trialsOf = (leadId: number) =>
    db().selectFrom('leadTrial').selectAll().where('leadId', '=', leadId).orderBy('id').execute();
  const reservationOf = (memberId: number, sessionId: number) =>
    db()
      .selectFrom('reservation')
      .select('id')
      .where('memberId', '=', memberId)
      .where('timetableId', '=', sessionId)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    seller = await staffClient(env(), 'desk');
    sellerId = (await seller.ok<{ id: number }>('/api/auth/me')).id;
    trialProduct = await env().factory.cardProduct({
      cardName: '体验卡',
      totalCount: 1,
      trial: 1,
      onlineSale: 1,
      onlinePrice: 990,
    });
    realProduct = await env().factory.cardProduct({ cardName: '20次卡', totalCount: 20 });
    teacher = await env().factory.teacher();
    course = await env().factory.course({ cardIds: [trialProduct.id, realProduct.id] });
  });

  /** A member with a lead of their mobile, owned by the seller, 已联系. */
  async function memberWithLead() {
    const m = await env().factory.member({ name: '体验卡潜客' });
    const { id } = await seller.ok(insertLead.path, {
      name: m.name,
      mobile: m.mobile,
      source: '团购',
      ownerId: sellerId,
    });
    await seller.ok('/store/api/insert/lead/follow/up', {
      leadId: id,
      way: 'phone',
      note: '推荐了体验卡',
      nextDate: null,
    });
    return { m, leadId: id as number };
  }
  const cardOf = (memberId: number, productId: number) =>
    db()
      .selectFrom('memberCard')
      .select('id')
      .where('memberId', '=', memberId)
      .where('cardId', '=', productId)
      .executeTakeFirstOrThrow();

  it('bought online: no conversion; booked with it, attended, then a real card at the desk converts', async () => {
    const { m, leadId } = await memberWithLead();
    const me = await memberClient(env(), m);
    const { orderNo } = await buyOnline(me, { productId: trialProduct.id, method: 'wechat_native' });
    await s.wx.pay(orderNo);
    const trialCard = await cardOf(m.id, trialProduct.id);
    expect(await leadRow(leadId)).toMatchObject({ stage: 'contacted', convertedCardId: null, trialBookedAt: null });

    const session = await ef().session({ courseId: course.id, teacherId: teacher.id });
    await seller.ok(addMemberReservation.path, { mcId: trialCard.id, tid: session.id });
    expect(await leadRow(leadId)).toMatchObject({ stage: 'trial_booked', trialBookedAt: expect.any(String) });
    // One seat: the member's booking's; the trial rides on it.
    expect((await ef().sessionRow(session.id)).realCount).toBe(1);
    expect(await trialsOf(leadId)).toMatchObject([{ status: 1, memberId: m.id, timetableId: session.id }]);
    expect(await env().client.ok(queryLeadTrialList.path, { sessionId: session.id })).toEqual([]);
    const info = await seller.ok(queryLeadInfo.path, { id: leadId });
    expect(info.trials).toMatchObject([{ sessionId: session.id, status: 1 }]);
    // Its cancel and 到店 are the booking's.
    const [t] = await trialsOf(leadId);
    expect(await seller.call(cancelLeadTrial.path, { id: t.id })).toMatchObject({
      status: 409,
      msg: LeadMsg.trialOfMember,
    });

    const r = await reservationOf(m.id, session.id);
    await seller.ok(markAttendanceCall.path, { reservationId: r.id, attended: 1 });
    expect(await trialsOf(leadId)).toMatchObject([{ status: 2, teacherId: teacher.id }]);
    expect(await leadRow(leadId)).toMatchObject({
      stage: 'trial_done',
      trialDoneAt: expect.any(String),
      trialTeacherId: teacher.id,
    });

    const real = await env().client.ok(insertMemberCard.path, { mid: m.id, cardId: realProduct.id, totalCount: 20 });
    expect(await leadRow(leadId)).toMatchObject({ stage: 'won', convertedCardId: real.id, convertedMemberId: m.id });
  });

  it('sold at the desk: no conversion; the booking cancelled cancels the trial; a no-show heads 我的待跟进', async () => {
    const { m, leadId } = await memberWithLead();
    await env().client.ok(insertMemberCard.path, { mid: m.id, cardId: trialProduct.id, totalCount: 1 });
    expect(await leadRow(leadId)).toMatchObject({ stage: 'contacted', convertedCardId: null });
    const trialCard = await cardOf(m.id, trialProduct.id);

    const first = await ef().session({ courseId: course.id, teacherId: teacher.id });
    await seller.ok(addMemberReservation.path, { mcId: trialCard.id, tid: first.id });
    expect((await leadRow(leadId)).stage).toBe('trial_booked');
    await seller.ok(cancelReservationCall.path, { id: (await reservationOf(m.id, first.id)).id });
    expect(await trialsOf(leadId)).toMatchObject([{ status: 3 }]);
    expect((await leadRow(leadId)).stage).toBe('contacted');
    expect((await ef().sessionRow(first.id)).realCount).toBe(0);

    // Booked again, and the class takes place earlier today without them.
    const second = await ef().session({ courseId: course.id, teacherId: teacher.id });
    await seller.ok(addMemberReservation.path, { mcId: trialCard.id, tid: second.id });
    expect((await seller.ok(queryLeadTodoList.path)).find((r: { id: number }) => r.id === leadId)).toMatchObject({
      trialMissed: false,
    });
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    await db()
      .updateTable('timetable')
      .set({ startTime: `${today} 00:00:00`, endTime: `${today} 00:00:01` })
      .where('id', '=', second.id)
      .execute();
    const todo = await seller.ok(queryLeadTodoList.path);
    expect(todo[0]).toMatchObject({ id: leadId, trialMissed: true });
  });

  it('a booking with another card is no trial', async () => {
    const { m, leadId } = await memberWithLead();
    const { card } = { card: await env().factory.memberCard(m.id, realProduct.id) };
    const session = await ef().session({ courseId: course.id, teacherId: teacher.id });
    await seller.ok(addMemberReservation.path, { mcId: card.id, tid: session.id });
    expect(await trialsOf(leadId)).toEqual([]);
    expect((await leadRow(leadId)).stage).toBe('contacted');
  });
});
