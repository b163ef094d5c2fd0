import { defineEvent } from '../../lib/events.ts';

/** One booking: a reservation (booked with a card) or a pending (held for sign-in), with its session, member (id and name) and seats. */
export interface BookingFact {
  storeId: number;
  sessionId: number;
  memberId: number;
  /** The member's name (store messages show it). */
  memberName: string;
  studentCount: number;
  booking: { kind: 'reservation' | 'pending'; id: number };
  /** Its card is a 体验卡 (a paid trial: leads listen), read with the booking; false without a card. */
  trialCard: boolean;
}

/** A member booked into a session (by the desk or themself): a reservation, or a pending in 签到后扣费. */
export const bookingMade = defineEvent<BookingFact>('booking.made');

/**
 * A member came to a class: marked 到店 (desk, teacher or their own scan, 预约即扣费) or signed in
 * (签到后扣费). Announced in that transaction (转介绍奖励 listens: a friend's first class; leads: a paid
 * trial riding on the booking is 到店).
 */
export const memberAttended = defineEvent<{ storeId: number; memberId: number; sessionId: number; now: string }>(
  'member.attended',
);

/** A booking or a pending cancelled: its seats are free. */
export const bookingCancelled = defineEvent<BookingFact>('booking.cancelled');

/** Several bookings made in one call (batch scheduling, the weekly template, a copy, a drop-in run). */
export const bookingsMade = defineEvent<{
  storeId: number;
  /** What made them, in the staff's words (批量排课, 按模板排课, ...). */
  source: string;
  sessions: number;
  bookings: number;
}>('bookings.made');

/**
 * A session is about to get another teacher or start (announced in the edit's transaction before the
 * session row is written): a listener may refuse the change by throwing (teacher pay: a closed month's
 * sessions keep their teacher and time), which rolls the edit back.
 */
export const sessionMoving = defineEvent<{
  storeId: number;
  sessionId: number;
  before: { teacherId: number; startTime: string };
  after: { teacherId: number; startTime: string };
}>('session.moving');

/** Sessions deleted in bulk (批量删除, an undo of a batch that made them), in the delete's transaction. */
export const sessionsDeletedInBulk = defineEvent<{ storeId: number; sessionIds: readonly number[]; now: string }>(
  'sessions.deleted.bulk',
);

/** A session's time, capacity or place changed (seats may have freed up). */
export const sessionChanged = defineEvent<{ storeId: number; sessionId: number }>('session.changed');

/** A session deleted, with who was refunded what (the member's name, the card's kind: counts or money). */
export const sessionDeleted = defineEvent<{
  storeId: number;
  sessionId: number;
  refunds: { memberId: number; memberName: string; memberCardId: number; bigType: number; amount: number }[];
  /** What its members are told happened (the reminders; default 已取消): a lesson released unconfirmed says why. */
  change?: string;
}>('session.deleted');

/**
 * A lesson (私教/小班) booked: its session, whether it waits for its teacher (待确认: its confirm
 * deadline) or is confirmed, and the members booked into it by this call.
 */
export const lessonBooked = defineEvent<{
  storeId: number;
  sessionId: number;
  status: 'pending' | 'confirmed';
  confirmDeadline: string | null;
  members: { id: number; name: string }[];
  /** One date (`index`, from 0) of a weekly series of `count` booked in one call. */
  series?: { index: number; count: number };
  /** A member added to a lesson already booked (添加学员, or joining a 小班 from the phone). */
  joined?: boolean;
  /** Who else holds a seat, not a member (a lead's 私教体验课: `小林（体验）`): named to the teacher. */
  guest?: string;
}>('lesson.booked');

/** A lesson waiting for its teacher (待确认) confirmed. */
export const lessonConfirmed = defineEvent<{ storeId: number; sessionId: number }>('lesson.confirmed');

/**
 * One member's booking of a lesson cancelled by the studio (the desk or the teacher, not the member
 * themself): refunded (before the type's cutoff) or kept as a late cancel.
 */
export const lessonCancelled = defineEvent<{
  storeId: number;
  sessionId: number;
  memberId: number;
  booking: BookingFact['booking'];
  refunded: boolean;
}>('lesson.cancelled');
