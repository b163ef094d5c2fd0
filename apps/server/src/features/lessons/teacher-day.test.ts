import {
  bookLesson,
  insertTeacherHoursException,
  insertTimetable,
  lessonFreeSlots,
  teacherDayHours,
  updateTeacherWeeklyHours,
  type ResOf,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb, staffClient } from '../../../test/harness.ts';
import { lessonType } from '../../../test/lesson-kit.ts';

const DAY = '2099-03-09';

/**
 * The teachers' day view's hours (issue 43 item 6): each teacher's working spans of a day and the
 * part of them free, by the finder's one rule (hours and extra hours, less time off, less their
 * group classes and lessons); a teacher account sees only their own.
 */
describeEachDb('lessons: a teacher’s working and free hours of a day', (env) => {
  const f = () => env().factory;

  it('work = hours less time off; free = work less group classes and lessons, the finder’s starts inside it; a teacher sees only theirs', async () => {
    const teacher = await f().teacher();
    const other = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), { cardIds: [pack.id], teachers: [{ id: teacher.id }] });
    for (const t of [teacher, other]) {
      await env().client.ok(updateTeacherWeeklyHours.path, {
        teacherId: t.id,
        weekly: [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => [
          { weekday, startTime: '09:00', endTime: '12:00' },
          { weekday, startTime: '14:00', endTime: '18:00' },
        ]),
      });
    }
    await env().client.ok(insertTeacherHoursException.path, {
      teacherId: teacher.id,
      date: DAY,
      kind: 'off',
      startTime: '16:00',
      endTime: '17:00',
      reason: '看牙',
    });
    const group = await f().course({ cardIds: [pack.id] });
    await env().client.ok(insertTimetable.path, {
      courseId: group.id,
      teacherId: teacher.id,
      date: DAY,
      time: '10:00',
    });
    const member = await f().member();
    const card = await f().memberCard(member.id, pack.id);
    await env().client.ok(bookLesson.path, {
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '14:00',
      members: [{ mid: member.id, mcId: card.id }],
    });

    const day = await env().client.ok<ResOf<typeof teacherDayHours>>(teacherDayHours.path, { date: DAY });
    expect(day.find((t) => t.teacherId === teacher.id)).toEqual({
      teacherId: teacher.id,
      work: [
        { startTime: '09:00', endTime: '12:00' },
        { startTime: '14:00', endTime: '16:00' },
        { startTime: '17:00', endTime: '18:00' },
      ],
      free: [
        { startTime: '09:00', endTime: '10:00' },
        { startTime: '11:00', endTime: '12:00' },
        { startTime: '15:00', endTime: '16:00' },
        { startTime: '17:00', endTime: '18:00' },
      ],
    });
    expect(day.find((t) => t.teacherId === other.id)?.free).toEqual([
      { startTime: '09:00', endTime: '12:00' },
      { startTime: '14:00', endTime: '18:00' },
    ]);

    // The finder's 60-minute starts lie inside the free spans, and fill them.
    const slots = await env().client.ok<ResOf<typeof lessonFreeSlots>>(lessonFreeSlots.path, {
      courseId: type.id,
      teacherIds: [teacher.id],
      from: DAY,
      to: DAY,
    });
    expect(slots[0].teachers[0].slots.map((s) => s.startTime.slice(11, 16))).toEqual([
      '09:00',
      '11:00',
      '15:00',
      '17:00',
    ]);

    // A teacher account: their own hours only.
    const own = await staffClient(env(), 'teacher', other.id);
    const theirs = await own.ok<ResOf<typeof teacherDayHours>>(teacherDayHours.path, { date: DAY });
    expect(theirs.map((t) => t.teacherId)).toEqual([other.id]);
    // Bad input: 400, never 500.
    const bad = await env().client.call(teacherDayHours.path, { date: '2099-13-40' });
    expect(bad.status).toBe(400);
  });
});
