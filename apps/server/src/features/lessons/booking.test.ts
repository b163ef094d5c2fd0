import {
  addCardShare,
  addMemberReservation,
  bookLesson,
  cancelLesson,
  confirmLesson,
  LessonBookingMsg,
  memberBook,
  memberBookLesson,
  memberCancelLesson,
  memberMyBookings,
  memberTimetable,
  MODULE_DEDUCTION_MODE,
  moveLesson,
  Msg,
  PendingStatus,
  saveLessonBookingSetting,
  updateModuleStatus,
  type ResOf,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { checkInvariants } from '../../../test/invariants.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { equipment, lessonType, moneyProduct, workingHours } from '../../../test/lesson-kit.ts';
import { memberClient } from '../../../test/member-client.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { releaseUnconfirmed } from './public.ts';

const DAY = '2099-03-02';

describeEachDb('lessons: booking (私教/小班)', (env) => {
  const f = () => env().factory;
  const db = () => env().database.db;

  /** A teacher at level senior, a lesson pack, a 储值卡 product and a 1对1 type they may pay. */
  async function scene(o: Partial<Parameters<typeof lessonType>[1]> = {}) {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const money = await moneyProduct(f());
    const type = await lessonType(f(), {
      cardIds: [pack.id, money.id],
      teachers: [{ id: teacher.id, level: 'senior' }],
      prices: [
        { level: 'senior', price: 300_00 },
        { level: '', price: 200_00 },
      ],
      ...o,
    });
    return { teacher, pack, money, type };
  }

  const memberWith = async (productId: number, card: { totalCount?: number; sharedWith?: string } = {}) => {
    const member = await f().member();
    const mc = await f().memberCard(member.id, productId, card);
    return { member, card: mc };
  };

  const book = (b: Record<string, unknown>) => env().client.call(bookLesson.path, { date: DAY, time: '10:00', ...b });
  /** A booking that must succeed: its id and state. */
  const booked = (b: Record<string, unknown>) =>
    env().client.ok<{ id: number; status: string }>(bookLesson.path, { date: DAY, time: '10:00', ...b });
  /** One member with their card, as a booking names them. */
  const one = (x: { member: { id: number }; card: { id: number } }) => [{ mid: x.member.id, mcId: x.card.id }];
  const cardUsed = async (id: number) =>
    Number(
      (await db().selectFrom('memberCard').select('usedCount').where('id', '=', id).executeTakeFirstOrThrow())
        .usedCount,
    );
  const session = (id: number) =>
    db().selectFrom('timetable').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const reservationsOf = (sessionId: number) =>
    db().selectFrom('reservation').selectAll().where('timetableId', '=', sessionId).orderBy('id').execute();
  const storeNow = () => localDateTime('Asia/Shanghai');
  const ok = async () => expect(await checkInvariants(db(), env().storeId)).toEqual([]);

  it('the desk books a 1对1: a confirmed session of the type, a lesson pack pays one lesson', async () => {
    const { teacher, pack, type } = await scene();
    const { member, card } = await memberWith(pack.id);
    const a = await book({ courseId: type.id, teacherId: teacher.id, members: [{ mid: member.id, mcId: card.id }] });
    expect(a.code).toBe(0);
    expect(a.data.status).toBe('confirmed');
    const s = await session(a.data.id);
    expect([s.courseId, s.teacherId, s.startTime, s.endTime]).toEqual([
      type.id,
      teacher.id,
      `${DAY} 10:00:00`,
      `${DAY} 11:00:00`,
    ]);
    expect([s.appointmentStatus, s.realCount, s.reservableCount]).toEqual(['confirmed', 1, 1]);
    expect(await cardUsed(card.id)).toBe(1);
    await ok();
  });

  it('a 储值卡 pays the type’s price at the teacher’s level', async () => {
    const { teacher, money, type } = await scene();
    const { member, card } = await memberWith(money.id, { totalCount: 1000_00 });
    await booked({
      courseId: type.id,
      teacherId: teacher.id,
      time: '10:00',
      members: [{ mid: member.id, mcId: card.id }],
    });
    expect(await cardUsed(card.id)).toBe(300_00);
    await ok();
  });

  it('refusals, each in words, writing nothing', async () => {
    const { teacher, pack, type } = await scene({ minNoticeMinutes: 120 });
    const { member, card } = await memberWith(pack.id);
    const other = await f().teacher();
    const group = await f().course({ cardIds: [pack.id] });
    const m = [{ mid: member.id, mcId: card.id }];
    const refusal = async (b: Record<string, unknown>) => {
      const a = await book({ courseId: type.id, teacherId: teacher.id, members: m, ...b });
      return `${a.status} ${a.msg}`;
    };
    expect(await refusal({ courseId: group.id })).toBe(`409 ${LessonBookingMsg.notLesson}`);
    expect(await refusal({ teacherId: other.id })).toBe(`409 ${LessonBookingMsg.notTeacher}`);
    const second = await memberWith(pack.id);
    expect(await refusal({ members: [...m, { mid: second.member.id, mcId: second.card.id }] })).toBe(
      `400 ${LessonBookingMsg.members(1)}`,
    );
    const soon = addMinutes(storeNow(), 30);
    expect(await refusal({ date: soon.slice(0, 10), time: soon.slice(11, 16) })).toBe(
      `409 ${LessonBookingMsg.notice(120)}`,
    );
    // A lesson pack bound to another teacher pays none of this teacher's lessons.
    const bound = await f().cardProduct({ perCount: 1, teacherId: other.id });
    await db()
      .insertInto('courseCard')
      .values({ storeId: env().storeId, courseId: type.id, cardId: bound.id })
      .execute();
    const boundCard = await f().memberCard(member.id, bound.id);
    expect(await refusal({ members: [{ mid: member.id, mcId: boundCard.id }] })).toBe(`409 ${Msg.cardNotAllowed}`);
    // A lesson pack bound to another level likewise.
    const master = await f().cardProduct({ perCount: 1, teacherLevel: 'master' });
    await db()
      .insertInto('courseCard')
      .values({ storeId: env().storeId, courseId: type.id, cardId: master.id })
      .execute();
    const masterCard = await f().memberCard(member.id, master.id);
    expect(await refusal({ members: [{ mid: member.id, mcId: masterCard.id }] })).toBe(`409 ${Msg.cardNotAllowed}`);
    const empty = await memberWith(pack.id, { totalCount: 0 });
    expect(await refusal({ members: [{ mid: empty.member.id, mcId: empty.card.id }] })).toBe(`409 ${Msg.cardBalance}`);
    expect(await db().selectFrom('timetable').select('id').where('courseId', '=', type.id).execute()).toEqual([]);
    expect(await cardUsed(empty.card.id)).toBe(0);
    // The teacher's hour taken: the clash rule's words.
    await booked({
      courseId: type.id,
      teacherId: teacher.id,
      time: '10:00',
      members: m,
    });
    const again = await memberWith(pack.id);
    const m2 = [{ mid: again.member.id, mcId: again.card.id }];
    expect(await refusal({ time: '10:30', members: m2 })).toBe(`409 ${LessonBookingMsg.notOffered}`);
    expect(await refusal({ time: '10:30', members: m2, outsideReason: '老师同意加课' })).toBe(
      `409 ${Msg.teacherConflict(`${DAY} 10:00-11:00`)}`,
    );
    // Outside the teacher's hours (06:00-22:00), or off the type's 30-minute steps: not offered.
    expect(await refusal({ time: '05:00', members: m2 })).toBe(`409 ${LessonBookingMsg.notOffered}`);
    expect(await refusal({ time: '12:10', members: m2 })).toBe(`409 ${LessonBookingMsg.notOffered}`);
    expect(await cardUsed(again.card.id)).toBe(0);
    await ok();
  });

  it('outside the offered times the desk books with a reason, recorded', async () => {
    const { teacher, pack, type } = await scene({ minNoticeMinutes: 600 });
    const { member, card } = await memberWith(pack.id);
    const soon = addMinutes(storeNow(), 60);
    const { id } = await booked({
      courseId: type.id,
      teacherId: teacher.id,
      date: soon.slice(0, 10),
      time: soon.slice(11, 16),
      members: [{ mid: member.id, mcId: card.id }],
      outsideReason: '会员临时加课',
    });
    expect((await session(id)).outsideReason).toBe('会员临时加课');
    await ok();
  });

  it('rooms: the first free room of the type, a room not its refused, none free refused', async () => {
    const [r1, r2, elsewhere] = [await f().area(), await f().area(), await f().area()];
    const { pack, type, teacher } = await scene({ roomIds: [r1.id, r2.id] });
    const t2 = await f().teacher();
    const t3 = await f().teacher();
    await db()
      .insertInto('lessonTeacher')
      .values([t2, t3].map((t) => ({ storeId: env().storeId, courseId: type.id, teacherId: t.id, level: null })))
      .execute();
    await workingHours(f(), [t2.id, t3.id]);
    const rooms: (number | null)[] = [];
    for (const t of [teacher, t2]) {
      const { member, card } = await memberWith(pack.id);
      const { id } = await booked({
        courseId: type.id,
        teacherId: t.id,
        time: '10:00',
        members: [{ mid: member.id, mcId: card.id }],
      });
      rooms.push((await session(id)).areaId);
    }
    expect(rooms).toEqual([r1.id, r2.id]);
    const { member, card } = await memberWith(pack.id);
    const m = [{ mid: member.id, mcId: card.id }];
    const a = await book({ courseId: type.id, teacherId: t3.id, members: m });
    expect(`${a.status} ${a.msg}`).toBe(`409 ${LessonBookingMsg.notOffered}`);
    const outside = { courseId: type.id, teacherId: t3.id, members: m, outsideReason: '加课' };
    const b = await book(outside);
    expect(`${b.status} ${b.msg}`).toBe(`409 ${LessonBookingMsg.noRoom}`);
    const c = await book({ ...outside, venueId: elsewhere.id });
    expect(`${c.status} ${c.msg}`).toBe(`409 ${LessonBookingMsg.notItsRoom}`);
    await ok();
  });

  it('machines: members x per-member use never over the store’s count', async () => {
    const reformer = await equipment(f(), 3);
    const teachers = [await f().teacher(), await f().teacher()];
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind: 'small_group',
      maxMembers: 3,
      cardIds: [pack.id],
      teachers: teachers.map((t) => ({ id: t.id })),
      equipment: [{ id: reformer.id, perMember: 1 }],
    });
    const members = async (n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        const { member, card } = await memberWith(pack.id);
        out.push({ mid: member.id, mcId: card.id });
      }
      return out;
    };
    await booked({
      courseId: type.id,
      teacherId: teachers[0].id,
      time: '10:00',
      members: await members(2),
    });
    const two = await members(2);
    const a = await book({ courseId: type.id, teacherId: teachers[1].id, time: '10:30', members: two });
    expect(`${a.status} ${a.msg}`).toBe(`409 ${LessonBookingMsg.notOffered}`);
    const b = await book({
      courseId: type.id,
      teacherId: teachers[1].id,
      time: '10:30',
      members: two,
      outsideReason: '加课',
    });
    expect(`${b.status} ${b.msg}`).toBe(`409 ${Msg.equipmentConflict(reformer.name, `${DAY} 10:30`, 3)}`);
    await booked({
      courseId: type.id,
      teacherId: teachers[1].id,
      time: '10:30',
      members: await members(1),
    });
    await ok();
  });

  it('1对2 with one shared card: both members booked, the card pays twice', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1, shareMax: 1 });
    const type = await lessonType(f(), {
      kind: 'one_on_two',
      maxMembers: 2,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    const { member, card } = await memberWith(pack.id);
    const partner = await f().member();
    await env().client.ok(addCardShare.path, { mcId: card.id, mid: partner.id });
    const { id } = await booked({
      courseId: type.id,
      teacherId: teacher.id,
      time: '10:00',
      members: [
        { mid: member.id, mcId: card.id },
        { mid: partner.id, mcId: card.id },
      ],
    });
    expect((await reservationsOf(id)).map((r) => [r.memberId, r.memberCardId])).toEqual([
      [member.id, card.id],
      [partner.id, card.id],
    ]);
    expect(await cardUsed(card.id)).toBe(2);
    // The same member twice is refused before anything is written.
    const twice = await book({
      courseId: type.id,
      teacherId: teacher.id,
      time: '12:00',
      members: [
        { mid: member.id, mcId: card.id },
        { mid: member.id, mcId: card.id },
      ],
    });
    expect(`${twice.status} ${twice.msg}`).toBe(`400 ${LessonBookingMsg.sameMember}`);
    await ok();
  });

  it('cancel before the cutoff: refunded, and the lesson released when nobody is left (the teacher is free)', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      kind: 'one_on_two',
      maxMembers: 2,
      cancelCutoffMinutes: 120,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    const a = await memberWith(pack.id);
    const b = await memberWith(pack.id);
    const { id } = await booked({
      courseId: type.id,
      teacherId: teacher.id,
      time: '10:00',
      members: [
        { mid: a.member.id, mcId: a.card.id },
        { mid: b.member.id, mcId: b.card.id },
      ],
    });
    const [ra, rb] = await reservationsOf(id);
    expect(await env().client.ok(cancelLesson.path, { id: ra.id })).toEqual({ refunded: true, released: false });
    expect(await cardUsed(a.card.id)).toBe(0);
    expect((await session(id)).deleted).toBe(0);
    const mine = await memberClient(env(), b.member);
    expect(await mine.ok(memberCancelLesson.path, { id: rb.id })).toEqual({ refunded: true, released: true });
    expect(await cardUsed(b.card.id)).toBe(0);
    expect((await session(id)).deleted).toBe(1);
    const again = await env().client.call(cancelLesson.path, { id: rb.id });
    expect(`${again.status} ${again.msg}`).toBe(`409 ${LessonBookingMsg.notLesson}`);
    // The teacher's hour is free again.
    await booked({ courseId: type.id, teacherId: teacher.id, time: '10:00', members: one(a) });
    await ok();
  });

  it('cancel after the cutoff: consumed as a late cancel (迟到取消), the lesson kept', async () => {
    const teacher = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const type = await lessonType(f(), {
      cancelCutoffMinutes: 24 * 60,
      cardIds: [pack.id],
      teachers: [{ id: teacher.id }],
    });
    const { member, card } = await memberWith(pack.id);
    const soon = addMinutes(storeNow(), 120);
    const { id } = await booked({
      courseId: type.id,
      teacherId: teacher.id,
      date: soon.slice(0, 10),
      time: soon.slice(11, 16),
      members: [{ mid: member.id, mcId: card.id }],
      outsideReason: '临时约课',
    });
    const [r] = await reservationsOf(id);
    expect(await env().client.ok(cancelLesson.path, { id: r.id })).toEqual({ refunded: false, released: false });
    expect(await cardUsed(card.id)).toBe(1);
    const [after] = await reservationsOf(id);
    expect([after.status, after.forfeited]).toEqual([3, 1]);
    expect((await session(id)).deleted).toBe(0);
    await ok();
  });

  it('teacher confirmation: 待确认 until confirmed, once; unconfirmed past the deadline released and refunded', async () => {
    await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 6 });
    const { teacher, pack, type } = await scene();
    const x = await memberWith(pack.id);
    const y = await memberWith(pack.id);
    const first = await booked({ courseId: type.id, teacherId: teacher.id, time: '10:00', members: one(x) });
    expect(first.status).toBe('pending');
    const s = await session(first.id);
    expect(s.appointmentStatus).toBe('pending');
    expect(s.confirmDeadline! > storeNow()).toBe(true);
    await env().client.ok(confirmLesson.path, { id: first.id });
    expect((await session(first.id)).appointmentStatus).toBe('confirmed');
    const twice = await env().client.call(confirmLesson.path, { id: first.id });
    expect(`${twice.status} ${twice.msg}`).toBe(`409 ${LessonBookingMsg.notPending}`);

    const second = await booked({ courseId: type.id, teacherId: teacher.id, time: '14:00', members: one(y) });
    // Not yet due: the job leaves it.
    await releaseUnconfirmed(env().app.deps);
    expect((await session(second.id)).deleted).toBe(0);
    // Its deadline passed (the clock moved on): released, the card refunded; the confirmed one stays.
    await db()
      .updateTable('timetable')
      .set({ confirmDeadline: '2000-01-01 00:00:00' })
      .where('id', '=', second.id)
      .execute();
    expect(await releaseUnconfirmed(env().app.deps)).toBe(1);
    expect((await session(second.id)).deleted).toBe(1);
    expect(await cardUsed(y.card.id)).toBe(0);
    expect((await session(first.id)).deleted).toBe(0);
    expect(await releaseUnconfirmed(env().app.deps)).toBe(0);
    await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    await ok();
  });

  it('the desk moves a lesson to another free time; a taken time refused', async () => {
    const { teacher, pack, type } = await scene();
    const x = await memberWith(pack.id);
    const y = await memberWith(pack.id);
    const a = await booked({ courseId: type.id, teacherId: teacher.id, time: '10:00', members: one(x) });
    await booked({ courseId: type.id, teacherId: teacher.id, time: '16:00', members: one(y) });
    await env().client.ok(moveLesson.path, { id: a.id, date: DAY, time: '13:00' });
    expect((await session(a.id)).startTime).toBe(`${DAY} 13:00:00`);
    const clash = await env().client.call(moveLesson.path, { id: a.id, date: DAY, time: '15:30' });
    expect(`${clash.status} ${clash.msg}`).toBe(`409 ${Msg.teacherConflict(`${DAY} 16:00-17:00`)}`);
    await ok();
  });

  it('members book a lesson on the phone; their group timetable and group booking never show or book one', async () => {
    const { teacher, pack, type } = await scene();
    const { member, card } = await memberWith(pack.id);
    const phone = await memberClient(env(), member);
    const mine = await phone.ok(memberBookLesson.path, {
      courseId: type.id,
      teacherId: teacher.id,
      date: DAY,
      time: '09:00',
      mcId: card.id,
    });
    expect((await reservationsOf(mine.id)).map((r) => [r.memberId, r.memberCardId])).toEqual([[member.id, card.id]]);
    const days = await phone.ok(memberTimetable.path, { fromDate: DAY, toDate: DAY });
    expect(days.flatMap((d: { sessions: { id: number }[] }) => d.sessions.map((s) => s.id))).not.toContain(mine.id);
    const other = await memberWith(pack.id);
    const otherPhone = await memberClient(env(), other.member);
    const a = await otherPhone.call(memberBook.path, { tid: mine.id, mcId: other.card.id });
    expect(`${a.status} ${a.msg}`).toBe('404 课程不存在');
    // The desk's group booking of a lesson is the lesson's own call too: a full session refuses.
    const b = await env().client.call(addMemberReservation.path, { tid: mine.id, mcId: other.card.id });
    expect(`${b.status} ${b.msg}`).toBe(`409 ${Msg.sessionFull}`);
    await ok();
  });

  it('签到后扣费: a lesson held for sign-in is cancelled by the desk’s and the member’s lesson cancel — before the cutoff released with nothing charged, after it charged as a late cancel; 我的预约 lists each', async () => {
    await env().client.ok(updateModuleStatus.path, { moduleId: MODULE_DEDUCTION_MODE, status: 1 });
    try {
      const { teacher, pack, type } = await scene();
      const pendingOf = (sessionId: number) =>
        db().selectFrom('pending').selectAll().where('timetableId', '=', sessionId).executeTakeFirstOrThrow();
      const mine = async (m: { id: number; mobile: string }) =>
        (
          await (
            await memberClient(env(), m)
          ).ok<ResOf<typeof memberMyBookings>>(memberMyBookings.path, { state: 'upcoming', page: 1 })
        ).list;
      // The desk cancels one it booked: released, the seat's card untouched.
      const x = await memberWith(pack.id);
      const a = await booked({ courseId: type.id, teacherId: teacher.id, time: '09:00', members: one(x) });
      const pa = await pendingOf(a.id);
      expect(pa.status).toBe(PendingStatus.WAITING);
      expect(await env().client.ok(cancelLesson.path, { id: pa.id, kind: 'pending' })).toEqual({
        refunded: true,
        released: true,
      });
      expect((await pendingOf(a.id)).status).toBe(PendingStatus.CANCELLED);
      expect((await session(a.id)).deleted).toBe(1);
      expect(await cardUsed(x.card.id)).toBe(0);
      expect(await mine(x.member)).toMatchObject([{ kind: 'cancelled', state: '已取消', lesson: 'confirmed' }]);
      const again = await env().client.call(cancelLesson.path, { id: pa.id, kind: 'pending' });
      expect(`${again.status} ${again.msg}`).toBe(`409 ${LessonBookingMsg.notLesson}`);

      // The member cancels their own on the phone (不是他的: 404): released likewise.
      const y = await memberWith(pack.id);
      const b = await booked({ courseId: type.id, teacherId: teacher.id, time: '11:00', members: one(y) });
      const pb = await pendingOf(b.id);
      expect(await mine(y.member)).toMatchObject([{ id: pb.id, kind: 'pending', lesson: 'confirmed' }]);
      const stranger = await memberClient(env(), (await memberWith(pack.id)).member);
      const theirs = await stranger.call(memberCancelLesson.path, { id: pb.id, kind: 'pending' });
      expect(`${theirs.status} ${theirs.msg}`).toBe('404 预约不存在');
      const phone = await memberClient(env(), y.member);
      expect(await phone.ok(memberCancelLesson.path, { id: pb.id, kind: 'pending' })).toEqual({
        refunded: true,
        released: true,
      });
      expect((await session(b.id)).deleted).toBe(1);
      expect(await mine(y.member)).toMatchObject([{ id: pb.id, kind: 'cancelled', state: '已取消' }]);

      // After the type's cutoff: charged what its sign-in would (迟到取消), the lesson kept.
      const strict = await lessonType(f(), {
        cancelCutoffMinutes: 24 * 60,
        cardIds: [pack.id],
        teachers: [{ id: teacher.id }],
      });
      const z = await memberWith(pack.id, { totalCount: 5 });
      const soon = addMinutes(storeNow(), 120);
      const c = await booked({
        courseId: strict.id,
        teacherId: teacher.id,
        date: soon.slice(0, 10),
        time: soon.slice(11, 16),
        members: one(z),
        outsideReason: '临时约课',
      });
      const pc = await pendingOf(c.id);
      const zPhone = await memberClient(env(), z.member);
      expect(await zPhone.ok(memberCancelLesson.path, { id: pc.id, kind: 'pending' })).toEqual({
        refunded: false,
        released: false,
      });
      expect(await cardUsed(z.card.id)).toBe(1);
      expect((await session(c.id)).deleted).toBe(0);
      expect(await mine(z.member)).toMatchObject([{ kind: 'cancelled', state: '迟到取消，已扣除' }]);
      const twice = await zPhone.call(memberCancelLesson.path, { id: pc.id, kind: 'pending' });
      expect(`${twice.status} ${twice.msg}`).toBe(`409 ${Msg.pendingNotWaiting}`);
      await ok();
    } finally {
      await env().client.ok(updateModuleStatus.path, { moduleId: MODULE_DEDUCTION_MODE, status: 0 });
    }
  });
});
