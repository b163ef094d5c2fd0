import {
  bookLesson,
  insertTimetable,
  addMemberReservation,
  LessonBookingMsg,
  MemberLessonMsg,
  memberCancelLesson,
  memberJoinLesson,
  memberMyBookings,
  memberOpenLessons,
  Msg,
  saveLessonBookingSetting,
  type ResOf,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { Client, describeEachDb, moreInstances, tally } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { lessonType, workingHours } from '../../../test/lesson-kit.ts';
import { memberClient } from '../../../test/member-client.ts';
import { addDays, addMinutes, localDateTime } from '../../lib/time.ts';

const today = () => localDateTime('Asia/Shanghai').slice(0, 10);
/** Two days ahead: inside the phone's days and before a 12-hour cutoff whenever the test runs. */
const day = () => addDays(today(), 2);

/**
 * A member joins a 小班 already booked from the phone (issue 43): the day's 小班 with room are listed
 * beside the free times, and joining one goes the desk's 添加学员 way (growLesson, bookMember) held to
 * the type's notice and the member's rules; concurrent joins never overfill it.
 */
describeEachDb('lessons: a member joins a 小班 from the phone', (env) => {
  const f = () => env().factory;
  const db = () => env().database.db;

  /** A teacher giving a 小班 of at most `maxMembers` paid by a lesson pack, and a member of it with a card. */
  async function smallGroup(o: Partial<Parameters<typeof lessonType>[1]> = {}) {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind: 'small_group',
      maxMembers: 3,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
      cancelCutoffMinutes: 720,
      ...o,
    });
    return { teacher, pack, type };
  }
  const memberWith = async (productId: number, card: { totalCount?: number } = {}) => {
    const member = await f().member();
    const mc = await f().memberCard(member.id, productId, card);
    return { member, mid: member.id, mcId: mc.id };
  };
  const booked = (b: Record<string, unknown>) =>
    env().client.ok<{ id: number; status: string }>(bookLesson.path, { date: day(), time: '10:00', ...b });
  const session = (id: number) =>
    db().selectFrom('timetable').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const cardUsed = async (id: number) =>
    Number(
      (await db().selectFrom('memberCard').select('usedCount').where('id', '=', id).executeTakeFirstOrThrow())
        .usedCount,
    );
  const ok = async () => expect(await checkInvariants(db(), env().storeId)).toEqual([]);

  it('lists the day’s 小班 with room (not full, not mine, not other types), joins one with a pack: charged, in 我的预约, cancelled before the cutoff refunded with the lesson kept', async () => {
    const { teacher, pack, type } = await smallGroup();
    const first = await memberWith(pack.id);
    const { id } = await booked({ courseId: type.id, teacherId: teacher.id, members: [first] });
    // A full one at 14:00 and another teacher's at 16:00.
    const other = await f().teacher();
    await f()
      .db.insertInto('lessonTeacher')
      .values({ storeId: env().storeId, courseId: type.id, teacherId: other.id, level: null })
      .execute();
    await workingHours(f(), [other.id]);
    const full = await booked({
      courseId: type.id,
      teacherId: teacher.id,
      time: '14:00',
      members: [await memberWith(pack.id), await memberWith(pack.id), await memberWith(pack.id)],
    });
    const theirs = await booked({ courseId: type.id, teacherId: other.id, time: '16:00', members: [first] });

    const me = await memberWith(pack.id);
    const phone = await memberClient(env(), me.member);
    const open = (teacherId: number | null) =>
      phone.ok<ResOf<typeof memberOpenLessons>>(memberOpenLessons.path, { courseId: type.id, teacherId, date: day() });
    expect(await open(teacher.id)).toEqual([
      {
        id,
        startTime: `${day()} 10:00:00`,
        endTime: `${day()} 11:00:00`,
        teacherId: teacher.id,
        teacherName: teacher.name,
        booked: 1,
        maxMembers: 3,
        pending: false,
      },
    ]);
    expect((await open(null)).map((l) => l.id)).toEqual([id, theirs.id]);
    expect((await open(null)).map((l) => l.id)).not.toContain(full.id);

    const joined = await phone.ok<ResOf<typeof memberJoinLesson>>(memberJoinLesson.path, { id, mcId: me.mcId });
    expect(joined).toMatchObject({ kind: 'reservation', status: 'confirmed' });
    expect(await cardUsed(me.mcId)).toBe(1);
    expect((await session(id)).realCount).toBe(2);
    // No longer offered to them (they are in it); still to others.
    expect((await open(teacher.id)).map((l) => l.id)).toEqual([]);
    const list = (await phone.ok<ResOf<typeof memberMyBookings>>(memberMyBookings.path, { state: 'upcoming', page: 1 }))
      .list;
    expect(list).toEqual([
      expect.objectContaining({ kind: 'booked', session: expect.objectContaining({ courseName: type.name }) }),
    ]);
    const history = await db()
      .selectFrom('history')
      .select(['operateType', 'operatorId'])
      .where('memberId', '=', me.mid)
      .execute();
    expect(history).toEqual([{ operateType: 1, operatorId: null }]);

    // Cancelled before the type's cutoff: refunded, the lesson kept for its first member.
    const cancel = await phone.ok<ResOf<typeof memberCancelLesson>>(memberCancelLesson.path, { id: joined.id });
    expect(cancel).toEqual({ refunded: true, released: false });
    expect(await cardUsed(me.mcId)).toBe(0);
    expect((await session(id)).realCount).toBe(1);
    expect((await session(id)).deleted).toBe(0);

    // A 1对1 type lists none.
    const single = await lessonType(f(), { cardIds: [pack.id], teachers: [{ id: teacher.id }] });
    expect(await phone.ok(memberOpenLessons.path, { courseId: single.id, teacherId: teacher.id, date: day() })).toEqual(
      [],
    );
    await ok();
  });

  it('the lesson’s teacher confirmation: joining a 待确认 小班 waits with it, a confirmed one is confirmed', async () => {
    const { teacher, pack, type } = await smallGroup();
    await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 12 });
    try {
      const waiting = await booked({ courseId: type.id, teacherId: teacher.id, members: [await memberWith(pack.id)] });
      expect(waiting.status).toBe('pending');
      const me = await memberWith(pack.id);
      const phone = await memberClient(env(), me.member);
      const [listed] = await phone.ok<ResOf<typeof memberOpenLessons>>(memberOpenLessons.path, {
        courseId: type.id,
        teacherId: teacher.id,
        date: day(),
      });
      expect(listed).toMatchObject({ id: waiting.id, pending: true });
      const a = await phone.ok<ResOf<typeof memberJoinLesson>>(memberJoinLesson.path, {
        id: waiting.id,
        mcId: me.mcId,
      });
      expect(a.status).toBe('pending');
      await db()
        .updateTable('timetable')
        .set({ appointmentStatus: 'confirmed' })
        .where('id', '=', waiting.id)
        .execute();
      const later = await memberWith(pack.id);
      const b = await (
        await memberClient(env(), later.member)
      ).ok<ResOf<typeof memberJoinLesson>>(memberJoinLesson.path, { id: waiting.id, mcId: later.mcId });
      expect(b.status).toBe('confirmed');
      expect((await session(waiting.id)).appointmentStatus).toBe('confirmed');
    } finally {
      await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    }
    await ok();
  });

  it('refusals in words, nothing written: bad input, another store’s lesson, a group class, a 1对2, the notice, full, mine already, another class then, a card not for it or not mine', async () => {
    const { teacher, pack, type } = await smallGroup({ maxMembers: 2 });
    const first = await memberWith(pack.id);
    const { id } = await booked({ courseId: type.id, teacherId: teacher.id, members: [first] });
    const me = await memberWith(pack.id);
    const phone = await memberClient(env(), me.member);
    const refusal = async (body: Record<string, unknown>) => {
      const a = await phone.call(memberJoinLesson.path, body);
      return `${a.status} ${a.msg}`;
    };

    expect(await refusal({ id: 'x', mcId: me.mcId })).toMatch(/^400 /);
    expect(await refusal({ id })).toMatch(/^400 请选择会员卡/);
    expect(await refusal({ id: 99_999_999, mcId: me.mcId })).toBe('404 课程不存在');

    // Another store's 小班.
    const o = env().other.factory;
    const theirProduct = await o.cardProduct({ perCount: 1 });
    const theirMember = await o.member();
    const theirCard = await o.memberCard(theirMember.id, theirProduct.id);
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
      date: day(),
      time: '10:00',
      members: [{ mid: theirMember.id, mcId: theirCard.id }],
    });
    expect(await refusal({ id: theirLesson.id, mcId: me.mcId })).toBe('404 课程不存在');
    expect(await refusal({ id, mcId: theirCard.id })).toBe('404 会员卡不存在');
    expect((await session(theirLesson.id)).realCount).toBe(1);

    // A group class; a 1对2 (booked for its own members).
    const group = await f().course({ cardIds: [pack.id] });
    await env().client.ok(insertTimetable.path, {
      courseId: group.id,
      teacherId: (await f().teacher()).id,
      date: day(),
      time: '10:30',
    });
    const groupSession = await db()
      .selectFrom('timetable')
      .select('id')
      .where('courseId', '=', group.id)
      .executeTakeFirstOrThrow();
    expect(await refusal({ id: groupSession.id, mcId: me.mcId })).toBe(`409 ${LessonBookingMsg.notLesson}`);
    const pairType = await lessonType(f(), {
      kind: 'one_on_two',
      maxMembers: 2,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    const pair = await booked({ courseId: pairType.id, teacherId: teacher.id, time: '15:00', members: [first] });
    expect(await refusal({ id: pair.id, mcId: me.mcId })).toBe(`409 ${MemberLessonMsg.notSmallGroup}`);

    // Within the type's notice (the desk booked it with a reason).
    const soon = await smallGroup({ minNoticeMinutes: 600 });
    const near = addMinutes(localDateTime('Asia/Shanghai'), 90).slice(0, 16);
    const lessonSoon = await booked({
      courseId: soon.type.id,
      teacherId: soon.teacher.id,
      date: near.slice(0, 10),
      time: near.slice(11, 16),
      members: [await memberWith(soon.pack.id)],
      outsideReason: '临时加课',
    });
    const soonCard = await f().memberCard(me.mid, soon.pack.id);
    expect(await refusal({ id: lessonSoon.id, mcId: soonCard.id })).toBe(`409 ${LessonBookingMsg.notice(600)}`);

    // A card not for the type; a card of another member.
    const otherProduct = await f().cardProduct({ perCount: 1 });
    const wrong = await f().memberCard(me.mid, otherProduct.id);
    expect(await refusal({ id, mcId: wrong.id })).toBe(`409 ${Msg.cardNotAllowed}`);
    expect(await refusal({ id, mcId: first.mcId })).toBe(`409 ${Msg.cardNotOwned}`);

    // In a group class then (10:30-11:30 meets 10:00-11:00).
    const busy = await memberWith(pack.id);
    await env().client.ok(addMemberReservation.path, { tid: groupSession.id, mcId: busy.mcId, studentCount: 1 });
    const busyPhone = await memberClient(env(), busy.member);
    const b = await busyPhone.call(memberJoinLesson.path, { id, mcId: busy.mcId });
    expect(`${b.status} ${b.msg}`).toBe(`409 ${LessonBookingMsg.memberBusy(`${day()} 10:30-11:30`)}`);
    expect(await cardUsed(busy.mcId)).toBe(1);

    // Mine already: the first member; then full.
    const firstPhone = await memberClient(env(), first.member);
    const again = await firstPhone.call(memberJoinLesson.path, { id, mcId: first.mcId });
    expect(`${again.status} ${again.msg}`).toBe(`409 ${Msg.alreadyBooked}`);
    expect((await phone.call(memberJoinLesson.path, { id, mcId: me.mcId })).code).toBe(0);
    const late = await memberWith(pack.id);
    const l = await (await memberClient(env(), late.member)).call(memberJoinLesson.path, { id, mcId: late.mcId });
    expect(`${l.status} ${l.msg}`).toBe(`409 ${Msg.sessionFull}`);
    expect(await cardUsed(late.mcId)).toBe(0);
    expect(await cardUsed(wrong.id)).toBe(0);
    expect((await session(id)).realCount).toBe(2);
    await ok();
  });
});

/** Joins raced at once through several app instances on PostgreSQL (one on SQLite, its one writer). */
describeEachDb('lessons: members joining a 小班 at once never overfill it', (env) => {
  const all = moreInstances(env, 2, { poolMax: 4 });
  const f = () => env().factory;
  const db = () => env().database.db;

  it('2 places left, 6 members join at once from their phones: exactly 2 in, 4 refused 已满', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind: 'small_group',
      maxMembers: 6,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    const members = async (n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        const member = await f().member();
        out.push({ member, mid: member.id, mcId: (await f().memberCard(member.id, pack.id)).id });
      }
      return out;
    };
    const { id } = await env().client.ok<{ id: number }>(bookLesson.path, {
      courseId: type.id,
      teacherId: teacher.id,
      date: day(),
      time: '10:00',
      members: (await members(4)).map(({ mid, mcId }) => ({ mid, mcId })),
    });
    const racers = await members(6);
    // Each member's phone, signed in once, calling through one of the instances.
    const phones = await Promise.all(
      racers.map(async (m, i) => {
        const signedIn = await memberClient(env(), m.member);
        const phone = new Client(all.apps[i % all.apps.length]);
        phone.cookie = signedIn.cookie;
        return phone;
      }),
    );
    const answers = await Promise.all(
      racers.map((m, i) => phones[i].call(memberJoinLesson.path, { id, mcId: m.mcId })),
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
});
