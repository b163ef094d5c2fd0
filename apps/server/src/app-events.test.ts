import { addMemberReservation } from '@studio/contract';
import { expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../test/factory-engine.ts';
import { Client, describeEachDb } from '../test/harness.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { features } from './features/index.ts';
import { announceCancel, announcePromotion } from './features/messaging/service.ts';
import { onPromoted } from './features/reminders/queue.ts';
import { refuseClosedSessionChange } from './features/teacher-pay/session-guard.ts';
import { bookingCancelled, bookingMade, sessionMoving } from './features/timetable/public.ts';
import { promoteFreedSeats } from './features/waitlist/service.ts';
import { waitlistPromoted } from './features/waitlist/public.ts';
import { Events } from './lib/events.ts';

describeEachDb('events belong to the app that serves the change', (env) => {
  it('two apps in one process: a listener of one hears only the changes that app makes', async () => {
    const { database, factory, username } = env();
    const config = {
      ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv),
      webDist: '/nonexistent',
      memberDist: '/nonexistent',
    };
    const second = await buildApp({ config, database, logger: false });
    try {
      const heard: number[] = [];
      second.deps.events.on(bookingMade, async (_tx, e) => void heard.push(e.memberId), 'announce');
      const e = new EngineFactory(factory);
      const s = await e.scene({ product: { perCount: 1, cardType: 2 } });
      const session = await e.session({
        courseId: s.course.id,
        teacherId: s.teacher.id,
        reservableCount: 5,
        startTime: `${FUTURE} 10:00:00`,
      });
      const book = async (c: Client) => {
        const m = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
        await c.ok(addMemberReservation.path, { mcId: m.card.id, tid: session.id, studentCount: 1, remark: '' });
        return m.member.id;
      };
      // Booked through the first app: the second app's listener hears nothing.
      await book(env().client);
      expect(heard).toEqual([]);
      // Booked through the second app (the same admin signed in there): it hears it.
      const onSecond = new Client(second);
      expect((await onSecond.login(username)).code).toBe(0);
      const member = await book(onSecond);
      expect(heard).toEqual([member]);
    } finally {
      await second.close();
    }
  });

  it("each event's listeners run by their stated stage, not by the order features are registered", () => {
    const registered = (order: typeof features) => {
      const events = new Events();
      for (const feature of order) feature({ handle: () => {}, on: (k, l, stage) => events.on(k, l, stage) });
      return events;
    };
    for (const events of [env().app.deps.events, registered(features), registered([...features].reverse())]) {
      // A seat freed goes to the waiting before anyone is told of the cancel.
      const cancel = events.listenersOf(bookingCancelled);
      expect(cancel.indexOf(promoteFreedSeats)).toBeGreaterThanOrEqual(0);
      expect(cancel.indexOf(promoteFreedSeats)).toBeLessThan(cancel.indexOf(announceCancel));
      // The promoted member's reminder is planned before the store is told of the promotion.
      const promoted = events.listenersOf(waitlistPromoted);
      expect(promoted.indexOf(onPromoted)).toBeGreaterThanOrEqual(0);
      expect(promoted.indexOf(onPromoted)).toBeLessThan(promoted.indexOf(announcePromotion));
      // A closed month's session refuses its move before any listener writes.
      expect(events.listenersOf(sessionMoving)[0]).toBe(refuseClosedSessionChange);
    }
  });
});
