// Caps per card (issue 29, item 4): a product's most classes a day and a week (Monday to Sunday),
// kept by the one booking rule set for the desk (both deduction modes), the member's own booking,
// the promotion of a wait, batch runs; raced over three app instances on one PostgreSQL.
import {
  addGroupPending,
  addMemberReservation,
  addWaitlist,
  cancelReservationCall,
  memberBook,
  Msg,
  queryReservationList,
  updateBookingPolicy,
  WaitStatus,
} from '@studio/contract';
import { afterEach, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { type Answer, describeEachDb, moreInstances } from '../../../test/harness.ts';
import { checkInvariants } from '../../../test/invariants.ts';
import { memberClient } from '../../../test/member-client.ts';
import { capRefusal, capsOf, weekDays } from '../cards/public.ts';

// FUTURE (2099-06-01) is a Monday: its week is 06-01 .. 06-07.
const day = (n: number) => `2099-06-0${n}`;

it('the cap rule: per day, then per week from Monday to Sunday', () => {
  expect(weekDays('2099-06-03')).toEqual([1, 2, 3, 4, 5, 6, 7].map(day));
  expect(weekDays('2099-06-07')[0]).toBe(day(1));
  const caps = capsOf({ maxPerDay: 1, maxPerWeek: 2, capDays: `${day(2)},${day(8)}` });
  const count = (d: string) => caps.perDay.get(d) ?? 0;
  expect(capRefusal(caps, day(2), count)).toBe(Msg.capPerDay(1));
  expect(capRefusal(caps, day(3), count)).toBeNull();
  expect(
    capRefusal({ ...caps, perDay: new Map([...caps.perDay, [day(7), 1]]) }, day(5), (d) =>
      d === day(7) || d === day(2) ? 1 : 0,
    ),
  ).toBe(Msg.capPerWeek(2));
  expect(capRefusal(capsOf({ maxPerDay: null, maxPerWeek: null, capDays: '' }), day(2), () => 99)).toBeNull();
});

describeEachDb('caps per card: classes a day and a week', (env) => {
  const ef = () => new EngineFactory(env().factory);
  const api = () => env().client;
  const db = () => env().database.db;

  afterEach(async () => {
    await api().ok(updateBookingPolicy.path, { waitlist: 0 });
    await ef().setMode(0);
    expect(await checkInvariants(db(), env().storeId)).toEqual([]);
  });

  /** A capped product, a member with its card, and classes at 10:00 and 15:00 of each day of the week. */
  async function scene(caps: { maxPerDay?: number | null; maxPerWeek?: number | null }, seats = 10) {
    const e = ef();
    const s = await e.scene({ product: { perCount: 1, ...caps } });
    const { member, card } = await e.memberWithCard(s.product.id, { card: { totalCount: 50 } });
    const classes: Record<string, number> = {};
    for (let d = 1; d <= 8; d++) {
      for (const h of ['10', '15']) {
        const date = d === 8 ? '2099-06-08' : day(d);
        const row = await e.session({
          courseId: s.course.id,
          teacherId: s.teacher.id,
          startTime: `${date} ${h}:00:00`,
          reservableCount: seats,
        });
        classes[`${date} ${h}`] = row.id;
      }
    }
    return { e, s, member, card, classes };
  }
  const book = (mcId: number, tid: number) => api().call(addMemberReservation.path, { mcId, tid, studentCount: 1 });
  const refusal = (a: Answer) => [a.status, a.msg];

  it('the desk: a second class the same day refused; a third in the week refused; Monday next week fine; a cancel makes room', async () => {
    const { card, classes } = await scene({ maxPerDay: 1, maxPerWeek: 2 });
    expect((await book(card.id, classes[`${day(2)} 10`])).code).toBe(0);
    expect(refusal(await book(card.id, classes[`${day(2)} 15`]))).toEqual([409, Msg.capPerDay(1)]);
    expect((await book(card.id, classes[`${day(4)} 10`])).code).toBe(0);
    expect(refusal(await book(card.id, classes[`${day(7)} 15`]))).toEqual([409, Msg.capPerWeek(2)]);
    expect((await book(card.id, classes['2099-06-08 10'])).code).toBe(0);
    // Cancelling Tuesday's class frees the day and the week.
    const [r] = (await api().ok(queryReservationList.path, { tid: classes[`${day(2)} 10`], page: 1 })).list as {
      reservationId: number;
    }[];
    await api().ok(cancelReservationCall.path, { id: r.reservationId });
    expect((await book(card.id, classes[`${day(7)} 15`])).code).toBe(0);
    expect(
      (await db().selectFrom('memberCard').select('usedCount').where('id', '=', card.id).executeTakeFirstOrThrow())
        .usedCount,
    ).toBe(3);
  });

  it('deduction at sign-in: waiting pendings count like bookings', async () => {
    const { e, card, member, classes } = await scene({ maxPerDay: 2, maxPerWeek: null });
    await e.setMode(1);
    const pend = (tid: number) => api().call(addGroupPending.path, { mid: member.id, tid, mcId: card.id });
    for (const h of ['10', '15']) {
      const a = await pend(classes[`${day(3)} ${h}`]);
      expect(a.code, a.msg).toBe(0);
    }
    const s = await db()
      .selectFrom('timetable')
      .select(['courseId', 'teacherId'])
      .where('id', '=', classes[`${day(3)} 10`])
      .executeTakeFirstOrThrow();
    const evening = await ef().session({ ...s, startTime: `${day(3)} 19:00:00` });
    expect(refusal(await pend(evening.id))).toEqual([409, Msg.capPerDay(2)]);
  });

  it("the member's own booking is refused with the cap's words", async () => {
    const { member, card, classes } = await scene({ maxPerDay: null, maxPerWeek: 1 });
    const me = await memberClient(env(), member);
    expect((await me.call(memberBook.path, { tid: classes[`${day(5)} 10`], mcId: card.id })).code).toBe(0);
    const a = await me.call(memberBook.path, { tid: classes[`${day(6)} 10`], mcId: card.id });
    expect(refusal(a)).toEqual([409, Msg.capPerWeek(1)]);
  });

  it('a wait at the cap is not promoted into the class; the next one in the queue is', async () => {
    const { e, s, card, classes } = await scene({ maxPerDay: 1 }, 1);
    await api().ok(updateBookingPolicy.path, { waitlist: 1 });
    const full = classes[`${day(2)} 15`];
    // Another member takes the only seat; ours waits, then books the morning class of that day.
    const holder = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    expect((await book(holder.card.id, full)).code).toBe(0);
    const ours = await db()
      .selectFrom('memberCard')
      .select('memberId')
      .where('id', '=', card.id)
      .executeTakeFirstOrThrow();
    await api().ok(addWaitlist.path, { tid: full, mid: ours.memberId, mcId: card.id, studentCount: 1 });
    const next = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    await api().ok(addWaitlist.path, { tid: full, mid: next.member.id, mcId: next.card.id, studentCount: 1 });
    expect((await book(card.id, classes[`${day(2)} 10`])).code).toBe(0);
    // The seat frees: our member is at the day's cap, so the second in the queue gets it.
    const [r] = (await api().ok(queryReservationList.path, { tid: full, page: 1 })).list as { reservationId: number }[];
    await api().ok(cancelReservationCall.path, { id: r.reservationId });
    const inClass = await db()
      .selectFrom('reservation')
      .select('memberCardId')
      .where('timetableId', '=', full)
      .where('status', 'in', [1, 2])
      .execute();
    expect(inClass.map((x) => x.memberCardId)).toEqual([next.card.id]);
    const waits = await db()
      .selectFrom('waitlist')
      .select(['memberCardId', 'status'])
      .where('timetableId', '=', full)
      .orderBy('id')
      .execute();
    expect(waits.find((w) => w.memberCardId === card.id)?.status).not.toBe(WaitStatus.PROMOTED);
  });

  it('a batch run is all or nothing: two classes a day for a card capped at one is refused, naming the cap', async () => {
    const { s, card } = await scene({ maxPerDay: 1 });
    const area = await env().factory.area();
    const a = await api().call('/store/api/batch/arrange/course', {
      cid: s.course.id,
      areaId: area.id,
      students: 5,
      tid: s.teacher.id,
      startDate: '2099-06-15',
      arrangeTimes: 2,
      courseTimes: [
        { weekday: 1, arrangeTime: '09:00' },
        { weekday: 1, arrangeTime: '18:00' },
      ],
      mcIds: [card.id],
      isOnline: 0,
    });
    expect(a.status).toBe(409);
    expect(a.msg).toContain(Msg.capPerDay(1));
    const made = await db()
      .selectFrom('timetable')
      .select('id')
      .where('startTime', '>=', '2099-06-15')
      .where('startTime', '<', '2099-06-16')
      .execute();
    expect(made).toEqual([]);
  });

  describeThreeInstances(env);
});

/** 30 bookings of one capped card (2 a week) over 10 classes of a week, sent at once through three instances. */
function describeThreeInstances(env: () => import('../../../test/harness.ts').TestEnv) {
  const instances = moreInstances(env, 2);
  const clients = () => instances.clients;

  it('three instances on one PostgreSQL: never above the week cap', async (ctx) => {
    if (env().dialect !== 'postgres') return ctx.skip();
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ product: { perCount: 1, maxPerWeek: 2 } });
    const { card } = await e.memberWithCard(s.product.id, { card: { totalCount: 50 } });
    const ids: number[] = [];
    for (let d = 1; d <= 5; d++) {
      for (const h of ['08', '20']) {
        ids.push(
          (
            await e.session({
              courseId: s.course.id,
              teacherId: s.teacher.id,
              startTime: `2099-07-1${d + 2} ${h}:00:00`,
            })
          ).id,
        );
      }
    }
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        clients()[i % 3].call(addMemberReservation.path, { mcId: card.id, tid: ids[i % ids.length], studentCount: 1 }),
      ),
    );
    const ok = answers.filter((a) => a.code === 0).length;
    expect(ok).toBe(2);
    expect(answers.filter((a) => a.code !== 0).every((a) => a.status === 409)).toBe(true);
    const live = await env()
      .database.db.selectFrom('reservation')
      .select('id')
      .where('memberCardId', '=', card.id)
      .where('status', 'in', [1, 2])
      .execute();
    expect(live).toHaveLength(2);
    expect(await checkInvariants(env().database.db, env().storeId)).toEqual([]);
  });
}
void FUTURE;
