import {
  addLessonMember,
  addMemberReservation,
  bookLesson,
  cancelLesson,
  insertTimetable,
  LessonBookingMsg,
  MODULE_DEDUCTION_MODE,
  Msg,
  PendingStatus,
  queryTimetableInfo,
  updateModuleStatus,
  type ResOf,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { describeEachDb, moreInstances, tally } from '../../../test/harness.ts';
import { equipment, lessonType } from '../../../test/lesson-kit.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';

const DAY = '2099-03-09';

/**
 * The desk adds a member to a booked lesson (私教/小班, issue 43): the seat made up to the type's most
 * members, the card charged by the engine, every refusal in words; concurrent adds never overfill a
 * lesson nor overdraw a card.
 */
describeEachDb('lessons: the desk adds a member to a booked lesson', (env) => {
  const f = () => env().factory;
  const db = () => env().database.db;

  async function smallGroup(o: Partial<Parameters<typeof lessonType>[1]> = {}) {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind: 'small_group',
      maxMembers: 3,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
      ...o,
    });
    return { teacher, pack, type };
  }
  const memberWith = async (productId: number, card: { totalCount?: number } = {}) => {
    const member = await f().member();
    const mc = await f().memberCard(member.id, productId, card);
    return { mid: member.id, mcId: mc.id, name: member.name };
  };
  const booked = (b: Record<string, unknown>) =>
    env().client.ok<{ id: number; status: string }>(bookLesson.path, { date: DAY, time: '10:00', ...b });
  const add = (id: number, m: { mid: number; mcId: number }) =>
    env().client.call(addLessonMember.path, { id, mid: m.mid, mcId: m.mcId });
  const refusal = async (id: number, m: { mid: number; mcId: number }) => {
    const a = await add(id, m);
    return `${a.status} ${a.msg}`;
  };
  const session = (id: number) =>
    db().selectFrom('timetable').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const cardUsed = async (id: number) =>
    Number(
      (await db().selectFrom('memberCard').select('usedCount').where('id', '=', id).executeTakeFirstOrThrow())
        .usedCount,
    );
  const ok = async () => expect(await checkInvariants(db(), env().storeId)).toEqual([]);

  it('a 小班 booked for one member takes a second and a third, each card charged, listed in the lesson; a fourth is refused (已满)', async () => {
    const { teacher, pack, type } = await smallGroup();
    const first = await memberWith(pack.id);
    const { id } = await booked({ courseId: type.id, teacherId: teacher.id, members: [first] });
    expect((await session(id)).reservableCount).toBe(1);

    const second = await memberWith(pack.id);
    const a = await add(id, second);
    expect(a.code).toBe(0);
    expect(a.data).toMatchObject({ kind: 'reservation' });
    expect(await cardUsed(second.mcId)).toBe(1);
    const third = await memberWith(pack.id);
    expect((await add(id, third)).code).toBe(0);
    const s = await session(id);
    expect([s.realCount, s.reservableCount]).toEqual([3, 3]);
    const members = await db()
      .selectFrom('reservation')
      .select('memberId')
      .where('timetableId', '=', id)
      .orderBy('id')
      .execute();
    expect(members.map((r) => r.memberId)).toEqual([first.mid, second.mid, third.mid]);
    // The drawer's info says how many the lesson takes.
    const info = await env().client.ok<ResOf<typeof queryTimetableInfo>>(queryTimetableInfo.path, { id });
    expect(info.lesson).toMatchObject({ kind: 'small_group', maxMembers: 3 });
    expect([info.realCount, info.reservableCount]).toEqual([3, 3]);

    const fourth = await memberWith(pack.id);
    expect(await refusal(id, fourth)).toBe(`409 ${Msg.sessionFull}`);
    expect(await cardUsed(fourth.mcId)).toBe(0);
    // One entry in 操作日志 per add, naming the lesson, the member and the card.
    const entries = await db()
      .selectFrom('auditLog as l')
      .innerJoin('auditTarget as t', 't.auditId', 'l.id')
      .select(['l.id', 'l.summary', 'l.kind', 't.type', 't.refId'])
      .where('l.storeId', '=', env().storeId)
      .where('l.call', '=', addLessonMember.path)
      .orderBy('l.id')
      .execute();
    expect(new Set(entries.map((e) => e.id)).size).toBe(2);
    expect(entries.filter((e) => e.type === 'member').map((e) => e.refId)).toEqual([second.mid, third.mid]);
    expect(entries.every((e) => e.summary === '私教/小班添加学员' && e.kind === 'booking')).toBe(true);
    expect(entries.filter((e) => e.type === 'session').every((e) => e.refId === id)).toBe(true);
    await ok();
  });

  it('refusals in words, nothing written: member already in it, a card not for the type, no balance, the member elsewhere then, a group class, a released or ended lesson, ids of another store', async () => {
    const { teacher, pack, type } = await smallGroup();
    const first = await memberWith(pack.id);
    const { id } = await booked({ courseId: type.id, teacherId: teacher.id, members: [first] });

    expect(await refusal(id, first)).toBe(`409 ${Msg.alreadyBooked}`);
    const otherProduct = await f().cardProduct({ perCount: 1 });
    expect(await refusal(id, await memberWith(otherProduct.id))).toBe(`409 ${Msg.cardNotAllowed}`);
    const empty = await memberWith(pack.id, { totalCount: 0 });
    expect(await refusal(id, empty)).toBe(`409 ${Msg.cardBalance}`);
    // A card of another member.
    const stranger = await memberWith(pack.id);
    expect(await refusal(id, { mid: stranger.mid, mcId: first.mcId })).toMatch(/^409 /);

    // The member is in a group class then (10:30-11:30 meets 10:00-11:00).
    const group = await f().course({ cardIds: [pack.id] });
    await env().client.ok(insertTimetable.path, {
      courseId: group.id,
      teacherId: (await f().teacher()).id,
      date: DAY,
      time: '10:30',
    });
    const groupSession = await db()
      .selectFrom('timetable')
      .select('id')
      .where('courseId', '=', group.id)
      .executeTakeFirstOrThrow();
    const busy = await memberWith(pack.id);
    await env().client.ok(addMemberReservation.path, { tid: groupSession.id, mcId: busy.mcId, studentCount: 1 });
    expect(await refusal(id, busy)).toBe(`409 ${LessonBookingMsg.memberBusy(`${DAY} 10:30-11:30`)}`);
    // A group class is not a lesson.
    expect(await refusal(groupSession.id, await memberWith(pack.id))).toBe(`409 ${LessonBookingMsg.notLesson}`);

    // Ids of another store: not found.
    const o = env().other.factory;
    const theirProduct = await o.cardProduct({ perCount: 1 });
    const theirMember = await o.member();
    const theirCard = await o.memberCard(theirMember.id, theirProduct.id);
    const fresh = await memberWith(pack.id);
    expect(await refusal(id, { mid: theirMember.id, mcId: fresh.mcId })).toBe(`404 会员不存在`);
    expect(await refusal(id, { mid: fresh.mid, mcId: theirCard.id })).toBe(`404 会员卡不存在`);
    const theirTeacher = await o.teacher();
    const theirType = await lessonType(o, {
      kind: 'small_group',
      maxMembers: 3,
      cardIds: [theirProduct.id],
      teachers: [{ id: theirTeacher.id }],
    });
    const theirLesson = await env().other.client.ok<{ id: number }>(bookLesson.path, {
      courseId: theirType.id,
      teacherId: theirTeacher.id,
      date: DAY,
      time: '10:00',
      members: [{ mid: theirMember.id, mcId: theirCard.id }],
    });
    expect(await refusal(theirLesson.id, fresh)).toBe(`404 课程不存在`);
    expect((await session(theirLesson.id)).realCount).toBe(1);

    // Released: its only member cancelled before the cutoff.
    const lone = await memberWith(pack.id);
    const released = await booked({ courseId: type.id, teacherId: teacher.id, time: '14:00', members: [lone] });
    const r = await db()
      .selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', released.id)
      .executeTakeFirstOrThrow();
    await env().client.ok(cancelLesson.path, { id: r.id });
    expect(await refusal(released.id, fresh)).toBe(`409 ${LessonBookingMsg.cancelled}`);

    // Ended: a lesson of yesterday.
    const past = await booked({ courseId: type.id, teacherId: teacher.id, time: '16:00', members: [lone] });
    await db()
      .updateTable('timetable')
      .set({ startTime: '2020-01-01 10:00:00', endTime: '2020-01-01 11:00:00' })
      .where('id', '=', past.id)
      .execute();
    expect(await refusal(past.id, fresh)).toBe(`409 ${Msg.sessionStarted}`);

    expect(await cardUsed(fresh.mcId)).toBe(0);
    expect((await session(id)).realCount).toBe(1);
    expect((await session(id)).reservableCount).toBe(1);
    await ok();
  });

  it('staff are not held to the type’s notice; a 1对2 takes its second member; machines are never over the store’s count', async () => {
    // A lesson starting within the type's notice (booked with a reason) still takes a member.
    const soon = addMinutes(localDateTime('Asia/Shanghai'), 90).slice(0, 16);
    const s = await smallGroup({ minNoticeMinutes: 600 });
    const { id } = await booked({
      courseId: s.type.id,
      teacherId: s.teacher.id,
      date: soon.slice(0, 10),
      time: soon.slice(11, 16),
      members: [await memberWith(s.pack.id)],
      outsideReason: '临时加课',
    });
    expect((await add(id, await memberWith(s.pack.id))).code).toBe(0);

    const pair = await smallGroup({ kind: 'one_on_two', maxMembers: 2 });
    const lesson = await booked({
      courseId: pair.type.id,
      teacherId: pair.teacher.id,
      members: [await memberWith(pair.pack.id)],
    });
    expect((await add(lesson.id, await memberWith(pair.pack.id))).code).toBe(0);
    expect(await refusal(lesson.id, await memberWith(pair.pack.id))).toBe(`409 ${Msg.sessionFull}`);

    // Two reformers; another lesson holds one at 10:00, this one the other: no third member on it.
    const reformer = await equipment(f(), 2);
    const pack = await f().cardProduct({ perCount: 1 });
    const teachers = [await f().teacher(), await f().teacher()];
    const withMachine = await lessonType(f(), {
      kind: 'small_group',
      maxMembers: 3,
      cardIds: [pack.id],
      teachers: teachers.map((t) => ({ id: t.id })),
      equipment: [{ id: reformer.id, perMember: 1 }],
    });
    await booked({ courseId: withMachine.id, teacherId: teachers[0].id, members: [await memberWith(pack.id)] });
    const mine = await booked({
      courseId: withMachine.id,
      teacherId: teachers[1].id,
      members: [await memberWith(pack.id)],
    });
    expect(await refusal(mine.id, await memberWith(pack.id))).toBe(
      `409 ${Msg.equipmentConflict(reformer.name, `${DAY} 10:00`, 2)}`,
    );
    expect((await session(mine.id)).reservableCount).toBe(1);
    await ok();
  });

  it('签到后扣费: the added member’s seat is held for sign-in, the card charged then', async () => {
    await env().client.ok(updateModuleStatus.path, { moduleId: MODULE_DEDUCTION_MODE, status: 1 });
    try {
      const { teacher, pack, type } = await smallGroup();
      const { id } = await booked({ courseId: type.id, teacherId: teacher.id, members: [await memberWith(pack.id)] });
      const second = await memberWith(pack.id);
      const a = await add(id, second);
      expect(a.data).toMatchObject({ kind: 'pending' });
      const p = await db()
        .selectFrom('pending')
        .selectAll()
        .where('timetableId', '=', id)
        .where('memberId', '=', second.mid)
        .executeTakeFirstOrThrow();
      expect(p.status).toBe(PendingStatus.WAITING);
      expect(await cardUsed(second.mcId)).toBe(0);
      expect((await session(id)).realCount).toBe(2);
      await ok();
    } finally {
      await env().client.ok(updateModuleStatus.path, { moduleId: MODULE_DEDUCTION_MODE, status: 0 });
    }
  });
});

/** Adds raced at once through several app instances on PostgreSQL (one on SQLite, its one writer). */
describeEachDb('lessons: concurrent adds never overfill a lesson nor overdraw a card', (env) => {
  const all = moreInstances(env, 2, { poolMax: 4 });
  const f = () => env().factory;
  const db = () => env().database.db;
  const pick = (i: number) => all.clients[i % all.clients.length];
  /** A teacher giving a 小班 of at most `maxMembers`, paid by a lesson pack. */
  async function smallGroup(maxMembers: number) {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind: 'small_group',
      maxMembers,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    return { teacher, pack, type };
  }

  it('2 seats left, 6 adds at once: exactly 2 in, 4 refused 已满', async () => {
    const { teacher, pack, type } = await smallGroup(6);
    const members = async (n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        const m = await f().member();
        out.push({ mid: m.id, mcId: (await f().memberCard(m.id, pack.id)).id });
      }
      return out;
    };
    const { id } = await env().client.ok<{ id: number }>(bookLesson.path, {
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '10:00',
      members: await members(4),
    });
    const racers = await members(6);
    const answers = await Promise.all(
      racers.map((m, i) => pick(i).call(addLessonMember.path, { id, mid: m.mid, mcId: m.mcId })),
    );
    expect(tally(answers)).toEqual({ ok: 2, [`409 ${Msg.sessionFull}`]: 4 });
    const s = await db().selectFrom('timetable').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([s.realCount, s.reservableCount]).toEqual([6, 6]);
    const used = await db()
      .selectFrom('memberCard')
      .select('usedCount')
      .where(
        'id',
        'in',
        racers.map((r) => r.mcId),
      )
      .execute();
    expect(used.reduce((n, r) => n + Number(r.usedCount), 0)).toBe(2);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('one member’s card with 2 lessons left added to 6 lessons at once: exactly 2 charged, 4 refused for the balance', async () => {
    const { teacher, pack, type } = await smallGroup(3);
    const lessons: number[] = [];
    for (const time of ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00']) {
      const m = await f().member();
      const mc = await f().memberCard(m.id, pack.id);
      const { id } = await env().client.ok<{ id: number }>(bookLesson.path, {
        courseId: type.id,
        teacherId: teacher.id,
        date: DAY,
        time,
        members: [{ mid: m.id, mcId: mc.id }],
      });
      lessons.push(id);
    }
    const member = await f().member();
    const card = await f().memberCard(member.id, pack.id, { totalCount: 2 });
    const answers = await Promise.all(
      lessons.map((id, i) => pick(i).call(addLessonMember.path, { id, mid: member.id, mcId: card.id })),
    );
    expect(tally(answers)).toEqual({ ok: 2, [`409 ${Msg.cardBalance}`]: 4 });
    const c = await db()
      .selectFrom('memberCard')
      .select('usedCount')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    expect(Number(c.usedCount)).toBe(2);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });
});
