import {
  addMemberReservation,
  cancelReservationCall,
  cancelTimetable,
  queryTimetableInfo,
  TimetableMsg,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';

describeEachDb('ended sessions: cancelling or deleting after the end is a deliberate act', (env) => {
  const api = () => env().client;
  afterEach(async () => expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]));

  /** A session booked while it was open, then moved into the past (as time would). */
  async function endedBooked() {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ product: { perCount: 2, cardType: 2 } });
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id });
    const { card } = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    await api().ok(addMemberReservation.path, { mcId: card.id, tid: session.id, studentCount: 1 });
    const now = localDateTime('Asia/Shanghai');
    await env()
      .database.db.updateTable('timetable')
      .set({ startTime: addMinutes(now, -120), endTime: addMinutes(now, -60) })
      .where('id', '=', session.id)
      .execute();
    const end = addMinutes(now, -60).slice(0, 16);
    const [r] = await env()
      .database.db.selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', session.id)
      .execute();
    return { session, card, reservationId: r.id, end };
  }

  it('the session answer says it ended; a cancel needs confirmEnded and then refunds in full', async () => {
    const { session, card, reservationId, end } = await endedBooked();
    expect((await api().ok(queryTimetableInfo.path, { id: session.id })).ended).toBe(true);
    const refused = await api().call(cancelReservationCall.path, { id: reservationId });
    expect([refused.status, refused.msg]).toEqual([409, TimetableMsg.endedCancel(end, '2 次')]);
    await api().ok(cancelReservationCall.path, { id: reservationId, confirmEnded: true });
    const c = await env()
      .database.db.selectFrom('memberCard')
      .select('usedCount')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(Number(c.usedCount)).toBe(0);
  });

  it('a delete of an ended session with bookings names what it cancels and refunds; confirmed, it goes', async () => {
    const { session, end } = await endedBooked();
    const refused = await api().call(cancelTimetable.path, { id: session.id });
    expect([refused.status, refused.msg]).toEqual([409, TimetableMsg.endedDelete(end, 1, '2 次')]);
    await api().ok(cancelTimetable.path, { id: session.id, confirmEnded: true });
    expect((await api().call(queryTimetableInfo.path, { id: session.id })).status).toBe(404);
  });

  it('a session not ended, or ended without bookings, needs no confirmation', async () => {
    const e = new EngineFactory(env().factory);
    const s = await e.scene();
    const open = await e.session({ courseId: s.course.id, teacherId: s.teacher.id });
    expect((await api().ok(queryTimetableInfo.path, { id: open.id })).ended).toBe(false);
    await api().ok(cancelTimetable.path, { id: open.id });
    const now = localDateTime('Asia/Shanghai');
    const past = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: addMinutes(now, -180),
      endTime: addMinutes(now, -120),
    });
    await api().ok(cancelTimetable.path, { id: past.id });
  });
});
