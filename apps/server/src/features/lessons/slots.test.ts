import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import type { Db } from '../../db/index.ts';
import { findFreeSlots, type FreeSlot } from './slots.ts';

/**
 * The free-slot finder against an independent brute force: random weeks of teachers' hours, their
 * exceptions, group classes, lessons, rooms and machines are written to the database, the finder
 * asked, and its answer compared with a minute-by-minute occupancy count of the same scene.
 */

const DAY = 1440;

const dateOf = (day: number) => new Date(Date.UTC(2099, 2, 2 + day)).toISOString().slice(0, 10);
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
/** Day index (from Monday 2099-03-02) and minute of day → `YYYY-MM-DD HH:mm:ss`. */
const stamp = (abs: number) => `${dateOf(Math.floor(abs / DAY))} ${hhmm(((abs % DAY) + DAY) % DAY)}:00`;

interface Scene {
  duration: number;
  slotStep: 15 | 30;
  minNotice: number;
  maxMembers: number;
  members: number;
  teachers: number; // teachers giving the type: 0..teachers-1; one more teacher gives nothing
  rooms: number; // rooms of the type: 0..rooms-1; one more room is not the type's
  machines: { count: number; perMember: number; otherPerMember: number }[];
  hours: { teacher: number; weekday: number; start: number; end: number }[];
  exceptions: { teacher: number; day: number; kind: 'off' | 'extra'; span: { start: number; end: number } | null }[];
  /** `teacher` = teachers: the teacher who gives nothing; `room` = rooms: the other room, -1: none. */
  sessions: {
    teacher: number;
    room: number;
    start: number; // absolute minute from MONDAY 00:00 (may be the day before)
    length: number;
    kind: 'group' | 'type' | 'other';
    members: number;
    deleted: boolean;
  }[];
  fromDay: number;
  days: number;
  now: number; // absolute minute
  askTeachers: 'all' | number[];
}

const span = fc
  .tuple(fc.integer({ min: 0, max: 287 }), fc.integer({ min: 1, max: 96 }))
  .map(([a, len]) => ({ start: a * 5, end: Math.min(a * 5 + len * 15, DAY - 5) }))
  .filter((s) => s.start < s.end);

const scene: fc.Arbitrary<Scene> = fc
  .record({
    duration: fc.constantFrom(30, 45, 60, 90, 120),
    slotStep: fc.constantFrom(15 as const, 30 as const),
    minNotice: fc.constantFrom(0, 60, 24 * 60),
    maxMembers: fc.integer({ min: 1, max: 4 }),
    teachers: fc.integer({ min: 1, max: 3 }),
    rooms: fc.integer({ min: 0, max: 2 }),
    machines: fc.array(
      fc.record({
        count: fc.integer({ min: 1, max: 4 }),
        perMember: fc.integer({ min: 1, max: 2 }),
        otherPerMember: fc.integer({ min: 1, max: 2 }),
      }),
      { maxLength: 2 },
    ),
    fromDay: fc.integer({ min: 0, max: 6 }),
    days: fc.integer({ min: 1, max: 5 }),
  })
  .chain((b) =>
    fc.record({
      duration: fc.constant(b.duration),
      slotStep: fc.constant(b.slotStep),
      minNotice: fc.constant(b.minNotice),
      maxMembers: fc.constant(b.maxMembers),
      members: fc.integer({ min: 1, max: b.maxMembers }),
      teachers: fc.constant(b.teachers),
      rooms: fc.constant(b.rooms),
      machines: fc.constant(b.machines),
      fromDay: fc.constant(b.fromDay),
      days: fc.constant(b.days),
      hours: fc.array(
        fc
          .record({
            teacher: fc.integer({ min: 0, max: b.teachers - 1 }),
            weekday: fc.integer({ min: 1, max: 7 }),
            span,
          })
          .map(({ span: s, ...h }) => ({ ...h, start: s.start, end: s.end })),
        { minLength: 2, maxLength: 16 },
      ),
      exceptions: fc
        .array(
          fc.record({
            teacher: fc.integer({ min: 0, max: b.teachers - 1 }),
            day: fc.integer({ min: b.fromDay - 1, max: b.fromDay + b.days }),
            kind: fc.constantFrom('off' as const, 'extra' as const),
            span: fc.option(span, { freq: 3 }),
          }),
          { maxLength: 6 },
        )
        .map((es) => es.map((e) => (e.kind === 'extra' && !e.span ? { ...e, kind: 'off' as const } : e))),
      sessions: fc.array(
        fc.record({
          // half of them taught by the teacher who does not give the type: they hold rooms and machines only
          teacher: fc.oneof(fc.constant(b.teachers), fc.integer({ min: 0, max: b.teachers })),
          room: fc.integer({ min: -1, max: b.rooms }),
          // mostly in the day's busy hours, sometimes anywhere (across midnight, the days around)
          start: fc.oneof(
            fc
              .tuple(fc.integer({ min: b.fromDay, max: b.fromDay + b.days - 1 }), fc.integer({ min: 72, max: 264 }))
              .map(([d, q]) => d * DAY + q * 5),
            fc.integer({ min: (b.fromDay - 1) * 288, max: (b.fromDay + b.days + 1) * 288 - 1 }).map((q) => q * 5),
          ),
          length: fc.integer({ min: 3, max: 36 }).map((q) => q * 5),
          kind: fc.constantFrom('group' as const, 'type' as const, 'other' as const),
          members: fc.integer({ min: 0, max: 3 }),
          deleted: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
        }),
        { maxLength: 40 },
      ),
      now: fc.integer({ min: (b.fromDay - 1) * 288, max: (b.fromDay + b.days / 2) * 288 }).map((q) => q * 5),
      askTeachers: fc.oneof(
        fc.constant('all' as const),
        fc.subarray([...Array(b.teachers + 1).keys()], { minLength: 1 }),
      ),
    }),
  );

/** The ids a scene was written with. */
interface Written {
  teachers: number[];
  rooms: number[];
  typeId: number;
}

async function write(db: Db, storeId: number, s: Scene): Promise<Written> {
  const teachers: number[] = [];
  for (let i = 0; i <= s.teachers; i++) {
    const t = await db
      .insertInto('teacher')
      .values({ storeId, name: `老师${i}`, mobile: null, deleted: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    teachers.push(t.id);
  }
  const rooms: number[] = [];
  for (let i = 0; i <= s.rooms; i++) {
    const a = await db
      .insertInto('area')
      .values({ storeId, name: `房间${i}`, parentId: null, sort: i })
      .returning('id')
      .executeTakeFirstOrThrow();
    rooms.push(a.id);
  }
  const course = (kind: 'group' | 'one_on_one' | 'small_group', extra = {}) =>
    db
      .insertInto('course')
      .values({
        storeId,
        name: kind,
        count: 10,
        duration: 60,
        color: '#1677ff',
        genderLimit: 2,
        ageLimit: 0,
        enabled: 1,
        deleted: 0,
        kind,
        ...extra,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const type = await course('small_group', {
    duration: s.duration,
    slotStep: s.slotStep,
    minNoticeMinutes: s.minNotice,
    maxMembers: s.maxMembers,
  });
  const other = await course('one_on_one');
  const group = await course('group');
  await db
    .insertInto('lessonTeacher')
    .values(teachers.slice(0, s.teachers).map((teacherId) => ({ storeId, courseId: type.id, teacherId, level: null })))
    .execute();
  if (s.rooms) {
    await db
      .insertInto('lessonRoom')
      .values(rooms.slice(0, s.rooms).map((areaId) => ({ storeId, courseId: type.id, areaId })))
      .execute();
  }
  for (const m of s.machines) {
    const e = await db
      .insertInto('equipment')
      .values({ storeId, name: '器械', count: m.count, areaId: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('lessonEquipment')
      .values([
        { storeId, courseId: type.id, equipmentId: e.id, perMember: m.perMember },
        { storeId, courseId: other.id, equipmentId: e.id, perMember: m.otherPerMember },
      ])
      .execute();
  }
  if (s.hours.length) {
    await db
      .insertInto('teacherHours')
      .values(
        s.hours.map((h) => ({
          storeId,
          teacherId: teachers[h.teacher],
          weekday: h.weekday,
          startTime: hhmm(h.start),
          endTime: hhmm(h.end),
        })),
      )
      .execute();
  }
  if (s.exceptions.length) {
    await db
      .insertInto('teacherHoursException')
      .values(
        s.exceptions.map((e) => ({
          storeId,
          teacherId: teachers[e.teacher],
          date: dateOf(e.day),
          kind: e.kind,
          startTime: e.span ? hhmm(e.span.start) : null,
          endTime: e.span ? hhmm(e.span.end) : null,
          reason: null,
          createdAt: '2099-01-01 00:00:00',
        })),
      )
      .execute();
  }
  if (s.sessions.length) {
    await db
      .insertInto('timetable')
      .values(
        s.sessions.map((x) => ({
          storeId,
          courseId: x.kind === 'group' ? group.id : x.kind === 'type' ? type.id : other.id,
          teacherId: teachers[x.teacher],
          areaId: x.room < 0 ? null : rooms[x.room],
          startTime: stamp(x.start),
          endTime: stamp(x.start + x.length),
          reservableCount: 6,
          realCount: x.members,
          isOnline: 0,
          color: '#1677ff',
          genderLimit: 2,
          ageLimit: 0,
          deleted: x.deleted ? 1 : 0,
          createdAt: '2099-01-01 00:00:00',
          appointmentStatus: x.kind === 'group' ? null : ('confirmed' as const),
        })),
      )
      .execute();
  }
  return { teachers, rooms, typeId: type.id };
}

/** The brute force: for every teacher, day and start on the step, minute by minute. */
function bruteForce(s: Scene, w: Written): FreeSlot[] {
  const asked = s.askTeachers === 'all' ? [...Array(s.teachers).keys()] : s.askTeachers.filter((t) => t < s.teachers);
  const live = s.sessions.filter((x) => !x.deleted);
  const out: FreeSlot[] = [];
  for (let day = s.fromDay; day < s.fromDay + s.days; day++) {
    const isoWeekday = (day % 7) + 1;
    for (const t of asked) {
      const works = new Array<boolean>(DAY).fill(false);
      for (const h of s.hours) {
        if (h.teacher === t && h.weekday === isoWeekday) for (let m = h.start; m < h.end; m++) works[m] = true;
      }
      const mine = s.exceptions.filter((e) => e.teacher === t && e.day === day);
      for (const e of mine)
        if (e.kind === 'extra' && e.span) for (let m = e.span.start; m < e.span.end; m++) works[m] = true;
      for (const e of mine) {
        if (e.kind !== 'off') continue;
        for (let m = e.span ? e.span.start : 0; m < (e.span ? e.span.end : DAY); m++) works[m] = false;
      }
      for (let m0 = 0; m0 + s.duration <= DAY; m0 += s.slotStep) {
        const start = day * DAY + m0;
        const end = start + s.duration;
        if (start < s.now + s.minNotice) continue;
        let ok = true;
        for (let m = m0; m < m0 + s.duration && ok; m++) if (!works[m]) ok = false;
        if (!ok) continue;
        const during = (x: Scene['sessions'][number], m: number) => x.start <= m && x.start + x.length > m;
        const minutes = [...Array(s.duration).keys()].map((i) => start + i);
        if (minutes.some((m) => live.some((x) => x.teacher === t && during(x, m)))) continue;
        let room: number | null = null;
        if (s.rooms) {
          const free = [...Array(s.rooms).keys()].find(
            (r) => !minutes.some((m) => live.some((x) => x.room === r && during(x, m))),
          );
          if (free === undefined) continue;
          room = w.rooms[free];
        }
        const machinesOk = s.machines.every((mc) =>
          minutes.every((m) => {
            const held = live
              .filter((x) => x.kind !== 'group' && during(x, m))
              .reduce((n, x) => n + x.members * (x.kind === 'type' ? mc.perMember : mc.otherPerMember), 0);
            return mc.count - held >= s.members * mc.perMember;
          }),
        );
        if (!machinesOk) continue;
        out.push({ teacherId: w.teachers[t], startTime: stamp(start), endTime: stamp(end), areaId: room });
      }
    }
  }
  return out.sort((a, b) => a.startTime.localeCompare(b.startTime) || a.teacherId - b.teacherId);
}

describeEachDb('the free-slot finder (私教/小班)', (env) => {
  it('equals a minute-by-minute brute force over random weeks of hours, classes, lessons, rooms and machines', async () => {
    await fc.assert(
      fc.asyncProperty(scene, async (s) => {
        const { database, storeId } = env();
        const w = await write(database.db, storeId, s);
        const found = await findFreeSlots(database.db, {
          storeId,
          courseId: w.typeId,
          teacherIds: s.askTeachers === 'all' ? undefined : s.askTeachers.map((t) => w.teachers[t]),
          from: dateOf(s.fromDay),
          to: dateOf(s.fromDay + s.days - 1),
          members: s.members,
          now: stamp(s.now),
        });
        expect(found).toEqual(bruteForce(s, w));
      }),
      { numRuns: 60 },
    );
  });
});

describeEachDb('the free-slot finder: examples', (env) => {
  /** A 60-minute 1对2 type, slots every 30 minutes, one teacher working Monday 09:00-12:00. */
  async function oneTeacher(o: Partial<Scene> = {}) {
    const s: Scene = {
      duration: 60,
      slotStep: 30,
      minNotice: 0,
      maxMembers: 2,
      members: 1,
      teachers: 1,
      rooms: 0,
      machines: [],
      hours: [{ teacher: 0, weekday: 1, start: 9 * 60, end: 12 * 60 }],
      exceptions: [],
      sessions: [],
      fromDay: 0,
      days: 1,
      now: -DAY,
      askTeachers: 'all',
      ...o,
    };
    const w = await write(env().database.db, env().storeId, s);
    const ask = (more: { members?: number; courseId?: number } = {}) =>
      findFreeSlots(env().database.db, {
        storeId: env().storeId,
        courseId: more.courseId ?? w.typeId,
        from: '2099-03-02',
        to: '2099-03-02',
        members: more.members ?? s.members,
        now: stamp(s.now),
      });
    const starts = async () => (await ask()).map((x) => x.startTime.slice(11, 16));
    return { w, ask, starts };
  }

  it('offers each step of the working hours where the whole lesson fits', async () => {
    const { starts, ask, w } = await oneTeacher();
    expect(await starts()).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    expect((await ask())[0]).toEqual({
      teacherId: w.teachers[0],
      startTime: '2099-03-02 09:00:00',
      endTime: '2099-03-02 10:00:00',
      areaId: null,
    });
  });

  it('leaves out time off, a group class of the teacher and what is too soon; adds extra hours', async () => {
    const { starts } = await oneTeacher({
      exceptions: [
        { teacher: 0, day: 0, kind: 'off', span: { start: 9 * 60, end: 9 * 60 + 30 } },
        { teacher: 0, day: 0, kind: 'extra', span: { start: 18 * 60, end: 19 * 60 } },
      ],
      sessions: [{ teacher: 0, room: -1, start: 11 * 60, length: 45, kind: 'group', members: 5, deleted: false }],
      now: 9 * 60 + 10,
      minNotice: 30,
    });
    // 09:00-09:30 off; from 09:40 on; 11:00-11:45 a group class; 18:00-19:00 extra
    expect(await starts()).toEqual(['10:00', '18:00']);
  });

  it('a whole day off leaves nothing, extra hours included', async () => {
    const { starts } = await oneTeacher({
      exceptions: [
        { teacher: 0, day: 0, kind: 'extra', span: { start: 18 * 60, end: 19 * 60 } },
        { teacher: 0, day: 0, kind: 'off', span: null },
      ],
    });
    expect(await starts()).toEqual([]);
  });

  it('picks the first free room, and offers nothing when every room is taken', async () => {
    const { ask, w } = await oneTeacher({
      rooms: 2,
      sessions: [
        { teacher: 1, room: 0, start: 9 * 60, length: 60, kind: 'group', members: 3, deleted: false },
        { teacher: 1, room: 1, start: 10 * 60, length: 60, kind: 'group', members: 3, deleted: false },
        { teacher: 1, room: 0, start: 10 * 60, length: 60, kind: 'group', members: 3, deleted: false },
        // a deleted class holds nothing
        { teacher: 1, room: 1, start: 11 * 60, length: 60, kind: 'group', members: 3, deleted: true },
      ],
    });
    const slots = (await ask()).map((x) => [x.startTime.slice(11, 16), x.areaId]);
    expect(slots).toEqual([
      ['09:00', w.rooms[1]],
      ['11:00', w.rooms[0]],
    ]);
  });

  it('machines: lessons one after the other do not add up, lessons at once do', async () => {
    // 2 machines, one per member; 10:00-10:30 and 10:30-11:00 each hold one
    const { starts } = await oneTeacher({
      machines: [{ count: 2, perMember: 1, otherPerMember: 1 }],
      sessions: [
        { teacher: 1, room: -1, start: 10 * 60, length: 30, kind: 'other', members: 1, deleted: false },
        { teacher: 1, room: -1, start: 10 * 60 + 30, length: 30, kind: 'type', members: 1, deleted: false },
      ],
    });
    expect(await starts()).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00']);
    const both = await oneTeacher({
      machines: [{ count: 2, perMember: 1, otherPerMember: 1 }],
      sessions: [
        { teacher: 1, room: -1, start: 10 * 60, length: 30, kind: 'other', members: 1, deleted: false },
        { teacher: 1, room: -1, start: 10 * 60 + 15, length: 30, kind: 'type', members: 1, deleted: false },
      ],
    });
    // 10:15-10:30 both machines are held; from 10:30 one is
    expect(await both.starts()).toEqual(['09:00', '10:30', '11:00']);
    // two members need both machines: only where nothing is held
    expect((await both.ask({ members: 2 })).map((x) => x.startTime.slice(11, 16))).toEqual(['09:00', '11:00']);
  });

  it('refuses a group course (404) and more members than the type takes (400)', async () => {
    const { ask } = await oneTeacher();
    const group = await env().factory.course();
    await expect(ask({ courseId: group.id })).rejects.toMatchObject({ status: 404, message: '课程不存在' });
    await expect(ask({ members: 3 })).rejects.toMatchObject({ status: 400 });
  });
});
