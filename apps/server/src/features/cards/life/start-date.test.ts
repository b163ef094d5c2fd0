import { Msg } from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addDays, localDateTime } from '../../../lib/time.ts';
import { yearMonthDay } from '../rules.ts';
import { EngineFactory } from '../../../../test/factory-engine.ts';
import { describeEachDb, type TestEnv } from '../../../../test/harness.ts';
import { checkInvariants } from '../../../../test/invariants.ts';
import { memberClient } from '../../../../test/member-client.ts';
import { startOnlineStore } from '../../../../test/payment-stand-ins.ts';

const API = '/store/api';
const today = () => localDateTime('Asia/Shanghai').slice(0, 10);
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

/**
 * A 指定日期开卡 product starting in four days, its course and teacher, a member holding a card of it
 * (sold at the desk), a class the day after tomorrow (before the start) and one on the start day.
 */
async function scene(env: TestEnv) {
  const e = new EngineFactory(env.factory);
  const t = today();
  const startDay = addDays(t, 4);
  const s = await e.scene({
    product: { cardType: 1, validDays: 30, perCount: 1, activation: 'date', activationDate: startDay },
  });
  const member = await env.factory.member();
  const { id: mcId } = (await env.client.ok(`${API}/insert/member/card`, {
    mid: member.id,
    cardId: s.product.id,
    totalCount: 10,
    payment: { amount: 100000, method: 'cash', remark: null },
  })) as { id: number };
  const early = await e.session({
    courseId: s.course.id,
    teacherId: s.teacher.id,
    startTime: `${addDays(t, 2)} 10:00:00`,
  });
  const onTheDay = await e.session({
    courseId: s.course.id,
    teacherId: s.teacher.id,
    startTime: `${startDay} 10:00:00`,
  });
  return { e, ...s, member, mcId, early, onTheDay, startDay, refusal: Msg.cardNotStarted(yearMonthDay(startDay)) };
}

describeEachDb('a card starts when it starts (issue 42, item 6): 指定日期开卡 books nothing before its date', (env) => {
  afterEach(async () => {
    await env().client.ok(`${API}/update/booking/policy`, { waitlist: 0, waitlistCutoffMinutes: 0 });
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });

  it('the desk and the phone are refused a class before the date, in Chinese; on the date they book', async () => {
    const s = await scene(env());
    expect(s.refusal).toBe(
      `会员卡${Number(s.startDay.slice(0, 4))}年${Number(s.startDay.slice(5, 7))}月${Number(s.startDay.slice(8, 10))}日开卡，此前不能约课`,
    );
    const desk = await env().client.call(`${API}/add/member/reservation`, {
      tid: s.early.id,
      mcId: s.mcId,
      studentCount: 1,
    });
    expect([desk.status, desk.msg]).toEqual([409, s.refusal]);
    const phone = await memberClient(env(), s.member);
    const own = await phone.call('/member/api/add/reservation', { tid: s.early.id, mcId: s.mcId, studentCount: 1 });
    expect([own.status, own.msg]).toEqual([409, s.refusal]);
    const cards = await phone.ok('/member/api/query/cards/for/session', { tid: s.early.id });
    expect(cards[0]).toMatchObject({ usable: false, reason: s.refusal });
    expect((await s.e.cardRow(s.mcId)).usedCount).toBe(0);
    expect((await s.e.sessionRow(s.early.id)).realCount).toBe(0);

    await phone.ok('/member/api/add/reservation', { tid: s.onTheDay.id, mcId: s.mcId, studentCount: 1 });
    expect((await s.e.cardRow(s.mcId)).usedCount).toBe(1);
  });

  it('a batch run and a drop-in (固定上课学员) reaching a class before the date are refused whole', async () => {
    const s = await scene(env());
    const area = await env().factory.area();
    const from = addDays(today(), 1);
    const batch = await env().client.call(`${API}/batch/arrange/course`, {
      cid: s.course.id,
      areaId: area.id,
      students: 5,
      tid: s.teacher.id,
      startDate: from,
      arrangeTimes: 1,
      courseTimes: [{ weekday: weekday(from), arrangeTime: '19:00' }],
      mcIds: [s.mcId],
      isOnline: 0,
    });
    expect(batch.status).toBe(409);
    expect(batch.msg).toContain(s.refusal);
    const made = await env()
      .database.db.selectFrom('timetable')
      .select('id')
      .where('storeId', '=', env().storeId)
      .where('startTime', '=', `${from} 19:00:00`)
      .execute();
    expect(made).toEqual([]);

    const dropIn = await env().client.call(`${API}/batch/add/member/reservation`, {
      mcId: s.mcId,
      cid: s.course.id,
      tids: [s.teacher.id],
      startDate: today(),
      times: 2,
    });
    expect(dropIn.status).toBe(409);
    expect(dropIn.msg).toContain(s.refusal);
    expect((await s.e.cardRow(s.mcId)).usedCount).toBe(0);
    expect((await s.e.sessionRow(s.onTheDay.id)).realCount).toBe(0);
  });

  it('the waitlist: joining before the date is refused, and a wait whose card moved later is skipped at promotion', async () => {
    await env().client.ok(`${API}/update/booking/policy`, { waitlist: 1 });
    const s = await scene(env());
    const full = await s.e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      reservableCount: 1,
      startTime: `${s.startDay} 18:00:00`,
    });
    const holder = await s.e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    await env().client.ok(`${API}/add/member/reservation`, { tid: full.id, mcId: holder.card.id, studentCount: 1 });
    // Full before the date: the early class, filled by the holder too.
    await env().database.db.updateTable('timetable').set({ reservableCount: 0 }).where('id', '=', s.early.id).execute();
    const early = await env().client.call(`${API}/add/waitlist`, {
      tid: s.early.id,
      mid: s.member.id,
      mcId: s.mcId,
      studentCount: 1,
    });
    expect([early.status, early.msg]).toEqual([409, s.refusal]);

    await env().client.ok(`${API}/add/waitlist`, { tid: full.id, mid: s.member.id, mcId: s.mcId, studentCount: 1 });
    // The card's start moves past the class (as an import or a correction may set it).
    const later = addDays(s.startDay, 1);
    await env()
      .database.db.updateTable('memberCard')
      .set({ activateTime: `${later} 00:00:00`, expireTime: `${addDays(later, 30)} 23:59:59` })
      .where('id', '=', s.mcId)
      .execute();
    const booking = await env()
      .database.db.selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', full.id)
      .where('memberId', '=', holder.member.id)
      .executeTakeFirstOrThrow();
    await env().client.ok(`${API}/cancel/reservation`, { id: booking.id });
    const mine = await env()
      .database.db.selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', full.id)
      .where('memberId', '=', s.member.id)
      .execute();
    expect(mine).toEqual([]);
    const q = await env().client.ok(`${API}/query/waitlist/list`, { tid: full.id });
    expect(q.list[0]).toMatchObject({
      member: { id: s.member.id },
      skipReason: Msg.cardNotStarted(yearMonthDay(later)),
    });
    expect((await s.e.cardRow(s.mcId)).usedCount).toBe(0);
  });

  it('a product whose start date has passed is not sold online: not listed, an order refused', async () => {
    const e = new EngineFactory(env().factory);
    const t = today();
    const online = { cardType: 1, validDays: 30, totalCount: 10, onlineSale: 1, onlinePrice: 990 };
    const past = await e.scene({ product: { ...online, activation: 'date', activationDate: addDays(t, -1) } });
    const coming = await e.scene({ product: { ...online, activation: 'date', activationDate: addDays(t, 3) } });
    const member = await env().factory.member();
    const phone = await memberClient(env(), member);
    const shop = await phone.ok('/member/api/query/products', {});
    const listed = shop.list.map((p: { id: number }) => p.id);
    expect(listed).toContain(coming.product.id);
    expect(listed).not.toContain(past.product.id);
    const order = await phone.call('/member/api/create/order', { productId: past.product.id, method: 'wechat_native' });
    expect([order.status, order.msg]).toEqual([409, '该卡种暂不在线上售卖']);
  });
  it("the manager's choice 开卡日期已过时，售出当天开卡: listed, bought online and at the desk, the card starts that day and books it", async () => {
    const e = new EngineFactory(env().factory);
    const t = today();
    const api = env().client;
    const s = await e.scene({
      product: { cardType: 1, validDays: 30, totalCount: 10, onlineSale: 1, onlinePrice: 990, activation: 'date' },
    });
    const product = (await api.ok(`${API}/query/card/product/list`, {})).find(
      (p: { id: number }) => p.id === s.product.id,
    );
    const { id: _id, courses: _courses, enabled: _enabled, ...fields } = product;
    // Through the manager's form: a passed date, the choice on (a date dropped later drops the choice).
    await api.ok(`${API}/update/card/product`, {
      id: s.product.id,
      ...fields,
      courseIds: [s.course.id],
      activationDate: addDays(t, -3),
      lateSaleStartsToday: 1,
    });
    const saved = (await api.ok(`${API}/query/card/product/list`, {})).find(
      (p: { id: number }) => p.id === s.product.id,
    );
    expect(saved).toMatchObject({ activation: 'date', activationDate: addDays(t, -3), lateSaleStartsToday: 1 });
    const tonight = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${t} 23:59:00` });

    const online = await startOnlineStore(() => [env().app], api);
    try {
      const member = await env().factory.member();
      const phone = await memberClient(env(), member);
      const shop = await phone.ok('/member/api/query/products', {});
      expect(shop.list.map((p: { id: number }) => p.id)).toContain(s.product.id);
      const order = await phone.ok('/member/api/create/order', { productId: s.product.id, method: 'wechat_native' });
      expect((await online.wx.pay(order.orderNo)).map((d) => d.status)).toEqual([204]);
      const paid = await phone.ok('/member/api/query/order', { orderNo: order.orderNo });
      expect(paid.status).toBe('paid');
      const card = await e.cardRow(paid.memberCardId);
      expect(card.activateTime?.slice(0, 10)).toBe(t);
      expect(card.expireTime).toBe(`${addDays(t, 30)} 23:59:59`);
      await phone.ok('/member/api/add/reservation', { tid: tonight.id, mcId: paid.memberCardId, studentCount: 1 });
      expect((await e.cardRow(paid.memberCardId)).usedCount).toBe(1);
    } finally {
      await online.close();
    }

    // The desk's 发卡: the same rule.
    const walkIn = await env().factory.member();
    const { id: mcId } = (await api.ok(`${API}/insert/member/card`, {
      mid: walkIn.id,
      cardId: s.product.id,
      totalCount: 10,
      payment: { amount: 99000, method: 'cash', remark: null },
    })) as { id: number };
    const desk = await e.cardRow(mcId);
    expect(desk.activateTime?.slice(0, 10)).toBe(t);
    expect(desk.expireTime).toBe(`${addDays(t, 30)} 23:59:59`);
    await api.ok(`${API}/add/member/reservation`, { tid: tonight.id, mcId, studentCount: 1 });
    expect((await e.cardRow(mcId)).usedCount).toBe(1);

    // The choice off again: not sold online, and the desk's card keeps the product's day.
    await api.ok(`${API}/update/card/product`, {
      id: s.product.id,
      ...fields,
      courseIds: [s.course.id],
      activationDate: addDays(t, -3),
      lateSaleStartsToday: 0,
    });
    const phone = await memberClient(env(), walkIn);
    expect((await phone.ok('/member/api/query/products', {})).list.map((p: { id: number }) => p.id)).not.toContain(
      s.product.id,
    );
    const { id: keptId } = (await api.ok(`${API}/insert/member/card`, {
      mid: walkIn.id,
      cardId: s.product.id,
      totalCount: 10,
      payment: { amount: 99000, method: 'cash', remark: null },
    })) as { id: number };
    expect((await e.cardRow(keptId)).activateTime).toBe(`${addDays(t, -3)} 00:00:00`);
  });
});
