import {
  bookLesson,
  LessonBookingMsg,
  MemberLessonMsg,
  memberBookLesson,
  memberCardsForLesson,
  memberLessonSlots,
  memberCancelLesson,
  memberLessonTypes,
  memberMyBookings,
  Msg,
  PolicyMsg,
  saveLessonBookingSetting,
  updateLessonTypeStatus,
  type ResOf,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { lessonType, moneyProduct } from '../../../test/lesson-kit.ts';
import { memberClient } from '../../../test/member-client.ts';
import { addDays, localDateTime } from '../../lib/time.ts';

describeEachDb('lessons: the member’s picks on the phone (types, free times, cards)', (env) => {
  const f = () => env().factory;
  const db = () => env().database.db;
  const today = () => localDateTime('Asia/Shanghai').slice(0, 10);
  const tomorrow = () => addDays(today(), 1);

  /** Two teachers (senior, master) giving a 1对1 paid by a lesson pack or a 储值卡, a member holding both. */
  async function scene() {
    const senior = await f().teacher();
    const master = await f().teacher();
    const pack = await f().cardProduct({ perCount: 1 });
    const money = await moneyProduct(f());
    const type = await lessonType(f(), {
      cardIds: [pack.id, money.id],
      teachers: [
        { id: senior.id, level: 'senior' },
        { id: master.id, level: 'master' },
      ],
      prices: [
        { level: 'senior', price: 300_00 },
        { level: 'master', price: 500_00 },
      ],
      cancelCutoffMinutes: 720,
    });
    const member = await f().member();
    const packCard = await f().memberCard(member.id, pack.id);
    const moneyCard = await f().memberCard(member.id, money.id, { totalCount: 1000_00 });
    const phone = await memberClient(env(), member);
    return { senior, master, pack, money, type, member, packCard, moneyCard, phone };
  }

  it('lists the enabled lesson types with their teachers and prices, not group classes or disabled types', async () => {
    const { senior, master, type, phone } = await scene();
    const off = await lessonType(f(), { cardIds: [], teachers: [{ id: senior.id }], course: { name: '停用私教' } });
    await env().client.ok(updateLessonTypeStatus.path, { id: off.id, enabled: 0 });
    const group = await f().course({ name: '团课' });
    const types = await phone.ok<ResOf<typeof memberLessonTypes>>(memberLessonTypes.path, {});
    const ids = types.map((t) => t.id);
    expect(ids).toContain(type.id);
    expect(ids).not.toContain(off.id);
    expect(ids).not.toContain(group.id);
    const t = types.find((x) => x.id === type.id)!;
    expect(t).toMatchObject({ kind: 'one_on_one', duration: 60, cancelCutoffMinutes: 720 });
    expect(t.teachers).toEqual([
      { teacherId: senior.id, name: senior.name, level: 'senior' },
      { teacherId: master.id, name: master.name, level: 'master' },
    ]);
    expect(t.prices).toEqual(
      expect.arrayContaining([
        { level: 'senior', price: 300_00 },
        { level: 'master', price: 500_00 },
      ]),
    );
    // Not signed in: the member's call is refused.
    expect((await env().anon().call(memberLessonTypes.path, {})).status).toBe(401);
  });

  it('free times of a day are the finder’s: one teacher, or every teacher who gives it (任意老师)', async () => {
    const { senior, master, type, pack, phone } = await scene();
    // The desk takes the senior's 10:00 tomorrow.
    const other = await f().member();
    const card = await f().memberCard(other.id, pack.id);
    await env().client.ok(bookLesson.path, {
      courseId: type.id,
      teacherId: senior.id,
      date: tomorrow(),
      time: '10:00',
      members: [{ mid: other.id, mcId: card.id }],
    });
    const one = await phone.ok<ResOf<typeof memberLessonSlots>>(memberLessonSlots.path, {
      courseId: type.id,
      teacherId: senior.id,
      date: tomorrow(),
    });
    expect(one.map((t) => t.teacherId)).toEqual([senior.id]);
    const starts = one[0].slots.map((s) => s.startTime.slice(11, 16));
    expect(starts[0]).toBe('06:00');
    expect(starts.at(-1)).toBe('21:00');
    // 09:30 and 10:30 would overlap the booked 10:00-11:00.
    expect(starts).not.toContain('09:30');
    expect(starts).not.toContain('10:00');
    expect(starts).not.toContain('10:30');
    expect(starts).toContain('11:00');
    expect(one[0].slots[0]).toEqual({ startTime: `${tomorrow()} 06:00:00`, endTime: `${tomorrow()} 07:00:00` });
    // 任意老师: both teachers, the master free at 10:00.
    const any = await phone.ok<ResOf<typeof memberLessonSlots>>(memberLessonSlots.path, {
      courseId: type.id,
      date: tomorrow(),
    });
    expect(any.map((t) => [t.teacherId, t.name, t.level])).toEqual(
      expect.arrayContaining([
        [senior.id, senior.name, 'senior'],
        [master.id, master.name, 'master'],
      ]),
    );
    const masterStarts = any.find((t) => t.teacherId === master.id)!.slots.map((s) => s.startTime.slice(11, 16));
    expect(masterStarts).toContain('10:00');
    const nullTeacher = await phone.ok<ResOf<typeof memberLessonSlots>>(memberLessonSlots.path, {
      courseId: type.id,
      teacherId: null,
      date: tomorrow(),
    });
    expect(nullTeacher).toEqual(any);
  });

  it('refuses in the member’s words: unknown or another store’s type or teacher, a teacher not giving it, a day out of range', async () => {
    const { type, senior, phone } = await scene();
    const refusal = async (path: string, body: Record<string, unknown>) => {
      const a = await phone.call(path, body);
      return `${a.status} ${a.msg}`;
    };
    const theirs = env().other.factory;
    const theirTeacher = await theirs.teacher();
    const theirType = await lessonType(theirs, { cardIds: [], teachers: [{ id: theirTeacher.id }] });
    const notGiving = await f().teacher();
    const group = await f().course({ name: '团课' });
    const day = { date: tomorrow() };
    for (const path of [memberLessonSlots.path, memberCardsForLesson.path]) {
      const at = path === memberCardsForLesson.path ? { time: '10:00' } : {};
      const base = { courseId: type.id, ...day, ...at };
      const own = senior.id;
      expect(await refusal(path, { ...base, courseId: 999_999, teacherId: own })).toBe('404 课程不存在');
      expect(await refusal(path, { ...base, courseId: theirType.id, teacherId: own })).toBe('404 课程不存在');
      expect(await refusal(path, { ...base, courseId: group.id, teacherId: own })).toBe('404 课程不存在');
      expect(await refusal(path, { ...base, teacherId: 999_999 })).toBe('404 老师不存在');
      expect(await refusal(path, { ...base, teacherId: theirTeacher.id })).toBe('404 老师不存在');
      expect(await refusal(path, { ...base, teacherId: notGiving.id })).toBe(`409 ${LessonBookingMsg.notTeacher}`);
      expect(await refusal(path, { ...base, teacherId: own, date: '2026-13-40' })).toMatch(/^400 /);
      expect(await refusal(path, { ...base, courseId: 'x', teacherId: own })).toMatch(/^400 /);
    }
    const own = senior.id;
    for (const date of [addDays(today(), -1), addDays(today(), 14)]) {
      expect(await refusal(memberLessonSlots.path, { courseId: type.id, teacherId: own, date })).toBe(
        `400 ${MemberLessonMsg.days}`,
      );
    }
    expect(
      (
        await phone.ok<ResOf<typeof memberLessonSlots>>(memberLessonSlots.path, {
          courseId: type.id,
          teacherId: own,
          date: addDays(today(), 13),
        })
      ).length,
    ).toBe(1);
  });

  it('cards for a lesson: the member’s own only, each usable or why not by the booking’s rules', async () => {
    const { senior, master, type, packCard, moneyCard, phone, member } = await scene();
    // Another member's card of the same pack is never shown.
    const stranger = await f().member();
    const strangerCard = await f().memberCard(stranger.id, packCard.cardId);
    // A pack bound to the master pays only the master's lessons; an empty pack none; a group-only card not this type.
    const bound = await f().cardProduct({ perCount: 1, teacherId: master.id });
    await db()
      .insertInto('courseCard')
      .values({ storeId: env().storeId, courseId: type.id, cardId: bound.id })
      .execute();
    const boundCard = await f().memberCard(member.id, bound.id);
    const emptyCard = await f().memberCard(member.id, packCard.cardId, { totalCount: 0 });
    const groupOnly = await f().cardProduct({ perCount: 1 });
    const groupCard = await f().memberCard(member.id, groupOnly.id);
    const at = { courseId: type.id, date: tomorrow(), time: '10:00' };
    const cards = await phone.ok<ResOf<typeof memberCardsForLesson>>(memberCardsForLesson.path, {
      ...at,
      teacherId: senior.id,
    });
    expect(cards.map((c) => c.id).sort((a, b) => a - b)).toEqual(
      [packCard.id, moneyCard.id, boundCard.id, emptyCard.id, groupCard.id].sort((a, b) => a - b),
    );
    expect(cards.map((c) => c.id)).not.toContain(strangerCard.id);
    const byId = new Map(cards.map((c) => [c.id, c]));
    expect([byId.get(packCard.id)!.usable, byId.get(packCard.id)!.perCount]).toEqual([true, 1]);
    // A 储值卡 pays the type's price at the teacher's level.
    expect([byId.get(moneyCard.id)!.usable, byId.get(moneyCard.id)!.perCount]).toEqual([true, 300_00]);
    expect(byId.get(boundCard.id)!.reason).toBe(Msg.cardNotAllowed);
    expect(byId.get(emptyCard.id)!.reason).toBe(Msg.cardBalance);
    expect(byId.get(groupCard.id)!.reason).toBe(Msg.cardNotAllowed);
    // With the master: the bound pack fits, the 储值卡 pays the master's price.
    const withMaster = new Map(
      (
        await phone.ok<ResOf<typeof memberCardsForLesson>>(memberCardsForLesson.path, { ...at, teacherId: master.id })
      ).map((c) => [c.id, c]),
    );
    expect(withMaster.get(boundCard.id)!.usable).toBe(true);
    expect(withMaster.get(moneyCard.id)!.perCount).toBe(500_00);
    // What the picker says is what booking finds: the card it refuses is refused, the one it offers books.
    const refused = await phone.call(memberBookLesson.path, { ...at, teacherId: senior.id, mcId: boundCard.id });
    expect(`${refused.status} ${refused.msg}`).toBe(`409 ${Msg.cardNotAllowed}`);
    const done = await phone.ok<ResOf<typeof memberBookLesson>>(memberBookLesson.path, {
      ...at,
      teacherId: senior.id,
      mcId: moneyCard.id,
    });
    expect(done.status).toBe('confirmed');
    const used = await db()
      .selectFrom('memberCard')
      .select('usedCount')
      .where('id', '=', moneyCard.id)
      .executeTakeFirstOrThrow();
    expect(Number(used.usedCount)).toBe(300_00);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  it('我的预约 shows a booked lesson (待确认 while its teacher must confirm) with its type’s cutoff, and the member cancels it', async () => {
    const { senior, type, pack, packCard, phone } = await scene();
    await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 1, confirmHours: 12 });
    try {
      // Two days ahead: before the 12-hour cutoff whenever the test runs.
      const date = addDays(today(), 2);
      const { status } = await phone.ok<ResOf<typeof memberBookLesson>>(memberBookLesson.path, {
        courseId: type.id,
        teacherId: senior.id,
        date,
        time: '10:00',
        mcId: packCard.id,
      });
      expect(status).toBe('pending');
      const mine = async () =>
        (await phone.ok<ResOf<typeof memberMyBookings>>(memberMyBookings.path, { state: 'upcoming', page: 1 })).list;
      const [b] = await mine();
      expect(b).toMatchObject({
        kind: 'booked',
        lesson: 'pending',
        state: '待确认',
        session: { courseName: type.name, teacherName: senior.name, fromTime: `${date} 10:00:00` },
        cancelCost: PolicyMsg.cancelFree('1 次'),
      });
      expect(await phone.ok(memberCancelLesson.path, { id: b.id })).toEqual({ refunded: true, released: true });
      // Released (nobody left in it), yet listed as 已取消, as a cancelled group class is.
      expect(await mine()).toMatchObject([{ id: b.id, kind: 'cancelled', state: '已取消', cancelCost: null }]);
      // A type cancelled free only 30 days ahead: the late wording, and the lesson kept (迟到取消).
      const strict = await lessonType(f(), {
        cardIds: [pack.id],
        teachers: [{ id: senior.id }],
        cancelCutoffMinutes: 30 * 24 * 60,
      });
      await phone.ok(memberBookLesson.path, {
        courseId: strict.id,
        teacherId: senior.id,
        date,
        time: '15:00',
        mcId: packCard.id,
      });
      const late = (await mine()).find((x) => x.kind === 'booked')!;
      expect(late.cancelCost).toBe(PolicyMsg.cancelLate(30 * 24 * 60, '1 次'));
      expect(await phone.ok(memberCancelLesson.path, { id: late.id })).toEqual({ refunded: false, released: false });
      expect((await mine()).find((x) => x.id === late.id)).toMatchObject({
        kind: 'cancelled',
        state: '迟到取消，已扣除',
      });
      // Another member's booking is not this member's to cancel.
      const other = await f().member();
      const otherPhone = await memberClient(env(), other);
      const a = await otherPhone.call(memberCancelLesson.path, { id: late.id });
      expect(`${a.status} ${a.msg}`).toBe('404 预约不存在');
      expect(await checkInvariants(db(), env().storeId)).toEqual([]);
    } finally {
      await env().client.ok(saveLessonBookingSetting.path, { teacherConfirms: 0, confirmHours: 12 });
    }
  });
});
