import { bookLesson, insertTimetable, LessonBookingMsg, Msg, type CallDef } from '@studio/contract';
import { expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { describeEachDb, moreInstances, tally, type Answer } from '../../../test/harness.ts';
import { equipment, lessonType } from '../../../test/lesson-kit.ts';

const DAY = '2099-04-06';

/**
 * Claims raced for at once: 100 members booking lessons through three app instances on one
 * PostgreSQL (one instance on SQLite, its one writer), each answer a success or a refusal in words.
 */
describeEachDb('lessons: one teacher, room or machine claimed once, across instances', (env) => {
  // Three instances of their own on PostgreSQL, five connections each (the suite's own instance
  // and its pool of 30 stay out of the race): the races run 15 transactions at once.
  const all = moreInstances(env, 3, { poolMax: 5 });
  const racers = () => (all.clients.length > 1 ? all.clients.slice(1) : all.clients);
  const f = () => env().factory;
  const db = () => env().database.db;
  const pick = (i: number) => racers()[i % racers().length];
  const send = (i: number, call: CallDef, body: unknown) => pick(i).call(call.path, body);
  /** Half the bookings at an offered time as members and the desk make them, half by the desk with a reason (past the finder, straight to the clash rule). */
  const lesson = (i: number, body: Record<string, unknown>) =>
    send(i, bookLesson, { date: DAY, ...body, ...(i % 2 ? { outsideReason: '前台加课' } : {}) });
  /** The refusals of the losers: the clash rule's words, or (read after the winner's commit) not offered. */
  const refusedOnly = (answers: Answer[], allowed: string[]) =>
    answers.filter((a) => a.code !== 0 && !(a.status === 409 && allowed.some((m) => a.msg.startsWith(m))));

  /** `n` members, each with a lesson pack of `productId`. */
  async function members(productId: number, n: number) {
    const out: { mid: number; mcId: number }[] = [];
    for (let i = 0; i < n; i++) {
      const m = await f().member();
      const c = await f().memberCard(m.id, productId);
      out.push({ mid: m.id, mcId: c.id });
    }
    return out;
  }

  /** Every card's use: a success took one lesson, a refusal nothing. */
  async function lessonsTaken(cardIds: number[]) {
    const rows = await db().selectFrom('memberCard').select('usedCount').where('id', 'in', cardIds).execute();
    return rows.reduce((n, r) => n + Number(r.usedCount), 0);
  }

  it('100 members racing for one teacher’s same hour: exactly one lesson', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), { cardIds: [pack.id], teachers: [{ id: teacher.id }] });
    const ms = await members(pack.id, 100);
    const answers = await Promise.all(
      ms.map((m, i) => lesson(i, { courseId: type.id, teacherId: teacher.id, time: '10:00', members: [m] })),
    );
    const { ok, ...refused } = tally(answers);
    expect(ok).toBe(1);
    expect(Object.values(refused).reduce((n, x) => n + x, 0)).toBe(99);
    expect(
      Object.keys(refused).every(
        (k) => k === `409 ${Msg.teacherConflict(`${DAY} 10:00-11:00`)}` || k === `409 ${LessonBookingMsg.notOffered}`,
      ),
    ).toBe(true);
    expect(await lessonsTaken(ms.map((m) => m.mcId))).toBe(1);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('overlapping hours of different lengths and a group class created at once: exactly one claim', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    // 30, 60 and 90 minutes, at starts that all meet at 10:45.
    const slots: { minutes: number; time: string }[] = [
      { minutes: 30, time: '10:45' },
      { minutes: 60, time: '10:00' },
      { minutes: 90, time: '10:15' },
      { minutes: 60, time: '10:30' },
    ];
    const types = new Map<number, number>();
    for (const minutes of [30, 60, 90]) {
      const t = await lessonType(f(), {
        duration: minutes,
        cardIds: [pack.id],
        teachers: [{ id: teacher.id }],
        course: { slotStep: 15 },
      });
      types.set(minutes, t.id);
    }
    const group = await f().course({ duration: 60, cardIds: [pack.id] });
    const ms = await members(pack.id, 100);
    const calls = ms.map((m, i) => {
      const s = slots[i % slots.length];
      return () =>
        send(i, bookLesson, {
          courseId: types.get(s.minutes),
          teacherId: teacher.id,
          date: DAY,
          time: s.time,
          members: [m],
        });
    });
    calls.splice(50, 0, () =>
      send(50, insertTimetable, { courseId: group.id, teacherId: teacher.id, date: DAY, time: '10:40' }),
    );
    const answers = await Promise.all(calls.map((c) => c()));
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    expect(refusedOnly(answers, [Msg.teacherConflict('').slice(0, 5), LessonBookingMsg.notOffered])).toEqual([]);
    const live = await db()
      .selectFrom('timetable')
      .select('id')
      .where('teacherId', '=', teacher.id)
      .where('deleted', '=', 0)
      .execute();
    expect(live).toHaveLength(1);
    expect(await lessonsTaken(ms.map((m) => m.mcId))).toBe(1 - (await groupWon(group.id)));
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  /** 1 when the group class won the race (it books no card), else 0. */
  async function groupWon(courseId: number) {
    const rows = await db()
      .selectFrom('timetable')
      .select('id')
      .where('courseId', '=', courseId)
      .where('deleted', '=', 0)
      .execute();
    return rows.length;
  }

  /** A 1对1 type ten teachers give, paid by a lesson pack, needing `needs` (a room, machines). */
  async function tenTeachers(needs: { roomIds?: number[]; equipment?: { id: number; perMember: number }[] }) {
    const teachers: { id: number }[] = [];
    for (let i = 0; i < 10; i++) teachers.push(await f().teacher());
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), { cardIds: [pack.id], teachers: teachers.map((t) => ({ id: t.id })), ...needs });
    return { teachers, pack, type };
  }

  it('one room, ten teachers, 100 members at once: exactly one lesson in the room', async () => {
    const room = await f().area();
    const { teachers, pack, type } = await tenTeachers({ roomIds: [room.id] });
    const ms = await members(pack.id, 100);
    const answers = await Promise.all(
      ms.map((m, i) => lesson(i, { courseId: type.id, teacherId: teachers[i % 10].id, time: '10:00', members: [m] })),
    );
    expect(answers.filter((a) => a.code === 0)).toHaveLength(1);
    const words = [Msg.teacherConflict('').slice(0, 5), LessonBookingMsg.noRoom, LessonBookingMsg.notOffered];
    expect(refusedOnly(answers, [...words, `${room.name}在`])).toEqual([]);
    expect(await lessonsTaken(ms.map((m) => m.mcId))).toBe(1);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('three machines, ten teachers, 100 members at once: exactly three lessons use them', async () => {
    const reformer = await equipment(f(), 3);
    const { teachers, pack, type } = await tenTeachers({ equipment: [{ id: reformer.id, perMember: 1 }] });
    const ms = await members(pack.id, 100);
    const answers = await Promise.all(
      ms.map((m, i) =>
        lesson(i, {
          courseId: type.id,
          teacherId: teachers[i % 10].id,
          time: Math.floor(i / 2) % 2 ? '10:00' : '10:30',
          members: [m],
        }),
      ),
    );
    expect(answers.filter((a) => a.code === 0)).toHaveLength(3);
    const words = [Msg.teacherConflict('').slice(0, 5), LessonBookingMsg.notOffered, reformer.name];
    expect(refusedOnly(answers, words)).toEqual([]);
    expect(await lessonsTaken(ms.map((m) => m.mcId))).toBe(3);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });
});
