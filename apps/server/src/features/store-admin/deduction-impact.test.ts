import { PendingStatus, queryDeductionModeImpact, ReservationStatus } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import type { Factory } from '../../../test/factory.ts';
import { describeEachDb, staffClient } from '../../../test/harness.ts';
import { insertSession } from '../../../test/session-row.ts';

const today = () => localDateTime('Asia/Shanghai').slice(0, 10);

/** A session of the store `dayOffset` days from today (store time) at `time`, deleted or not. */
function session(f: Factory, dayOffset: number, time = '10:00', deleted = 0) {
  const day = addDays(today(), dayOffset);
  return insertSession(f.db, f, {
    startTime: `${day} ${time}:00`,
    endTime: `${day} ${time.slice(0, 2)}:50:00`,
    deleted,
  });
}

/** A booking of a new member with a new card on `timetableId`, in the given state. */
async function reservation(f: Factory, timetableId: number, status: number = ReservationStatus.BOOKED) {
  const product = await f.cardProduct();
  const member = await f.member();
  const card = await f.memberCard(member.id, product.id);
  await f.db
    .insertInto('reservation')
    .values({
      storeId: f.storeId,
      timetableId,
      memberId: member.id,
      memberCardId: card.id,
      pendingId: null,
      studentCount: 1,
      usedCount: 1,
      remark: null,
      operatorId: null,
      status,
      createTime: '2026-01-01 00:00:00',
      cancelTime: status === ReservationStatus.CANCELLED ? '2026-01-01 00:10:00' : null,
      attendedTime: null,
      waivedTime: null,
      waiveReason: null,
    })
    .execute();
}

/** A pending of a new member on `timetableId`, in the given state. */
async function pending(f: Factory, timetableId: number, status: number = PendingStatus.WAITING) {
  const member = await f.member();
  await f.db
    .insertInto('pending')
    .values({
      storeId: f.storeId,
      timetableId,
      memberId: member.id,
      studentCount: 1,
      status,
      createTime: '2026-01-01 00:00:00',
    })
    .execute();
}

describeEachDb('切换扣费模式: what a switch leaves as it is (query/deduction/mode/impact)', (env) => {
  it('counts live bookings and waiting pendings of classes from today on, of this store only', async () => {
    const { client, factory: f, other } = env();
    const start = await client.ok(queryDeductionModeImpact.path, {});
    expect(start).toEqual({ fromDate: today(), reservations: 0, pendings: 0 });

    // Today: an early class (already over on most clocks: still today) and a late one; a class in a week.
    const early = await session(f, 0, '00:00');
    const late = await session(f, 0, '23:00');
    const later = await session(f, 7);
    await reservation(f, early.id);
    await reservation(f, late.id);
    await reservation(f, late.id, ReservationStatus.SIGNED_IN);
    await reservation(f, later.id);
    await pending(f, early.id);
    await pending(f, later.id);
    await pending(f, later.id);

    // Not counted: cancelled bookings and pendings, pendings signed in (their booking is counted),
    // no-shows, classes of yesterday and before, deleted classes, another store's.
    await reservation(f, late.id, ReservationStatus.CANCELLED);
    await pending(f, late.id, PendingStatus.CANCELLED);
    await pending(f, late.id, PendingStatus.SIGNED_IN);
    await pending(f, late.id, PendingStatus.NO_SHOW);
    const yesterday = await session(f, -1, '23:00');
    await reservation(f, yesterday.id);
    await pending(f, yesterday.id);
    const lastWeek = await session(f, -7);
    await reservation(f, lastWeek.id);
    await pending(f, lastWeek.id);
    const deleted = await session(f, 2, '10:00', 1);
    await reservation(f, deleted.id);
    await pending(f, deleted.id);
    const elsewhere = await session(other.factory, 1);
    await reservation(other.factory, elsewhere.id);
    await pending(other.factory, elsewhere.id);

    expect(await client.ok(queryDeductionModeImpact.path, {})).toEqual({
      fromDate: today(),
      reservations: 4,
      pendings: 3,
    });
    expect(await other.client.ok(queryDeductionModeImpact.path, {})).toEqual({
      fromDate: today(),
      reservations: 1,
      pendings: 1,
    });
  });

  it('is the manager’s: the desk and the teacher are refused', async () => {
    const teacher = await env().factory.teacher();
    for (const [role, teacherId] of [
      ['desk', null],
      ['teacher', teacher.id],
    ] as const) {
      const staff = await staffClient(env(), role, teacherId);
      const a = await staff.call(queryDeductionModeImpact.path, {});
      expect(a.status, role).toBe(403);
    }
  });
});
