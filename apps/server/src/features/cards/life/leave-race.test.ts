// A leave starting while bookings of its card are on their way (issue 29): over three app instances on
// one PostgreSQL, once the leave is in place no booking of the card inside it is live — a booking that
// read the card before the leave is checked again under the card's lock and refused.
import { addMemberReservation, Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays, localDateTime } from '../../../lib/time.ts';
import { EngineFactory } from '../../../../test/factory-engine.ts';
import { describeEachDb, moreInstances } from '../../../../test/harness.ts';
import { checkInvariants } from '../../../../test/invariants.ts';

describeEachDb('a leave raced with bookings of its card', (env) => {
  const instances = moreInstances(env, 2);
  const clients = () => instances.clients;

  it('three instances: no live booking of the card inside the leave once it started', async (ctx) => {
    if (env().dialect !== 'postgres') return ctx.skip();
    const db = env().database.db;
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    for (let round = 0; round < 4; round++) {
      const e = new EngineFactory(env().factory);
      const s = await e.scene({
        product: { cardType: 1, validDays: 60, leaveAllowed: 1, leaveDaysMax: 7, leaveTimes: 9, leaveDaysTotal: 60 },
      });
      const member = await env().factory.member();
      const { id: mcId } = await env().client.ok('/store/api/insert/member/card', {
        mid: member.id,
        cardId: s.product.id,
        totalCount: 40,
        payment: { amount: 100, method: 'cash', remark: null },
      });
      const from = addDays(today, 2 + round * 7);
      const to = addDays(from, 2);
      const sessions: { id: number }[] = [];
      for (let d = 0; d < 3; d++) {
        for (const h of ['08', '10', '12', '14', '16', '18']) {
          sessions.push(
            await e.session({
              courseId: s.course.id,
              teacherId: s.teacher.id,
              startTime: `${addDays(from, d)} ${h}:00:00`,
            }),
          );
        }
      }
      const book = (i: number) =>
        clients()[i % 3].call(addMemberReservation.path, { mcId, tid: sessions[i].id, studentCount: 1 });
      const first = Array.from({ length: 9 }, (_, i) => book(i));
      const leave = clients()[round % 3].call('/store/api/add/card/leave', {
        mcId,
        fromDate: from,
        toDate: to,
        reason: '出差',
        cancelBookings: true,
      });
      const rest = Array.from({ length: 9 }, (_, i) => book(9 + i));
      const [l, ...answers] = await Promise.all([leave, ...first, ...rest]);
      expect(answers.filter((a) => a.code !== 0 && a.status !== 409)).toEqual([]);
      const live = await db
        .selectFrom('reservation as r')
        .innerJoin('timetable as t', 't.id', 'r.timetableId')
        .select('r.id')
        .where('r.memberCardId', '=', mcId)
        .where('r.status', 'in', [1, 2])
        .where('t.startTime', '>=', `${from} 00:00:00`)
        .where('t.startTime', '<=', `${to} 23:59:59`)
        .execute();
      // The leave locks every class of the card's product in its days, then the card: it never meets a
      // booking half done, so it starts every time and cancels (with refund) whatever got in first.
      expect([l.code, l.msg]).toEqual([0, '']);
      expect(live).toEqual([]);
      const refused = answers.filter((a) => a.status === 409).map((a) => a.msg);
      expect(refused.every((m) => m === Msg.cardInLeave(md(from), md(to)))).toBe(true);
      expect(await checkInvariants(db, env().storeId)).toEqual([]);
    }
  });
});

const md = (d: string) => `${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`;
