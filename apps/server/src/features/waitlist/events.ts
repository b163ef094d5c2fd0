import { defineEvent } from '../../lib/events.ts';

/** A waiting member got a seat (booked, or a pending in 签到后扣费), in the change that freed it. */
export const waitlistPromoted = defineEvent<{
  storeId: number;
  sessionId: number;
  memberId: number;
  /** The member's name (store messages show it). */
  memberName: string;
  waitId: number;
  studentCount: number;
}>('waitlist.promoted');
