import {
  addGroupPending,
  addMemberReservation,
  batchAddMemberReservation,
  cancelPendingCall,
  cancelReservationCall,
  cancelTimetable,
  queryPendingList,
  queryReservationList,
  saveWechatSetting,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { allowReceiver, fastWorker, Receiver, waitFor } from '../../../test/outbox.ts';

describeEachDb('store messages of bookings', (env) => {
  const receiver = new Receiver();
  beforeAll(async () => {
    await receiver.start();
    allowReceiver(env().app, receiver);
  });
  afterAll(() => receiver.stop());

  const api = () => env().client;
  const setWebhook = (on: boolean) => api().ok(saveWechatSetting.path, on ? { webhookUrl: receiver.url } : {});
  const about = (courseName: string) => receiver.texts().filter((t) => t.includes(courseName));

  async function scene(capacity = 5) {
    const e = new EngineFactory(env().factory);
    const { teacher, product, course } = await e.scene();
    const session = await e.session({
      courseId: course.id,
      teacherId: teacher.id,
      startTime: '2099-07-01 19:00:00',
      reservableCount: capacity,
    });
    return { e, teacher, product, course, session };
  }

  it('booking made, cancelled and the session deleted: one message each, in order, with member, course, time, seats left, refunds', async () => {
    await setWebhook(true);
    const { e, product, course, session } = await scene();
    const a = await e.memberWithCard(product.id);
    const b = await e.memberWithCard(product.id);
    expect(
      (await api().call(addMemberReservation.path, { mcId: a.card.id, tid: session.id, studentCount: 2 })).code,
    ).toBe(0);
    expect((await api().call(addMemberReservation.path, { mcId: b.card.id, tid: session.id })).code).toBe(0);
    const list = await api().ok(queryReservationList.path, { tid: session.id, page: 1 });
    const ra = list.list.find((r: { memberId: number }) => r.memberId === a.member.id);
    expect((await api().call(cancelReservationCall.path, { id: ra.reservationId })).code).toBe(0);
    expect((await api().call(cancelTimetable.path, { id: session.id })).code).toBe(0);

    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      await waitFor(async () => about(course.name).length >= 4, 'four messages');
    } finally {
      await stop();
    }
    const got = about(course.name);
    expect(got).toHaveLength(4);
    expect(got[0]).toContain('预约成功');
    expect(got[0]).toContain(`会员：${a.member.name}（2人）`);
    expect(got[0]).toContain('时间：2099-07-01 19:00-20:00');
    expect(got[0]).toContain('剩余名额：3');
    expect(got[1]).toContain(`会员：${b.member.name}`);
    expect(got[1]).toContain('剩余名额：2');
    expect(got[2]).toContain('预约取消');
    expect(got[2]).toContain(a.member.name);
    expect(got[2]).toContain('剩余名额：4');
    expect(got[3]).toContain('课程已删除');
    expect(got[3]).toContain(`${b.member.name} 退回1次`);
  });

  it('pending bookings (sign-in mode) are told too', async () => {
    await setWebhook(true);
    const { e, product, course, session } = await scene();
    await e.setMode(1);
    try {
      const { member: m, card } = await e.memberWithCard(product.id);
      expect((await api().call(addGroupPending.path, { mid: m.id, tid: session.id, mcId: card.id })).code).toBe(0);
      const [p] = await api().ok(queryPendingList.path, { tid: session.id });
      expect((await api().call(cancelPendingCall.path, { pendingId: p.pending.id })).code).toBe(0);
      const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
      try {
        await waitFor(async () => about(course.name).length >= 2, 'two messages');
      } finally {
        await stop();
      }
      expect(about(course.name).map((t) => t.split('\n')[0])).toEqual(['**预约成功**', '**预约取消**']);
    } finally {
      await e.setMode(0);
    }
  });

  it('a failing webhook never fails a booking; the message comes once it answers again', async () => {
    await setWebhook(true);
    const { e, product, course, session } = await scene();
    receiver.failing = true;
    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      const a = await e.memberWithCard(product.id);
      expect((await api().call(addMemberReservation.path, { mcId: a.card.id, tid: session.id })).code).toBe(0);
      await waitFor(
        () =>
          env()
            .database.db.selectFrom('outbox')
            .select('id')
            .where('orderKey', '=', String(session.id))
            .where('attempts', '>=', 2)
            .executeTakeFirst(),
        'failed attempts',
      );
      const b = await e.memberWithCard(product.id);
      expect((await api().call(addMemberReservation.path, { mcId: b.card.id, tid: session.id })).code).toBe(0);
      receiver.failing = false;
      await waitFor(async () => about(course.name).length >= 2, 'both messages');
    } finally {
      receiver.failing = false;
      await stop();
    }
    expect(about(course.name)).toHaveLength(2);
    expect(about(course.name)[0]).toContain('剩余名额：4');
    expect(about(course.name)[1]).toContain('剩余名额：3');
  });

  it('a store without a webhook queues nothing', async () => {
    await setWebhook(false);
    const { e, product, session } = await scene();
    const a = await e.memberWithCard(product.id);
    expect((await api().call(addMemberReservation.path, { mcId: a.card.id, tid: session.id })).code).toBe(0);
    const rows = await env()
      .database.db.selectFrom('outbox')
      .select('id')
      .where('orderKey', '=', String(session.id))
      .execute();
    expect(rows).toEqual([]);
  });
  it('a bulk booking (安插固定上课学员) tells the group once, with what made it and how many', async () => {
    await setWebhook(true);
    const { e, teacher, product, course } = await scene();
    const a = await e.memberWithCard(product.id);
    const before = receiver.texts().filter((t) => t.includes('批量预约')).length;
    const answer = await api().call(batchAddMemberReservation.path, {
      mcId: a.card.id,
      cid: course.id,
      tids: [teacher.id],
      startDate: '2099-06-01',
      times: 1,
    });
    expect(answer.code, answer.msg).toBe(0);
    const stop = fastWorker(env().app.deps, { allow: receiver.allowHost });
    try {
      await waitFor(
        async () => receiver.texts().filter((t) => t.includes('批量预约')).length > before,
        'the bulk message',
      );
    } finally {
      await stop();
    }
    const got = receiver.texts().filter((t) => t.includes('批量预约'));
    expect(got).toHaveLength(before + 1);
    expect(got.at(-1)).toContain('来源：批量预约');
    expect(got.at(-1)).toContain('课程：1 节');
    expect(got.at(-1)).toContain('预约：1 人次');
  });
});
