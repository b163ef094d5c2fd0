import { defineEvent } from '../../lib/events.ts';

/**
 * A member is about to book a session (or queue for it) on their phone, announced before anything
 * is written: a `guard` listener may refuse by throwing (健康声明: the store asks for a declaration
 * before class and the member has none in force).
 */
export const memberBooking = defineEvent<{ storeId: number; memberId: number; sessionId: number }>('member.booking');
