import { memberPublicTimetable, PhaseMsg, PolicyMsg, updateBookingPolicy, type MemberSession } from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addDays, addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';

const now = () => localDateTime('Asia/Shanghai');

describeEachDb('members timetable: where each class stands (ended, running, closed, not open yet, open)', (env) => {
  const ef = () => new EngineFactory(env().factory);
  afterEach(async () => {
    await env().client.ok(updateBookingPolicy.path, { openDaysBefore: 0, closeMinutesBefore: 0 });
  });

  /** The public timetable's view of these sessions (the landing page, no login), by id. */
  async function shown(ids: number[]) {
    const today = now().slice(0, 10);
    const days: { sessions: MemberSession[] }[] = await env()
      .anon()
      .ok(memberPublicTimetable.path, {
        storeId: env().storeId,
        fromDate: addDays(today, -1),
        toDate: addDays(today, 12),
      });
    const all = days.flatMap((d) => d.sessions);
    return ids.map((id) => all.find((s) => s.id === id));
  }

  it('an ended class says 已结束, a running one 进行中, one past the window 已截止, one before it the date it opens', async () => {
    const e = ef();
    const s = await e.scene({ product: { perCount: 1 } });
    const at = (from: number, to: number) =>
      e.session({
        courseId: s.course.id,
        teacherId: s.teacher.id,
        startTime: addMinutes(now(), from),
        endTime: addMinutes(now(), to),
      });
    await env().client.ok(updateBookingPolicy.path, { openDaysBefore: 2, closeMinutesBefore: 60 });
    const ended = await at(-120, -60);
    const running = await at(-30, 30);
    const closed = await at(30, 90);
    const open = await at(24 * 60, 25 * 60);
    const later = await at(5 * 24 * 60, 5 * 24 * 60 + 60);
    const [a, b, c, d, f] = await shown([ended.id, running.id, closed.id, open.id, later.id]);

    expect(a).toMatchObject({ phase: 'ended', opensAt: null, bookable: false, reason: PhaseMsg.endedReason });
    // started and not ended: not "开课前60分钟停止预约", and still so with no closing time
    expect(b).toMatchObject({ phase: 'running', opensAt: null, bookable: false, reason: PhaseMsg.runningReason });
    expect(c).toMatchObject({ phase: 'closed', opensAt: null, bookable: false, reason: PolicyMsg.closed(60) });
    expect(d).toMatchObject({ phase: 'open', opensAt: null, bookable: true, reason: null });
    // booking opens two whole days before the start: that moment, in the member's words
    const opensAt = `${addDays(later.startTime.slice(0, 10), -2)} ${later.startTime.slice(11)}`;
    expect(f).toMatchObject({ phase: 'notOpen', opensAt, bookable: false, reason: PhaseMsg.opensAt(opensAt) });
    expect(f?.reason).toMatch(/^\d{1,2}月\d{1,2}日 \d\d:\d\d 开放预约$/);

    await env().client.ok(updateBookingPolicy.path, { openDaysBefore: 0, closeMinutesBefore: 0 });
    const [b2, f2] = await shown([running.id, later.id]);
    expect(b2).toMatchObject({ phase: 'running', reason: PhaseMsg.runningReason });
    expect(f2).toMatchObject({ phase: 'open', opensAt: null, bookable: true, reason: null });
  });

  it('a full class in the window is open (its seats say 已满); a full ended one still says 已结束', async () => {
    const e = ef();
    const s = await e.scene({ product: { perCount: 1 } });
    const full = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: addMinutes(now(), 3 * 60),
      reservableCount: 0,
    });
    const fullEnded = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: addMinutes(now(), -3 * 60),
      endTime: addMinutes(now(), -2 * 60),
      reservableCount: 0,
    });
    const [a, b] = await shown([full.id, fullEnded.id]);
    expect(a).toMatchObject({ phase: 'open', bookable: false, reason: '已满' });
    expect(b).toMatchObject({ phase: 'ended', bookable: false, reason: PhaseMsg.endedReason });
  });
});
