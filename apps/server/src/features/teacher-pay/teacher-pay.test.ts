// Teacher pay (课时费) and sales commission (销售提成), issue 30 items 1-4: a month of classes booked
// and attended through the real calls, paid by each kind of rule (amounts worked out here, apart
// from the feature's own rules), a rule changed mid-month, a substitute, closing and reopening,
// commissions with refunds, and who sees what.
import { Msg, ReservationStatus, TeacherPayMsg, type CommissionRow, type TeacherPayStatement } from '@studio/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb, staffClient, type Client } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';

const STORE = '/store/api';
const MONTH = '2025-10';

/** A class of the month: who teaches it, what, when, how many book (seats) and how many of them come. */
interface Plan {
  key: string;
  teacher: 'A' | 'B' | 'D';
  course: 'yoga' | 'spin';
  start: string;
  /** Seats of each live booking (a booking of 2 is one member bringing a friend). */
  seats: number[];
  came: number;
  online?: boolean;
  /** Booked, then cancelled before the class: not a live booking. */
  cancelled?: number;
}

const PLANS: Plan[] = [
  { key: 'a1', teacher: 'A', course: 'yoga', start: '2025-10-02 09:00:00', seats: [1, 1, 1], came: 2, cancelled: 1 },
  { key: 'a2', teacher: 'A', course: 'spin', start: '2025-10-05 10:00:00', seats: [1, 1, 1, 1], came: 3 },
  { key: 'a3', teacher: 'A', course: 'spin', start: '2025-10-14 18:00:00', seats: [1, 1, 1, 1, 1, 1, 1], came: 6 },
  { key: 'a7', teacher: 'A', course: 'yoga', start: '2025-10-15 20:00:00', seats: [1], came: 0 },
  { key: 'a4', teacher: 'A', course: 'yoga', start: '2025-10-16 09:00:00', seats: [1, 1], came: 1 },
  { key: 'a5', teacher: 'A', course: 'spin', start: '2025-10-20 18:00:00', seats: Array(12).fill(1), came: 12 },
  { key: 'a6', teacher: 'A', course: 'yoga', start: '2025-10-23 09:00:00', seats: [1, 1, 1, 1, 1], came: 4 },
  { key: 'b1', teacher: 'B', course: 'yoga', start: '2025-10-03 19:00:00', seats: [1, 1, 1, 2], came: 1 },
  { key: 'b2', teacher: 'B', course: 'yoga', start: '2025-10-17 19:00:00', seats: [1, 1, 1], came: 3, online: true },
  // Taught by C instead of A (the session's teacher is changed before the class: a substitute).
  { key: 's1', teacher: 'A', course: 'yoga', start: '2025-10-30 09:00:00', seats: [1, 1], came: 2 },
  // A teacher without any rule: listed, paid nothing.
  { key: 'd1', teacher: 'D', course: 'spin', start: '2025-10-08 11:00:00', seats: [1], came: 1 },
  // Outside the month, and a deleted class: not on the statement.
  { key: 'x1', teacher: 'A', course: 'yoga', start: '2025-09-30 23:00:00', seats: [1], came: 1 },
  { key: 'x2', teacher: 'A', course: 'yoga', start: '2025-11-01 00:00:00', seats: [1], came: 1 },
  { key: 'del', teacher: 'B', course: 'yoga', start: '2025-10-10 19:00:00', seats: [], came: 0 },
];

/**
 * What the month pays each class, worked out from the rules as the test sets them (below), not by
 * the feature's rules module:
 * - A: every course 80 元 a class from 2025-09-01; from 2025-10-16 20 元 a head that came, at least
 *   50 元; spin from 2025-10-01 in tiers of heads that came (1+ 80 元, 6+ 120 元, 11+ 150 元).
 * - B: 15 元 a head booked from 2025-10-01.  C: 100 元 a class.  D: no rule.
 */
function expectedPay(teacher: 'A' | 'B' | 'C' | 'D', course: string, date: string, booked: number, came: number) {
  if (teacher === 'A') {
    if (course === 'spin') return came >= 11 ? 15000 : came >= 6 ? 12000 : came >= 1 ? 8000 : 0;
    if (date >= '2025-10-16') return Math.max(2000 * came, 5000);
    return 8000;
  }
  if (teacher === 'B') return 1500 * booked;
  if (teacher === 'C') return 10000;
  return 0;
}

describeEachDb('teacher pay and sales commission', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown> = {}) =>
    env().client.ok<T>(`${STORE}/${path}`, body);
  const call = (path: string, body: Record<string, unknown> = {}) => env().client.call(`${STORE}/${path}`, body);

  let teachers: Record<'A' | 'B' | 'C' | 'D', { id: number; name: string }>;
  let courses: Record<'yoga' | 'spin', { id: number; name: string }>;
  const tid: Record<string, number> = {};
  /** Reservation ids of each class's live bookings, in order. */
  const bookings: Record<string, number[]> = {};

  beforeAll(async () => {
    const e = env();
    const f = e.factory;
    const ef = new EngineFactory(f);
    await ef.setMode(0);
    teachers = {
      A: await f.teacher({ name: '王老师' }),
      B: await f.teacher({ name: '李老师' }),
      C: await f.teacher({ name: '赵老师' }),
      D: await f.teacher({ name: '孙老师' }),
    };
    const product = await f.cardProduct({ cardName: '课时次卡' });
    courses = {
      yoga: await f.course({ name: '瑜伽', cardIds: [product.id], count: 20 }),
      spin: await f.course({ name: '动感单车', cardIds: [product.id], count: 20 }),
    };
    const cards: number[] = [];
    for (let i = 0; i < 12; i++) {
      const m = await f.member({ name: `学员${i}` });
      cards.push((await f.memberCard(m.id, product.id, { totalCount: 500 })).id);
    }
    // Booked while still to come (the engine refuses ended classes), then moved into the month.
    for (const [i, p] of PLANS.entries()) {
      const s = await ef.session({
        courseId: courses[p.course].id,
        teacherId: teachers[p.teacher].id,
        startTime: `${addDays(FUTURE, i)} 09:00:00`,
        reservableCount: 20,
      });
      tid[p.key] = s.id;
      const booked = [...p.seats, ...Array(p.cancelled ?? 0).fill(1)];
      const ids: number[] = [];
      for (const [j, seats] of booked.entries()) {
        await e.client.ok(`${STORE}/add/member/reservation`, {
          mcId: cards[j],
          tid: s.id,
          studentCount: seats,
          remark: '',
        });
        const r = await e.database.db
          .selectFrom('reservation')
          .select('id')
          .where('timetableId', '=', s.id)
          .where('memberCardId', '=', cards[j])
          .where('status', '=', ReservationStatus.BOOKED)
          .executeTakeFirstOrThrow();
        ids.push(r.id);
      }
      for (const id of ids.slice(p.seats.length)) await ok('cancel/reservation', { id });
      bookings[p.key] = ids.slice(0, p.seats.length);
      await e.database.db
        .updateTable('timetable')
        .set({ startTime: p.start, endTime: addMinutes(p.start, 60), isOnline: p.online ? 1 : 0 })
        .where('id', '=', s.id)
        .execute();
    }
    // Who came: the desk marks 到店 (a manager may mark old classes).
    for (const p of PLANS) {
      for (const id of bookings[p.key].slice(0, p.came))
        await ok('mark/attendance', { reservationId: id, attended: 1 });
    }
    await ok('cancel/timetable', { id: tid.del, confirmEnded: true });
    // The substitute: C takes A's class of the 30th.
    await ok('update/timetable/reservable/count', {
      id: tid.s1,
      teacherId: teachers.C.id,
      date: '2025-10-30',
      time: '09:00',
      count: 20,
      areaId: null,
      bookId: null,
    });
    // The rules (see expectedPay).
    const rule = (o: Record<string, unknown>) => ok('update/teacher/pay/rule', o);
    await rule({ teacherId: teachers.A.id, courseId: null, kind: 'per_class', amount: 8000, fromDate: '2025-09-01' });
    await rule({
      teacherId: teachers.A.id,
      courseId: null,
      kind: 'per_head_came',
      amount: 2000,
      minimum: 5000,
      fromDate: '2025-10-16',
    });
    await rule({
      teacherId: teachers.A.id,
      courseId: courses.spin.id,
      kind: 'tiered',
      tiers: [
        { minHeads: 11, amount: 15000 },
        { minHeads: 1, amount: 8000 },
        { minHeads: 6, amount: 12000 },
      ],
      fromDate: '2025-10-01',
    });
    await rule({
      teacherId: teachers.B.id,
      courseId: null,
      kind: 'per_head_booked',
      amount: 1500,
      fromDate: '2025-10-01',
    });
    // A rule B only gets from next month on: not applied in October.
    await rule({ teacherId: teachers.B.id, courseId: null, kind: 'per_class', amount: 99900, fromDate: '2025-11-01' });
    await rule({ teacherId: teachers.C.id, courseId: null, kind: 'per_class', amount: 10000, fromDate: '2025-01-01' });
    await ok('add/teacher/pay/adjustment', {
      teacherId: teachers.A.id,
      month: MONTH,
      amount: 5000,
      reason: '交通补贴',
    });
    await ok('add/teacher/pay/adjustment', {
      teacherId: teachers.B.id,
      month: MONTH,
      amount: -2000,
      reason: '迟到扣款',
    });
  }, 180_000);

  /** The statement the test expects for October, from the plans alone. */
  function expectedStatement() {
    const byTeacher = new Map<number, { rows: { tid: number; amount: number; booked: number; came: number }[] }>();
    for (const p of PLANS) {
      if (p.key === 'del' || !p.start.startsWith(MONTH)) continue;
      const who = p.key === 's1' ? 'C' : p.teacher;
      const booked = p.seats.reduce((s, n) => s + n, 0);
      const came = p.seats.slice(0, p.came).reduce((s, n) => s + n, 0);
      const t = byTeacher.get(teachers[who].id) ?? { rows: [] };
      t.rows.push({
        tid: tid[p.key],
        booked,
        came,
        amount: expectedPay(who, p.course, p.start.slice(0, 10), booked, came),
      });
      byTeacher.set(teachers[who].id, t);
    }
    return byTeacher;
  }

  it('pays each class of the month by its rule: per class, per head came, per head booked, tiers, minimum, a mid-month change', async () => {
    const got = await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH });
    expect(got.closed).toBe(false);
    const want = expectedStatement();
    expect(got.teachers.map((t) => t.teacherId).sort()).toEqual([...want.keys()].sort());
    for (const t of got.teachers) {
      const rows = want.get(t.teacherId)!.rows.sort((a, b) => a.tid - b.tid);
      expect(
        t.rows
          .map((r) => ({ tid: r.tid, booked: r.booked, came: r.came, amount: r.amount }))
          .sort((a, b) => a.tid - b.tid),
        `teacher ${t.teacherName}`,
      ).toEqual(rows);
      expect(t.classTotal).toBe(rows.reduce((s, r) => s + r.amount, 0));
      expect(t.total).toBe(t.classTotal + t.adjustmentTotal);
      // In time order.
      expect(t.rows.map((r) => `${r.date} ${r.time}`)).toEqual(t.rows.map((r) => `${r.date} ${r.time}`).sort());
    }
    const a = got.teachers.find((t) => t.teacherId === teachers.A.id)!;
    // Spot checks with the figures written out.
    const row = (key: string) => got.teachers.flatMap((t) => t.rows).find((r) => r.tid === tid[key])!;
    expect(row('a1')).toMatchObject({ booked: 3, came: 2, amount: 8000, date: '2025-10-02', time: '09:00' });
    expect(row('a7').amount).toBe(8000); // the day before the change
    expect(row('a4').amount).toBe(5000); // the change's own day: 1 head x 20 元, at least 50 元
    expect(row('a6').amount).toBe(8000); // 4 heads x 20 元
    expect(row('a2').amount).toBe(8000); // spin, 3 heads: the first tier
    expect(row('a3').amount).toBe(12000); // 6 heads
    expect(row('a5').amount).toBe(15000); // 12 heads: the course's own rule beats A's newer rule for all courses
    expect(row('b1')).toMatchObject({ booked: 5, came: 1, amount: 7500 }); // a booking of 2 seats counts 2 heads
    expect(row('b2')).toMatchObject({ online: 1, amount: 4500 }); // online counts like in the studio
    expect(row('d1')).toMatchObject({ amount: 0, ruleId: null, rule: '未设置规则' });
    expect(row('a5').rule).toContain('按人数阶梯');
    expect(a.adjustments).toMatchObject([{ amount: 5000, reason: '交通补贴' }]);
    expect(a.classTotal).toBe(8000 * 4 + 12000 + 15000 + 5000);
    expect(a.total).toBe(a.classTotal + 5000);
    const b = got.teachers.find((t) => t.teacherId === teachers.B.id)!;
    expect(b).toMatchObject({ classTotal: 12000, adjustmentTotal: -2000, total: 10000 });
    expect(got.total).toBe(got.teachers.reduce((s, t) => s + t.total, 0));
    // The deleted class and the classes of September and November are not listed.
    const listed = got.teachers.flatMap((t) => t.rows.map((r) => r.tid));
    for (const key of ['del', 'x1', 'x2']) expect(listed).not.toContain(tid[key]);
  });

  it('pays a substitute: the class goes to the teacher of the session at its start', async () => {
    const got = await ok<TeacherPayStatement>('query/teacher/pay/statement', {
      month: MONTH,
      teacherId: teachers.C.id,
    });
    expect(got.teachers).toHaveLength(1);
    expect(got.teachers[0]).toMatchObject({ teacherId: teachers.C.id, teacherName: '赵老师', total: 10000 });
    expect(got.teachers[0].rows.map((r) => r.tid)).toEqual([tid.s1]);
    const a = await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH, teacherId: teachers.A.id });
    expect(a.teachers[0].rows.map((r) => r.tid)).not.toContain(tid.s1);
  });

  it('lists the rules with their words, and a teacher sees only their own statement', async () => {
    const rules = await ok<any[]>('query/teacher/pay/rule/list', { teacherId: teachers.A.id });
    expect(rules.map((r) => [r.courseName, r.kind, r.fromDate])).toEqual([
      [null, 'per_class', '2025-09-01'],
      ['动感单车', 'tiered', '2025-10-01'],
      [null, 'per_head_came', '2025-10-16'],
    ]);
    expect(rules[1].tiers.map((t: { minHeads: number }) => t.minHeads)).toEqual([1, 6, 11]);
    expect(rules[2].summary).toBe('按到课人数 20.00 元/人，保底 50.00 元');
    // Set twice for the same teacher, scope and day: changed, not added; then deleted.
    const ruleOfD = { teacherId: teachers.D.id, courseId: courses.yoga.id, fromDate: '2026-01-01' };
    await ok('update/teacher/pay/rule', { ...ruleOfD, kind: 'per_class', amount: 100 });
    await ok('update/teacher/pay/rule', { ...ruleOfD, kind: 'per_head_came', amount: 300 });
    const ofD = await ok<any[]>('query/teacher/pay/rule/list', { teacherId: teachers.D.id });
    expect(ofD.map((r) => [r.kind, r.amount, r.courseName])).toEqual([['per_head_came', 300, '瑜伽']]);
    await ok('delete/teacher/pay/rule', ruleOfD);
    expect(await ok('query/teacher/pay/rule/list', { teacherId: teachers.D.id })).toEqual([]);

    const e = env();
    const teacherA = await staffClient(e, 'teacher', teachers.A.id);
    const own = await teacherA.ok<TeacherPayStatement>(`${STORE}/query/teacher/pay/statement`, { month: MONTH });
    expect(own.teachers.map((t) => t.teacherId)).toEqual([teachers.A.id]);
    // Naming another teacher still answers their own statement only.
    const asked = await teacherA.ok<TeacherPayStatement>(`${STORE}/query/teacher/pay/statement`, {
      month: MONTH,
      teacherId: teachers.B.id,
    });
    expect(asked.teachers.map((t) => t.teacherId)).toEqual([teachers.A.id]);
    expect(JSON.stringify(asked)).not.toContain('李老师');
    for (const [path, body] of [
      ['query/teacher/pay/rule/list', {}],
      ['update/teacher/pay/rule', { teacherId: teachers.A.id, kind: 'per_class', amount: 1, fromDate: '2026-01-01' }],
      ['add/teacher/pay/adjustment', { teacherId: teachers.A.id, month: MONTH, amount: 100, reason: '自己加' }],
      ['close/teacher/pay/month', { month: MONTH }],
      ['query/sales/commission', { month: MONTH }],
    ] as const) {
      const a = await teacherA.call(`${STORE}/${path}`, body);
      expect({ path, status: a.status, msg: a.msg }).toEqual({ path, status: 403, msg: Msg.forbiddenRole });
    }
    const desk = await staffClient(e, 'desk');
    const d = await desk.call(`${STORE}/query/teacher/pay/statement`, { month: MONTH });
    expect([d.status, d.msg]).toEqual([403, Msg.forbiddenRole]);
  });

  it('refuses bad input with a 4xx and a Chinese message', async () => {
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['query/teacher/pay/statement', { month: '2025-13' }, 400, TeacherPayMsg.month],
      ['query/teacher/pay/statement', { month: '2025-1' }, 400, TeacherPayMsg.month],
      ['query/teacher/pay/statement', { month: MONTH, teacherId: env().other.staffId + 100000 }, 404, '老师不存在'],
      [
        'update/teacher/pay/rule',
        { teacherId: teachers.A.id, kind: 'tiered', tiers: [], fromDate: '2026-01-01' },
        400,
        TeacherPayMsg.tiersNeeded,
      ],
      [
        'update/teacher/pay/rule',
        {
          teacherId: teachers.A.id,
          kind: 'tiered',
          tiers: [
            { minHeads: 3, amount: 1 },
            { minHeads: 3, amount: 2 },
          ],
          fromDate: '2026-01-01',
        },
        400,
        TeacherPayMsg.tiersDuplicate,
      ],
      [
        'update/teacher/pay/rule',
        { teacherId: teachers.A.id, kind: 'per_class', amount: -1, fromDate: '2026-01-01' },
        400,
        TeacherPayMsg.amount,
      ],
      [
        'update/teacher/pay/rule',
        { teacherId: teachers.A.id, kind: 'per_class', amount: 10.5, fromDate: '2026-01-01' },
        400,
        TeacherPayMsg.amount,
      ],
      [
        'update/teacher/pay/rule',
        { teacherId: teachers.A.id, kind: 'hourly', fromDate: '2026-01-01' },
        400,
        TeacherPayMsg.chooseKind,
      ],
      [
        'update/teacher/pay/rule',
        { teacherId: teachers.A.id, kind: 'per_class', fromDate: '2026-02-30' },
        400,
        TeacherPayMsg.fromDate,
      ],
      [
        'add/teacher/pay/adjustment',
        { teacherId: teachers.A.id, month: MONTH, amount: 0, reason: '零' },
        400,
        TeacherPayMsg.adjustment,
      ],
      [
        'add/teacher/pay/adjustment',
        { teacherId: teachers.A.id, month: MONTH, amount: 100, reason: '  ' },
        400,
        TeacherPayMsg.reason,
      ],
      ['reopen/teacher/pay/month', { month: MONTH, reason: '' }, 400, TeacherPayMsg.reopenReason],
      ['update/sales/commission/rate', { staffId: env().staffId, rate: 101 }, 400, TeacherPayMsg.rate],
      ['update/sales/commission/rate', { staffId: env().staffId, rate: 5.555 }, 400, TeacherPayMsg.rate],
      ['update/sales/commission/rate', { staffId: env().other.staffId, rate: 5 }, 404, '员工不存在'],
    ];
    for (const [path, body, status, msg] of cases) {
      const a = await call(path, body);
      expect({ path, body, status: a.status, msg: a.msg }).toEqual({ path, body, status, msg });
    }
    // Another store's teacher and course are not found here.
    const theirs = await env().other.factory.teacher();
    const theirCourse = await env().other.factory.course();
    const rule = { kind: 'per_class', amount: 100, fromDate: '2026-01-01' };
    expect((await call('update/teacher/pay/rule', { teacherId: theirs.id, ...rule })).status).toBe(404);
    expect(
      (await call('update/teacher/pay/rule', { teacherId: teachers.A.id, courseId: theirCourse.id, ...rule })).status,
    ).toBe(404);
    expect((await call('query/teacher/pay/statement', { month: MONTH, teacherId: theirs.id })).status).toBe(404);
  });

  describe('closing the month', () => {
    let before: TeacherPayStatement;
    beforeAll(async () => {
      before = await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH });
    });

    it('refuses a month not yet ended, closes an ended one once', async () => {
      const thisMonth = localDateTime('Asia/Shanghai').slice(0, 7);
      const a = await call('close/teacher/pay/month', { month: thisMonth });
      expect([a.status, a.msg]).toEqual([409, TeacherPayMsg.notEnded(thisMonth)]);
      // 孙老师 has no rule: closing names his class and waits for the manager's confirmation.
      const unconfirmed = await call('close/teacher/pay/month', { month: MONTH });
      expect([unconfirmed.status, unconfirmed.msg]).toEqual([
        409,
        TeacherPayMsg.unruledClasses(MONTH, ['10-08 11:00 动感单车（孙老师）']),
      ]);
      const notYet = await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH });
      expect(notYet.closed).toBe(false);
      await ok('close/teacher/pay/month', { month: MONTH, confirmed: true });
      const entry = await env()
        .database.db.selectFrom('auditLog')
        .select('summary')
        .where('summary', 'like', `结算关闭 ${MONTH} 课时费%`)
        .executeTakeFirstOrThrow();
      expect(entry.summary).toContain('10-08 11:00 动感单车（孙老师）');
      const again = await call('close/teacher/pay/month', { month: MONTH });
      expect([again.status, again.msg]).toEqual([409, TeacherPayMsg.alreadyClosed(MONTH)]);
      const closed = await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH });
      expect(closed.closed).toBe(true);
      expect(closed.closing?.closedBy).toBeTruthy();
      expect(closed.teachers).toEqual(before.teachers);
      const months = await ok<any[]>('query/pay/closed/month/list');
      expect(months).toContainEqual(expect.objectContaining({ kind: 'teacher', month: MONTH }));
    });

    it("refuses a new teacher or time for a closed month's classes, and moving a class into it", async () => {
      const edit = (id: number, teacherId: number, date: string, time: string, count = 20) =>
        call('update/timetable/reservable/count', { id, teacherId, date, time, count, areaId: null, bookId: null });
      const msg = TeacherPayMsg.sessionInClosedMonth(MONTH);
      let a = await edit(tid.a1, teachers.B.id, '2025-10-02', '09:00');
      expect([a.status, a.msg]).toEqual([409, msg]);
      a = await edit(tid.a1, teachers.A.id, '2025-11-02', '09:00');
      expect([a.status, a.msg]).toEqual([409, msg]);
      a = await edit(tid.x2, teachers.A.id, '2025-10-31', '09:00');
      expect([a.status, a.msg]).toEqual([409, msg]);
      // What the statement does not read may still change: the capacity.
      await ok('update/timetable/reservable/count', {
        id: tid.a1,
        teacherId: teachers.A.id,
        date: '2025-10-02',
        time: '09:00',
        count: 15,
        areaId: null,
        bookId: null,
      });
      // The November class may move within November.
      expect((await edit(tid.x2, teachers.A.id, '2025-11-02', '09:00')).code).toBe(0);
      const row = await env()
        .database.db.selectFrom('timetable')
        .selectAll()
        .where('id', '=', tid.a1)
        .executeTakeFirstOrThrow();
      expect([row.teacherId, row.startTime]).toEqual([teachers.A.id, '2025-10-02 09:00:00']);
    });

    it('keeps the closed statement whatever happens to its classes, rules and adjustments since', async () => {
      // Attendance taken back, a booking cancelled (and refunded), a class deleted: all in October.
      await ok('mark/attendance', { reservationId: bookings.a6[0], attended: 0 });
      await ok('cancel/reservation', { id: bookings.b1[0], confirmEnded: true });
      await ok('cancel/timetable', { id: tid.a3, confirmEnded: true });
      // Rules: one starting in the closed month is refused, one after it is not.
      const r = await call('update/teacher/pay/rule', {
        teacherId: teachers.A.id,
        courseId: null,
        kind: 'per_class',
        amount: 1,
        fromDate: '2025-10-20',
      });
      expect([r.status, r.msg]).toEqual([409, TeacherPayMsg.ruleInClosedMonth(MONTH)]);
      const del = await call('delete/teacher/pay/rule', {
        teacherId: teachers.A.id,
        courseId: null,
        fromDate: '2025-10-16',
      });
      expect([del.status, del.msg]).toEqual([409, TeacherPayMsg.ruleInClosedMonth(MONTH)]);
      await ok('update/teacher/pay/rule', {
        teacherId: teachers.C.id,
        courseId: null,
        kind: 'per_class',
        amount: 1,
        fromDate: '2025-11-01',
      });
      const adj = await call('add/teacher/pay/adjustment', {
        teacherId: teachers.A.id,
        month: MONTH,
        amount: 1,
        reason: '补',
      });
      expect([adj.status, adj.msg]).toEqual([409, TeacherPayMsg.monthClosed(MONTH)]);
      // Rates of the staff, and the teachers' names, may change too.
      await env()
        .database.db.updateTable('teacher')
        .set({ name: '王老师改名' })
        .where('id', '=', teachers.A.id)
        .execute();
      const after = await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH });
      expect(after.teachers).toEqual(before.teachers);
      expect(after.total).toBe(before.total);
      await env().database.db.updateTable('teacher').set({ name: '王老师' }).where('id', '=', teachers.A.id).execute();
      // A teacher reads their own part of the snapshot.
      const teacherB = await staffClient(env(), 'teacher', teachers.B.id);
      const own = await teacherB.ok<TeacherPayStatement>(`${STORE}/query/teacher/pay/statement`, { month: MONTH });
      expect(own.teachers).toEqual(before.teachers.filter((t) => t.teacherId === teachers.B.id));
      expect(own.closed).toBe(true);
    });

    it('is reopened only by a manager with a reason, in the audit log; then it is computed again', async () => {
      const e = env();
      const teacherA = await staffClient(e, 'teacher', teachers.A.id);
      const t = await teacherA.call(`${STORE}/reopen/teacher/pay/month`, { month: MONTH, reason: '想改' });
      expect([t.status, t.msg]).toEqual([403, Msg.forbiddenRole]);
      const desk = await staffClient(e, 'desk');
      expect((await desk.call(`${STORE}/reopen/teacher/pay/month`, { month: MONTH, reason: '想改' })).status).toBe(403);
      await ok('reopen/teacher/pay/month', { month: MONTH, reason: '漏记一节代课' });
      const entry = await e.database.db
        .selectFrom('auditLog')
        .selectAll()
        .where('storeId', '=', e.storeId)
        .where('call', '=', `${STORE}/reopen/teacher/pay/month`)
        .executeTakeFirstOrThrow();
      expect(entry.summary).toContain('漏记一节代课');
      expect(entry.staffId).toBe(e.staffId);
      const again = await call('reopen/teacher/pay/month', { month: MONTH, reason: '再开' });
      expect([again.status, again.msg]).toEqual([409, TeacherPayMsg.notClosed(MONTH)]);
      const now = await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH });
      expect(now.closed).toBe(false);
      const row = (key: string) => now.teachers.flatMap((x) => x.rows).find((r) => r.tid === tid[key]);
      expect(row('a6')).toMatchObject({ came: 3, amount: 6000 }); // one came less: 3 x 20 元
      expect(row('b1')).toMatchObject({ booked: 4, amount: 6000 }); // one seat less: 4 x 15 元
      expect(row('a3')).toBeUndefined(); // deleted
      // Edits are allowed again.
      expect(
        (
          await call('update/timetable/reservable/count', {
            id: tid.a1,
            teacherId: teachers.B.id,
            date: '2025-10-02',
            time: '09:00',
            count: 15,
            areaId: null,
            bookId: null,
          })
        ).code,
      ).toBe(0);
      expect(await checkInvariants(e.database.db, e.storeId)).toEqual([]);
    });
  });

  describe('sales commission', () => {
    let s1: { id: number; client: Client };
    let s2: { id: number; client: Client };
    const staffIdOf = async (c: Client) => {
      const me = await c.ok('/api/auth/me');
      expect(me.id).toBeGreaterThan(0);
      return me.id as number;
    };
    const thisMonth = () => localDateTime('Asia/Shanghai').slice(0, 7);

    beforeAll(async () => {
      const e = env();
      const c1 = await staffClient(e, 'desk');
      const c2 = await staffClient(e, 'desk');
      s1 = { id: await staffIdOf(c1), client: c1 };
      s2 = { id: await staffIdOf(c2), client: c2 };
      const f = e.factory;
      const product = await f.cardProduct({ cardName: '年卡' });
      const money = await f.cardProduct({ cardName: '储值卡', bigType: 2, perCount: 5000 });
      const m = async (name: string) => (await f.member({ name })).id;
      const sell = (c: Client, mid: number, cardId: number, amount: number) =>
        c.ok<{ id: number }>(`${STORE}/insert/member/card`, {
          mid,
          cardId,
          totalCount: 10,
          expireTime: null,
          payment: { amount, method: 'wechat', remark: null },
        });
      // S1: two cards (one refunded whole by the manager) and a top-up.
      const c11 = await sell(c1, await m('买卡甲'), product.id, 100000);
      await c1.ok(`${STORE}/update/member/card/topup`, {
        id: c11.id,
        amount: 5,
        payment: { amount: 50000, method: 'cash', remark: null },
      });
      const c12 = await sell(c1, await m('买卡乙'), product.id, 30000);
      await ok('refund/member/card', { id: c12.id, amount: 30000, method: 'cash', remark: '不想练了' });
      // S2: a money card and a top-up of it, half of which the manager pays back.
      const c21 = await sell(c2, await m('买卡丙'), money.id, 200000);
      await c2.ok(`${STORE}/update/member/card/topup`, {
        id: c21.id,
        amount: 40000,
        payment: { amount: 40000, method: 'alipay', remark: null },
      });
      const topup = await e.database.db
        .selectFrom('cardLedger')
        .select('id')
        .where('memberCardId', '=', c21.id)
        .where('kind', '=', 'topup')
        .executeTakeFirstOrThrow();
      await ok('refund/member/card', {
        id: c21.id,
        topupId: topup.id,
        amount: 20000,
        method: 'alipay',
        remark: '多充了',
      });
      // The manager sells one too (no rate set: nothing earned).
      await ok('insert/member/card', {
        mid: await m('买卡丁'),
        cardId: product.id,
        totalCount: 10,
        expireTime: null,
        payment: { amount: 8800, method: 'cash', remark: null },
      });
      // Online: a member's own order has no seller; the desk's 扫码收款 order names S2.
      const now = localDateTime('Asia/Shanghai');
      for (const [staffId, amount] of [
        [null, 66600],
        [s2.id, 12300],
      ] as const) {
        const mid = await m(staffId ? '扫码买卡' : '自助买卡');
        const card = await f.memberCard(mid, product.id);
        const order = await e.database.db
          .insertInto('payOrder')
          .values({
            storeId: e.storeId,
            orderNo: `T30${mid}${amount}`,
            memberId: mid,
            kind: 'card',
            productId: product.id,
            memberCardId: card.id,
            amount,
            method: 'wechat_native',
            provider: 'wechat',
            description: '年卡',
            createdAt: now,
            expireAt: now,
            paidAt: now,
            providerTradeId: null,
            closedAt: null,
            staffId,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await e.database.db
          .insertInto('cardPayment')
          .values({
            storeId: e.storeId,
            memberCardId: card.id,
            ledgerId: null,
            kind: 'sale',
            amount,
            method: 'wechat',
            staffId: null,
            remark: null,
            createdAt: now,
            refundOf: null,
            channel: 'online',
            payOrderId: order.id,
          })
          .execute();
      }
      await ok('update/sales/commission/rate', { staffId: s1.id, rate: 10 });
      await ok('update/sales/commission/rate', { staffId: s2.id, rate: 5.5 });
    }, 120_000);

    it('pays each seller a share of what they sold, less the refunds of what they sold', async () => {
      const rows = await ok<CommissionRow[]>('query/sales/commission', { month: thisMonth() });
      const of = (id: number) => rows.find((r) => r.staffId === id)!;
      // S1: 1000 + 500 + 300 sold, 300 paid back (refunded by the manager, counted against S1): 10 %.
      expect(of(s1.id)).toMatchObject({ sales: 180000, refunds: 30000, rate: 10, commission: 15000 });
      // S2: 2000 + 400 + 123 (扫码收款) sold, 200 paid back: 5.5 % of 2323 元 = 127.765 元.
      expect(of(s2.id)).toMatchObject({ sales: 252300, refunds: 20000, rate: 5.5, commission: 12777 });
      expect(of(env().staffId)).toMatchObject({ sales: 8800, refunds: 0, rate: 0, commission: 0 });
      expect(rows.map((r) => r.staffId).sort()).toEqual([s1.id, s2.id, env().staffId].sort());
      // Each payment is listed under its seller; the member's own online order under nobody.
      expect(of(s1.id).items.map((i) => [i.kind, i.amount])).toEqual([
        ['sale', 100000],
        ['topup', 50000],
        ['sale', 30000],
        ['refund', 30000],
      ]);
      expect(JSON.stringify(rows)).not.toContain('自助买卡');
      expect(of(s2.id).items.find((i) => i.channel === 'online')).toMatchObject({
        memberName: '扫码买卡',
        amount: 12300,
      });
      // The sales figure agrees with the reports' money received (the same read).
      const overview = await ok('query/report/overview', {
        fromDate: `${thisMonth()}-01`,
        toDate: localDateTime('Asia/Shanghai').slice(0, 10),
      });
      const sold = rows.reduce((s, r) => s + r.sales - r.refunds, 0);
      expect(overview.moneyReceived - 66600).toBe(sold);
    });

    it('lists the staff with their rates; a closed month keeps its commission until reopened', async () => {
      const rates = await ok<any[]>('query/sales/commission/rate/list');
      expect(rates.find((r) => r.staffId === s2.id)).toMatchObject({ rate: 5.5, role: 'desk' });
      // The month's money, moved back to October 2025 (a month that has ended).
      const e = env();
      await e.database.db
        .updateTable('cardPayment')
        .set({ createdAt: '2025-10-15 12:00:00' })
        .where('storeId', '=', e.storeId)
        .execute();
      const live = await ok<CommissionRow[]>('query/sales/commission', { month: MONTH });
      expect(live.find((r) => r.staffId === s1.id)?.commission).toBe(15000);
      await ok('close/sales/commission/month', { month: MONTH });
      await ok('update/sales/commission/rate', { staffId: s1.id, rate: 20 });
      const closed = await ok<CommissionRow[]>('query/sales/commission', { month: MONTH });
      expect(closed).toEqual(live);
      // Teacher pay of the month is a separate closing.
      expect((await ok<TeacherPayStatement>('query/teacher/pay/statement', { month: MONTH })).closed).toBe(false);
      const bad = await call('reopen/sales/commission/month', { month: MONTH });
      expect(bad.status).toBe(400);
      await ok('reopen/sales/commission/month', { month: MONTH, reason: '提成比例调整' });
      const reopened = await ok<CommissionRow[]>('query/sales/commission', { month: MONTH });
      expect(reopened.find((r) => r.staffId === s1.id)).toMatchObject({ rate: 20, commission: 30000 });
      const nothing = await ok<CommissionRow[]>('query/sales/commission', { month: '2025-09' });
      expect(nothing).toEqual([]);
    });
  });
});
