import {
  retryTimetableMeeting,
  addGroupPending,
  addMemberReservation,
  cancelTimetableOnline,
  createTimetableMeeting,
  OnlineMsg,
  queryOnlineSetting,
  queryTimetableInfo,
  queryTimetableOnline,
  updateOnlineSetting,
} from '@studio/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fastWorker, waitFor } from '../../../test/outbox.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { registerProvider } from './providers/registry.ts';

const BASE = 'https://meet.example.org';

/** A provider for type 4 that fails while `failing` is set (tests pick it through the store setting). */
let failing = true;
registerProvider({
  name: 'test-flaky',
  label: '测试会议',
  remoteRooms: false,
  check() {},
  async createRoom() {
    if (failing) throw new Error('会议服务无响应');
    return { meetingId: 'flaky-1', meetingCode: 'flaky-1', joinUrl: 'https://flaky.example/1', duration: 0 };
  },
  async cancelRoom() {},
  async roomInfo() {
    return null;
  },
});

describeEachDb('online classroom', (env) => {
  let stop: () => Promise<void>;
  beforeAll(() => {
    stop = fastWorker(env().app.deps);
  });
  afterAll(async () => {
    await stop();
  });

  const ef = () => new EngineFactory(env().factory);
  const api = () => env().client;
  const create = (id: number, type: number) => api().call(createTimetableMeeting.path, { id, type });
  const cancel = (id: number) => api().call(cancelTimetableOnline.path, { id });
  const state = (id: number) => api().ok(queryTimetableOnline.path, { id });
  const info = (id: number) => api().ok(queryTimetableInfo.path, { id });

  async function session(teacher: Record<string, unknown> = {}) {
    const e = ef();
    const product = await env().factory.cardProduct();
    const course = await env().factory.course({ cardIds: [product.id] });
    const t = await env().factory.teacher(teacher);
    const s = await e.session({ courseId: course.id, teacherId: t.id });
    return { e, product, course, teacher: t, session: s };
  }
  const bookOne = async (e: EngineFactory, productId: number, tid: number) => {
    const { card } = await e.memberWithCard(productId);
    const a = await api().call(addMemberReservation.path, { mcId: card.id, tid });
    expect(a.code, a.msg).toBe(0);
  };
  const setJitsi = () => api().ok(updateOnlineSetting.path, { jitsiBaseUrl: `${BASE}/` });

  it('stores and checks the meeting settings', async () => {
    expect(await api().ok(queryOnlineSetting.path)).toEqual({ jitsiBaseUrl: null, providers: {}, defaultType: 4 });
    const bad = await api().call(updateOnlineSetting.path, { jitsiBaseUrl: 'ftp://meet.example.org' });
    expect(bad.status).toBe(400);
    expect(bad.msg).toBe(OnlineMsg.jitsiBaseUrl);
    const badName = await api().call(updateOnlineSetting.path, { providers: { 4: 'skype' } });
    expect(badName.status).toBe(400);
    expect(badName.msg).toBe(OnlineMsg.providerName('skype'));
    await setJitsi();
    expect(await api().ok(queryOnlineSetting.path)).toEqual({ jitsiBaseUrl: BASE, providers: {}, defaultType: 4 });
    expect(await env().other.client.ok(queryOnlineSetting.path)).toMatchObject({ jitsiBaseUrl: null });
  });

  it('0 -> 2: type 2 makes a Jitsi room now; 2 -> 0 on cancel', async () => {
    await setJitsi();
    const { session: s } = await session();
    expect((await create(s.id, 2)).code).toBe(0);
    const i = await info(s.id);
    expect(i.isOnline).toBe(2);
    expect(i.meetingInfo).toMatchObject({ meetingType: 4, duration: 0, type: 2 });
    const code = i.meetingInfo.meetingCode as string;
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(i.meetingInfo.joinUrl).toBe(`${BASE}/${code}`);
    expect(i.meetingId).toBe(code);

    const again = await create(s.id, 2);
    expect([again.status, again.msg]).toEqual([409, OnlineMsg.roomExists]);

    expect((await cancel(s.id)).code).toBe(0);
    expect(await state(s.id)).toEqual({
      id: s.id,
      isOnline: 0,
      meetingId: null,
      meetingInfo: null,
      meetingError: null,
    });
    const twice = await cancel(s.id);
    expect([twice.status, twice.msg]).toEqual([409, OnlineMsg.noRoom]);

    // A new room gets a new name.
    expect((await create(s.id, 2)).code).toBe(0);
    expect((await state(s.id)).meetingInfo.meetingCode).not.toBe(code);
  });

  it('0 -> 1 -> room at the first booking (card); cancel returns to 0', async () => {
    await setJitsi();
    const { e, product, session: s } = await session();
    expect((await create(s.id, 1)).code).toBe(0);
    expect(await state(s.id)).toMatchObject({ isOnline: 1, meetingInfo: null, meetingError: null });
    await bookOne(e, product.id, s.id);
    const st = await waitFor(async () => {
      const x = await state(s.id);
      return x.meetingInfo ? x : null;
    }, 'the on-demand room');
    expect(st.isOnline).toBe(1);
    expect(st.meetingInfo).toMatchObject({ meetingType: 4, type: 1, duration: 0 });
    expect(st.meetingInfo.joinUrl).toBe(`${BASE}/${st.meetingInfo.meetingCode}`);
    // A second booking queues nothing more.
    await bookOne(e, product.id, s.id);
    const queued = await env()
      .database.db.selectFrom('outbox')
      .select('id')
      .where('topic', '=', 'meeting.create')
      .where('orderKey', '=', `meeting:${s.id}`)
      .execute();
    expect(queued).toHaveLength(1);
    expect((await cancel(s.id)).code).toBe(0);
    expect(await state(s.id)).toMatchObject({ isOnline: 0, meetingInfo: null });
  });

  it('type 2 on an on-demand session without a room makes the room now (1 -> 2)', async () => {
    await setJitsi();
    const { session: s } = await session();
    expect((await create(s.id, 1)).code).toBe(0);
    const dup = await create(s.id, 1);
    expect([dup.status, dup.msg]).toEqual([409, OnlineMsg.roomExists]);
    expect((await create(s.id, 2)).code).toBe(0);
    expect(await state(s.id)).toMatchObject({ isOnline: 2, meetingInfo: { type: 2 } });
  });

  it('on demand at the first pending booking (sign-in mode)', async () => {
    await setJitsi();
    const { e, product, session: s } = await session();
    await e.setMode(1);
    try {
      expect((await create(s.id, 1)).code).toBe(0);
      const { member: m } = await e.memberWithCard(product.id);
      expect((await api().call(addGroupPending.path, { mid: m.id, tid: s.id })).code).toBe(0);
      await waitFor(async () => (await state(s.id)).meetingInfo, 'the on-demand room');
    } finally {
      await e.setMode(0);
    }
  });

  it('on demand in batch scheduling: every session booked by the bulk path gets its room', async () => {
    await setJitsi();
    const e = ef();
    const { teacher, product, course } = await e.scene();
    const { card } = await e.memberWithCard(product.id);
    const a = await api().call('/store/api/batch/arrange/course', {
      cid: course.id,
      students: 3,
      tid: teacher.id,
      startDate: FUTURE,
      arrangeTimes: 2,
      courseTimes: [{ weekday: 2, arrangeTime: '18:00' }],
      mcIds: [card.id],
      isOnline: 1,
    });
    expect(a.code, a.msg).toBe(0);
    const ids = (
      await env().database.db.selectFrom('timetable').select('id').where('teacherId', '=', teacher.id).execute()
    ).map((r) => r.id);
    expect(ids).toHaveLength(2);
    for (const id of ids) {
      const st = await waitFor(async () => {
        const x = await state(id);
        return x.meetingInfo ? x : null;
      }, `room of ${id}`);
      expect(st.isOnline).toBe(1);
    }
  });

  it('a failing provider never loses the booking: the error shows, the outbox retries, the room comes', async () => {
    const { e, product, session: s } = await session();
    // The test provider serves type 4 for this store (set straight in the table: the API only names
    // the providers the product ships).
    await env()
      .database.db.insertInto('storeSetting')
      .values({ storeId: env().storeId, key: 'online', value: JSON.stringify({ providers: { 4: 'test-flaky' } }) })
      .onConflict((oc) =>
        oc.columns(['storeId', 'key']).doUpdateSet({ value: JSON.stringify({ providers: { 4: 'test-flaky' } }) }),
      )
      .execute();
    failing = true;
    try {
      expect((await create(s.id, 1)).code).toBe(0);
      await bookOne(e, product.id, s.id);
      expect((await ef().sessionRow(s.id)).realCount).toBe(1);
      const st = await waitFor(async () => {
        const x = await state(s.id);
        return x.meetingError ? x : null;
      }, 'the provider error');
      expect(st).toMatchObject({ isOnline: 1, meetingInfo: null, meetingError: '创建在线教室失败：会议服务无响应' });
      // 立即重试 at the desk while the provider still fails: its reason, as a 409; nothing lost
      const retry = await api().call(retryTimetableMeeting.path, { id: s.id });
      expect([retry.status, retry.msg]).toEqual([409, '创建在线教室失败：会议服务无响应']);
      expect((await ef().sessionRow(s.id)).realCount).toBe(1);
      const row = await waitFor(
        () =>
          env()
            .database.db.selectFrom('outbox')
            .selectAll()
            .where('orderKey', '=', `meeting:${s.id}`)
            .where('attempts', '>=', 2)
            .executeTakeFirst(),
        'a retry',
      );
      expect(row.sentAt).toBeNull();
      expect(row.lastError).toContain('会议服务无响应');

      failing = false;
      const done = await waitFor(async () => {
        const x = await state(s.id);
        return x.meetingInfo ? x : null;
      }, 'the room after the provider recovers');
      expect(done).toMatchObject({ isOnline: 1, meetingError: null, meetingInfo: { meetingCode: 'flaky-1', type: 1 } });
      // once the room exists, 立即重试 simply succeeds (made by the worker or by the desk)
      expect((await api().call(retryTimetableMeeting.path, { id: s.id })).code).toBe(0);
      // The worker marks the message sent after the handler's own transaction committed the room:
      // wait for that second write rather than reading between the two.
      const sent = await waitFor(async () => {
        const o = await env()
          .database.db.selectFrom('outbox')
          .select(['sentAt', 'lastError'])
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        return o.sentAt ? o : null;
      }, 'the outbox message marked sent');
      expect(sent.sentAt).not.toBeNull();
    } finally {
      failing = true;
      await setJitsi();
    }
  });

  it('立即重试 refuses a session without an on-demand room or without a booking yet, and another store', async () => {
    const { e, product, session: s } = await session();
    expect(await api().call(retryTimetableMeeting.path, { id: s.id })).toMatchObject({
      status: 409,
      msg: OnlineMsg.noRoom,
    });
    expect((await create(s.id, 1)).code).toBe(0);
    expect(await api().call(retryTimetableMeeting.path, { id: s.id })).toMatchObject({
      status: 409,
      msg: OnlineMsg.waitingForBooking,
    });
    expect((await env().other.client.call(retryTimetableMeeting.path, { id: s.id })).status).toBe(404);
    await bookOne(e, product.id, s.id);
    expect((await api().call(retryTimetableMeeting.path, { id: s.id })).code).toBe(0);
    expect((await state(s.id)).meetingInfo).not.toBeNull();
  });

  it('refuses with clear messages: fixed room missing, provider not configured, unknown type', async () => {
    await api().ok(updateOnlineSetting.path, { jitsiBaseUrl: null });
    const plain = await session();
    const noJitsi = await create(plain.session.id, 2);
    expect([noJitsi.status, noJitsi.msg]).toEqual([409, OnlineMsg.notConfigured('Jitsi Meet')]);
    const noJitsiLater = await create(plain.session.id, 1);
    expect([noJitsiLater.status, noJitsiLater.msg]).toEqual([409, OnlineMsg.notConfigured('Jitsi Meet')]);
    expect((await state(plain.session.id)).isOnline).toBe(0);

    const fixedMissing = await session({ meetingType: 1 });
    const r1 = await create(fixedMissing.session.id, 2);
    expect([r1.status, r1.msg]).toEqual([409, OnlineMsg.noFixedRoom]);

    await api().ok(updateOnlineSetting.path, { providers: { 6: 'zoom', 5: 'tencent' } });
    const zoom = await session({ meetingType: 6 });
    const r2 = await create(zoom.session.id, 2);
    expect([r2.status, r2.msg]).toEqual([409, OnlineMsg.notConfigured('Zoom')]);
    const tencent = await session({ meetingType: 5 });
    const r3 = await create(tencent.session.id, 1);
    expect([r3.status, r3.msg]).toEqual([409, OnlineMsg.notConfigured('腾讯会议')]);

    const odd = await session({ meetingType: 7 });
    const r4 = await create(odd.session.id, 2);
    expect([r4.status, r4.msg]).toEqual([409, OnlineMsg.unknownType(7)]);

    const bad = await create(plain.session.id, 3);
    expect([bad.status, bad.msg]).toEqual([400, OnlineMsg.createType]);
    await setJitsi();
  });

  it('types 1-3 use the teacher fixed room', async () => {
    const { session: s } = await session({
      meetingType: 2,
      meetingCode: '888 123 456',
      joinUrl: 'https://meeting.example.com/j/888123456',
    });
    expect((await create(s.id, 2)).code).toBe(0);
    expect((await state(s.id)).meetingInfo).toEqual({
      meetingType: 2,
      meetingCode: '888 123 456',
      joinUrl: 'https://meeting.example.com/j/888123456',
      duration: 0,
      type: 2,
    });
  });

  it('rooms made and cancelled while members book the same session: no deadlock, no 5xx', async () => {
    await setJitsi();
    const { e, product, session: s } = await session();
    const cards = await Promise.all(Array.from({ length: 8 }, () => e.memberWithCard(product.id)));
    const answers = await Promise.all([
      ...cards.map(({ card }) => api().call(addMemberReservation.path, { mcId: card.id, tid: s.id })),
      ...Array.from({ length: 8 }, (_, i) => (i % 2 ? cancel(s.id) : create(s.id, 2))),
    ]);
    for (const a of answers) expect([0, 409], a.msg).toContain(a.code);
    expect(answers.slice(0, cards.length).every((a) => a.code === 0)).toBe(true);
    expect((await ef().sessionRow(s.id)).realCount).toBe(cards.length);
  });

  it('another store cannot see or change the online room (404)', async () => {
    await setJitsi();
    const { session: s } = await session();
    const other = env().other.client;
    for (const [path, body] of [
      [createTimetableMeeting.path, { id: s.id, type: 2 }],
      [cancelTimetableOnline.path, { id: s.id }],
      [queryTimetableOnline.path, { id: s.id }],
    ] as const) {
      const a = await other.call(path, body);
      expect([a.status, a.msg]).toEqual([404, '课程不存在']);
    }
    expect((await state(s.id)).isOnline).toBe(0);
  });
});
