// The export's columns (issue 33, item 11): 场地 (the session's room or venue), 扣除 as a number with
// its 单位 (次 / 元) so that a spreadsheet adds it up, and 状态 (已预约 / 已到店 / 已签到 / 迟到取消 /
// 爽约) for every kind of booking, in both deduction modes. The range export and one session's export
// give the same rows; another store's bookings never appear. Both databases.
import {
  addGroupPending,
  addMemberReservation,
  BIG_TYPE_MONEY,
  batchExportReservation,
  DEFAULT_POLICY,
  exportTimetableReservation,
  markAttendanceCall,
  memberBook,
  memberCancelBooking,
  signInPendingCall,
  updateBookingPolicy,
  type SessionExportRow,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { addDays, addMinutes, localDateTime } from '../../lib/time.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';

const now = () => localDateTime('Asia/Shanghai');

describeEachDb('the export: 场地, 扣除 with its 单位, and 状态', (env) => {
  const ok = <T = any>(path: string, body: Record<string, unknown>) => env().client.ok<T>(path, body);
  const ef = () => new EngineFactory(env().factory);
  const db = () => env().database.db;

  afterEach(async () => {
    await ok(updateBookingPolicy.path, DEFAULT_POLICY);
    await ef().setMode(0);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  /** A count product and a money product (50.00 元 a class), a course both book, a teacher and a room. */
  async function scene() {
    const e = ef();
    const { teacher, product } = await e.scene();
    const wallet = await env().factory.cardProduct({
      cardName: `储值卡${teacher.id}`,
      bigType: BIG_TYPE_MONEY,
      perCount: 5000,
    });
    const course = await env().factory.course({ cardIds: [product.id, wallet.id] });
    const room = await env().factory.area({ name: `瑜伽室${teacher.id}` });
    const member = (name: string, money = false) =>
      e.memberWithCard(money ? wallet.id : product.id, {
        member: { name: `${name}${teacher.id}` },
        card: { totalCount: money ? 100_000 : 10 },
      });
    const book = async (m: { card: { id: number } }, tid: number) => {
      await ok(addMemberReservation.path, { mcId: m.card.id, tid, studentCount: 1 });
      const r = await db()
        .selectFrom('reservation')
        .select('id')
        .where('timetableId', '=', tid)
        .where('memberCardId', '=', m.card.id)
        .executeTakeFirstOrThrow();
      return r.id;
    };
    return { e, teacher, product, wallet, course, room, member, book };
  }

  const columns = (rows: SessionExportRow[]) =>
    rows.map((r) => [r.member.replace(/\d+$/, ''), r.area, r.amount, r.unit, r.deduction, r.state]);

  it('says where, how much in which unit, and what became of each booking (预约即扣费)', async () => {
    const s = await scene();
    const yesterday = addDays(now().slice(0, 10), -1);
    // Held yesterday in the room: one came (marked 到店), one did not (爽约 once attendance was taken).
    const held = await s.e.session({ courseId: s.course.id, teacherId: s.teacher.id, venueId: s.room.id });
    const came = await s.member('到了');
    const missed = await s.member('没来', true);
    const cameId = await s.book(came, held.id);
    await s.book(missed, held.id);
    await db()
      .updateTable('timetable')
      .set({ startTime: `${yesterday} 10:00:00`, endTime: `${yesterday} 11:00:00` })
      .where('id', '=', held.id)
      .execute();
    await ok(markAttendanceCall.path, { reservationId: cameId, attended: 1 });
    // In half an hour, no venue: one booked, one who cancelled too late (the policy keeps the charge).
    await ok(updateBookingPolicy.path, { cancelMinutesBefore: 120, lateCancel: 'forfeit' });
    const soon = await s.e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: addMinutes(now(), 30),
    });
    const booked = await s.member('已约', true);
    await s.book(booked, soon.id);
    const late = await s.member('晚退');
    const phone = await memberClient(env(), late.member);
    const own = await phone.ok(memberBook.path, { tid: soon.id, mcId: late.card.id });
    expect((await phone.call(memberCancelBooking.path, { id: own.id })).code).toBe(0);

    const range = await ok<SessionExportRow[]>(batchExportReservation.path, {
      fromDate: yesterday,
      toDate: addDays(yesterday, 2),
    });
    const mine = range.filter((r) => r.teacher === s.teacher.name);
    expect(columns(mine)).toEqual([
      ['到了', s.room.name, 1, '次', '1 次', '已到店'],
      ['没来', s.room.name, 50, '元', '50.00 元', '爽约'],
      ['已约', null, 50, '元', '50.00 元', '已预约'],
      ['晚退', null, 1, '次', '1 次', '迟到取消'],
    ]);
    // One session's export: the same rows.
    const one = await ok<SessionExportRow[]>(exportTimetableReservation.path, { id: held.id });
    expect(one).toEqual(mine.slice(0, 2));
    // The 扣除 column adds up per unit to what the cards paid.
    const sum = (unit: string) => mine.filter((r) => r.unit === unit).reduce((n, r) => n + r.amount, 0);
    expect([sum('次'), sum('元')]).toEqual([2, 100]);
    // Another store's export has none of them.
    const theirs = await env().other.client.ok<SessionExportRow[]>(batchExportReservation.path, {
      fromDate: yesterday,
      toDate: addDays(yesterday, 2),
    });
    expect(theirs.filter((r) => r.teacher === s.teacher.name)).toEqual([]);
  });

  it('签到后扣费: a pending waiting is 已预约 with nothing deducted yet, a signed-in one 已签到', async () => {
    const s = await scene();
    await s.e.setMode(1);
    const session = await s.e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      venueId: s.room.id,
      startTime: `${FUTURE} 15:00:00`,
    });
    const waiting = await s.member('等签');
    const signed = await s.member('签了', true);
    for (const m of [waiting, signed]) {
      await ok(addGroupPending.path, { mid: m.member.id, tid: session.id, mcId: m.card.id, studentCount: 1 });
    }
    const p = await db()
      .selectFrom('pending')
      .select('id')
      .where('memberId', '=', signed.member.id)
      .executeTakeFirstOrThrow();
    await ok(signInPendingCall.path, { pendingId: p.id, mcId: signed.card.id, remark: null });
    const rows = await ok<SessionExportRow[]>(exportTimetableReservation.path, { id: session.id });
    expect(columns(rows)).toEqual([
      ['签了', s.room.name, 50, '元', '50.00 元', '已签到'],
      ['等签', s.room.name, 0, '次', '0 次', '已预约'],
    ]);
    expect(rows[1].card).toBe(s.product.cardName);
  });
});
