import {
  addGroupPending,
  addMemberReservation,
  cancelReservationCall,
  PendingStatus,
  queryToday,
  signInPendingCall,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { localDateTime } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

describeEachDb('今日 (the desk’s day)', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown>) => env().client.ok<T>(path, body);

  it('lists the day’s classes in time order with bookings, waiting pendings and sign-ins', async () => {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ course: { name: '普拉提' } });
    const late = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} 19:00:00` });
    const early = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} 08:00:00` });
    await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE.slice(0, 8)}02 08:00:00` });
    const a = await e.memberWithCard(s.product.id, { member: { name: '甲' } });
    const b = await e.memberWithCard(s.product.id, { member: { name: '乙' } });
    const c = await e.memberWithCard(s.product.id, { member: { name: '丙' } });
    const d = await e.memberWithCard(s.product.id, { member: { name: '丁' } });
    await ok(addMemberReservation.path, { mcId: a.card.id, tid: early.id, studentCount: 2, remark: '带孩子' });
    await ok(addMemberReservation.path, { mcId: d.card.id, tid: early.id, studentCount: 1, remark: '' });
    const cancelled = await e.db
      .selectFrom('reservation')
      .select('id')
      .where('memberId', '=', d.member.id)
      .executeTakeFirstOrThrow();
    await ok(cancelReservationCall.path, { id: cancelled.id });
    await e.setMode(1);
    await ok(addGroupPending.path, { mid: b.member.id, tid: early.id, studentCount: 1, remark: '' });
    await ok(addGroupPending.path, { mid: c.member.id, tid: early.id, studentCount: 1, remark: '' });
    const pb = await e.db
      .selectFrom('pending')
      .select('id')
      .where('memberId', '=', b.member.id)
      .where('status', '=', PendingStatus.WAITING)
      .executeTakeFirstOrThrow();
    await ok(signInPendingCall.path, { pendingId: pb.id, mcId: b.card.id, remark: '' });

    const day = await ok(queryToday.path, { date: FUTURE });
    expect(day.date).toBe(FUTURE);
    expect(day.deductionMode).toBe(1);
    expect(day.sessions.map((x: { id: number }) => x.id)).toEqual([early.id, late.id]);
    const [first, second] = day.sessions;
    expect(first).toMatchObject({ courseName: '普拉提', realCount: 4, phase: 'upcoming', teacherName: s.teacher.name });
    expect(
      first.roster
        .map((r: { memberName: string; state: string; kind: string; studentCount: number }) => [
          r.memberName,
          r.kind,
          r.state,
          r.studentCount,
        ])
        .sort(),
    ).toEqual(
      [
        ['甲', 'booking', 'booked', 2],
        ['乙', 'booking', 'signed', 1],
        ['丙', 'pending', 'waiting', 1],
      ].sort(),
    );
    const named = (n: string) => first.roster.find((r: { memberName: string }) => r.memberName === n);
    expect(named('甲')).toMatchObject({ mcId: a.card.id, remark: '带孩子' });
    expect(named('丙').mcId).toBeNull();
    expect(second.roster).toEqual([]);
  });

  it('defaults to today, marks a class that is on now, and shows only the acting store', async () => {
    const e = new EngineFactory(env().factory);
    const s = await e.scene();
    const now = localDateTime('Asia/Shanghai');
    const started = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: `${now.slice(0, 10)} 00:00:00`,
    });
    await e.db
      .updateTable('timetable')
      .set({ endTime: `${now.slice(0, 10)} 23:59:59` })
      .where('id', '=', started.id)
      .execute();
    const day = await ok(queryToday.path, {});
    expect(day.date).toBe(now.slice(0, 10));
    expect(day.sessions.find((x: { id: number }) => x.id === started.id)?.phase).toBe('now');
    const other = await env().other.client.ok(queryToday.path, {});
    expect(other.sessions.find((x: { id: number }) => x.id === started.id)).toBeUndefined();
    const bad = await env().client.call(queryToday.path, { date: '2026-02-30' });
    expect(bad.status).toBe(400);
  });
});
