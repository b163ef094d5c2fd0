import {
  amountText,
  CHECKIN_BEFORE_MINUTES,
  MemberMsg,
  Msg,
  OperateType,
  PendingStatus,
  ReservationStatus,
  WaitStatus,
  type MyBooking,
} from '@studio/contract';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import type { StoreScope } from '../../lib/context.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { audit } from '../../lib/audit.ts';
import { event, type Events } from '../../lib/events.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { booksOn, cardLifeView, isExpiredAt, memberCards, newBookingCardReason } from '../cards/public.ts';
import { suspensionFrom } from '../no-show/public.ts';
import { lessonCancelPolicy, loadPolicy, memberCancelCost, openBookingsReason } from '../policy/public.ts';
import {
  allowedCardsOf,
  addPending,
  bookedOf,
  bookingCancelled,
  memberAttended,
  bookingMade,
  bookWithCard,
  cancelPending,
  cancelReservation,
  firstUsableCard,
  liveSession,
  openUseOf,
  recordAttendance,
  signInPending,
  withOpenUse,
} from '../timetable/public.ts';
import { joinWaitlist, leaveWaitlist } from '../waitlist/public.ts';
import { checkinTokenValid } from './checkin.ts';
import { memberBooking } from './events.ts';
import {
  checkInSessionOf,
  findCardBookedOnBy,
  loadMemberBookingContext,
  pendingsOfMember,
  queueEntriesOfMember,
  recentLedgerOf,
  reservationsOfMember,
  waitingPendingOf,
} from './repository.ts';

/** A member acting in their store (the members' channel's calls). */
export interface MemberScope {
  db: Db;
  dialect: Dialect;
  store: StoreScope;
  memberId: number;
  /** The app's listeners: the member's bookings and cancels are announced to them. */
  events: Events;
}

/** A card the member books on (theirs or shared with them), else 404 会员卡不存在: nothing of others leaks. */
async function cardBookedOn(ex: Executor, s: MemberScope, memberCardId: number) {
  const card = await findCardBookedOnBy(ex, s.store.id, s.memberId, memberCardId);
  if (!card) throw notFound('会员卡');
}

export { timetable } from './timetable.ts';

/**
 * The members' group booking (booking, the cards for a class, the waitlist) is for group classes
 * only: a lesson (私教/小班, a session the engine marks with its appointment state) is booked through
 * the lessons' own path, so here it is a class that does not exist (404 课程不存在), as the members'
 * timetable, which lists group classes only, never shows it.
 */
function groupClassOnly(session: { appointmentStatus: string | null }): void {
  if (session.appointmentStatus !== null) throw notFound('课程');
}

/**
 * The member's cards, each saying whether it can pay for one seat of the session (and why not): the
 * card rules with what its open pendings will take, and a period card's open bookings.
 */
export async function cardsForSession(s: MemberScope, sessionId: number) {
  const session = await liveSession(s.db, s.store.id, sessionId);
  groupClassOnly(session);
  const allowed = await allowedCardsOf(s.db, [sessionId]);
  const allowedCardIds = allowed.get(sessionId)!;
  return cardsChoice(s, session.startTime, async () => () => ({ allowedCardIds }));
}

/**
 * The member's cards (not refunded), each saying whether it can pay for one place in a class or
 * lesson starting at `at` (and why not), by the booking's card rules (`newBookingCardReason`, with
 * what its open pendings will take) and the policy's open bookings of a period card. `terms` says,
 * per card, which products the class allows and, when it differs from the product's, what one
 * place takes (a 储值卡 in a lesson: the type's price).
 */
export async function cardsChoice(
  s: MemberScope,
  at: string,
  terms: (
    cards: readonly CardRow[],
  ) => Promise<(c: CardRow) => { allowedCardIds: readonly number[]; perCount?: number }>,
) {
  const now = localDateTime(s.store.timezone);
  const [all, policy] = await Promise.all([
    memberCards(s.db, s.store.id, s.memberId, { withShared: true }),
    loadPolicy(s.db, s.store.id),
  ]);
  const cards = all.filter((c) => c.refundedAt === null);
  const [use, termsOf] = await Promise.all([
    openUseOf(
      s.db,
      s.store.id,
      cards.map((c) => c.id),
      now,
    ),
    terms(cards),
  ]);
  return cards.map((c) => {
    const t = termsOf(c);
    const product = { ...c, perCount: t.perCount ?? c.perCount };
    const card = withOpenUse(product, use.get(c.id));
    const reason =
      newBookingCardReason({
        card,
        product,
        memberId: s.memberId,
        allowedCardIds: t.allowedCardIds,
        at,
        studentCount: 1,
      }) ?? openBookingsReason(policy, card);
    return { ...cardView(c, s, at), usable: reason === null, reason, perCount: product.perCount };
  });
}

export type CardRow = Awaited<ReturnType<typeof memberCards>>[number];

/** A card's start and leave as the phone shows them (未开卡, 请假中: issue 29). */
function lifeOfCard(c: CardRow) {
  const { activateTime, activateBy, leaves } = cardLifeView(c);
  return { activateTime, activateBy, leaves, leaveAllowed: c.leaveAllowed === 1 };
}

function cardView(c: CardRow, s: MemberScope, at: string) {
  return {
    id: c.id,
    /** 多人共享: the holder's name of a card shared with the member; null for their own. */
    sharedBy: c.memberId === s.memberId ? null : c.holderName,
    cardName: c.cardName,
    bigType: c.bigType,
    balance: Number(c.totalCount) - Number(c.usedCount),
    totalCount: Number(c.totalCount),
    expireTime: c.expireTime,
    frozen: Boolean(c.frozen),
    expired: isExpiredAt(c, c, at),
    ...lifeOfCard(c),
  };
}

/**
 * The member books a session with one of their cards, through the engine's rules and held to the
 * policy: mode 0 books and deducts; mode 1 holds the seat as a pending with the card, charged at
 * sign-in. History says the member booked (operate type 1); the store is told as for the desk.
 */
export async function book(
  s: MemberScope,
  input: { sessionId: number; memberCardId: number; studentCount: number; remark?: string | null },
): Promise<{ kind: 'booked' | 'pending'; id: number }> {
  return inWriteTx(s.db, s.dialect, async (tx) => {
    // Session, card, rules and suspension, read together: 404 课程不存在, then 404 会员卡不存在 (not
    // the member's too), then the policy.
    const now = localDateTime(s.store.timezone);
    const { booking, rules, suspension } = await loadMemberBookingContext(tx, {
      storeId: s.store.id,
      memberId: s.memberId,
      sessionId: input.sessionId,
      memberCardId: input.memberCardId,
      now,
    });
    const { session, card } = booking;
    groupClassOnly(session);
    if (!booksOn(card, s.memberId)) throw notFound('会员卡');
    await s.events.emit(tx, event(memberBooking, { storeId: s.store.id, memberId: s.memberId, sessionId: session.id }));
    // Held to the policy by the engine's rule set: suspension, booking window, a period card's open bookings.
    const member = { policy: rules.policy, suspendedUntil: suspensionFrom(suspension, now).until };
    if (rules.deductionMode === 1) {
      const { pendingId, fact } = await addPending(tx, s.store, {
        sessionId: session.id,
        memberId: s.memberId,
        studentCount: input.studentCount,
        remark: input.remark ?? null,
        operatorId: null,
        memberCardId: input.memberCardId,
        operateType: OperateType.USER_BOOKED,
        member,
      });
      await s.events.emit(tx, event(bookingMade, fact));
      return { kind: 'pending' as const, id: pendingId };
    }
    const { reservationId, fact } = await bookWithCard(
      tx,
      s.store,
      {
        sessionId: session.id,
        memberCardId: input.memberCardId,
        memberId: s.memberId,
        studentCount: input.studentCount,
        remark: input.remark ?? null,
        operatorId: null,
        operateType: OperateType.USER_BOOKED,
        isTheCallsChange: true,
        member,
      },
      booking,
    );
    await s.events.emit(tx, event(bookingMade, fact));
    return { kind: 'booked' as const, id: reservationId };
  });
}

/** The member cancels their booking: free until the policy's cutoff, then refused or kept (迟到取消). */
export async function cancelBooking(s: MemberScope, id: number): Promise<null> {
  await inWriteTx(s.db, s.dialect, async (tx) => {
    const { fact } = await cancelReservation(tx, s.store, {
      reservationId: id,
      operatorId: null,
      operateType: OperateType.USER_CANCELLED,
      member: { id: s.memberId, policy: await loadPolicy(tx, s.store.id) },
    });
    await s.events.emit(tx, event(bookingCancelled, fact));
  });
  return null;
}

/**
 * The member cancels their own waiting pending (another's is 404 预约不存在), held to the policy as a
 * booking's cancel is: free until the cutoff, then refused or kept as a late cancel charging its card.
 */
export async function cancelOwnPending(s: MemberScope, pendingId: number): Promise<null> {
  await inWriteTx(s.db, s.dialect, async (tx) => {
    const fact = await cancelPending(tx, s.store, {
      pendingId,
      operatorId: null,
      operateType: OperateType.USER_CANCELLED,
      member: { id: s.memberId, policy: await loadPolicy(tx, s.store.id) },
    });
    await s.events.emit(tx, event(bookingCancelled, fact));
  });
  return null;
}

/**
 * The member queues for a full session: the waitlist's own rules, plus the members' policy as for a
 * booking (suspension, booking window, a period card's open bookings: the engine's rule set, run by
 * the queue). The queue reads the session (locked); a session that is not live is still the first
 * refusal (404 课程不存在), before a card not theirs: this reads it only when it refuses.
 */
export async function joinQueue(
  s: MemberScope,
  input: { sessionId: number; memberCardId: number; studentCount: number },
) {
  try {
    await cardBookedOn(s.db, s, input.memberCardId);
  } catch (e) {
    if (e instanceof AppError && e.status < 500) await liveSession(s.db, s.store.id, input.sessionId);
    throw e;
  }
  groupClassOnly(await liveSession(s.db, s.store.id, input.sessionId));
  await s.events.emit(
    s.db,
    event(memberBooking, { storeId: s.store.id, memberId: s.memberId, sessionId: input.sessionId }),
  );
  return joinWaitlist(
    s,
    {
      mid: s.memberId,
      memberCardId: input.memberCardId,
      sessionId: input.sessionId,
      studentCount: input.studentCount,
    },
    {
      memberId: s.memberId,
    },
  );
}

export const leaveQueue = (s: MemberScope, id: number) => leaveWaitlist(s, id, { memberId: s.memberId });

const PAGE = 10;

/**
 * The member's bookings, pendings and waits: `upcoming` (sessions not ended, soonest first) or
 * `past` (ended, or cancelled/ended entries; latest first), 10 a page.
 */
export async function myBookings(s: MemberScope, state: 'upcoming' | 'past', page: number) {
  const now = localDateTime(s.store.timezone);
  const [bookings, pendings, waits, policy] = await Promise.all([
    reservationsOfMember(s.db, s.store.id, s.memberId, now),
    pendingsOfMember(s.db, s.store.id, s.memberId),
    queueEntriesOfMember(s.db, s.store.id, s.memberId),
    loadPolicy(s.db, s.store.id),
  ]);
  type Base = (typeof bookings)[number] | (typeof pendings)[number] | (typeof waits)[number];
  const entry = (r: Base, kind: MyBooking['kind'], stateText: string, amount: number, attended: boolean): MyBooking => {
    const when = { startTime: r.startTime, now };
    // A lesson's cancel follows its type's cutoff, not the store's group policy.
    const lesson = 'appointmentStatus' in r && r.appointmentStatus !== null ? r : null;
    const rule = lesson ? lessonCancelPolicy(lesson.cancelCutoffMinutes) : policy;
    const cancelCost =
      kind === 'pending'
        ? memberCancelCost(rule, when, { kind })
        : kind === 'booked' && !attended && r.bigType != null
          ? memberCancelCost(rule, when, { kind, amount: amountText(r.bigType, amount) })
          : null;
    return {
      kind,
      id: r.id,
      session: {
        id: r.sessionId,
        fromTime: r.startTime,
        toTime: r.endTime,
        courseName: r.courseName,
        teacherName: r.teacherName,
        areaName: r.areaName,
        isOnline: Boolean(r.isOnline),
      },
      card:
        r.memberCardId != null && r.cardName != null
          ? { id: r.memberCardId, cardName: r.cardName, bigType: r.bigType! }
          : null,
      studentCount: r.studentCount,
      amount,
      state: stateText,
      attended,
      cancelCost,
      joinUrl: (kind === 'booked' || kind === 'signed') && r.isOnline ? joinUrlOf(r.meetingInfo) : null,
      lesson: lesson ? (lesson.appointmentStatus as 'pending' | 'confirmed') : null,
    };
  };
  const all = [
    ...bookings.map((b) => {
      if (b.status === ReservationStatus.CANCELLED) {
        // A late cancel kept its deduction (迟到取消) unless the studio waived it.
        if (b.forfeited && !b.waivedTime) return entry(b, 'cancelled', '迟到取消，已扣除', Number(b.usedCount), false);
        if (b.forfeited) return entry(b, 'cancelled', '迟到取消，已退回', 0, false);
        return entry(b, 'cancelled', '已取消', 0, false);
      }
      if (b.status === ReservationStatus.SIGNED_IN) return entry(b, 'signed', '已签到', Number(b.usedCount), true);
      const attended = b.attendedTime !== null;
      // Not marked 到店 in a class whose attendance was taken (预约即扣费): a no-show, as the desk sees it.
      if (!attended && Number(b.missed) === 1) return entry(b, 'noShow', '爽约', Number(b.usedCount), false);
      const waitsForTeacher = b.appointmentStatus === 'pending';
      return entry(
        b,
        'booked',
        attended ? '已到店' : waitsForTeacher ? '待确认' : '已预约',
        Number(b.usedCount),
        attended,
      );
    }),
    // A signed-in pending shows as its booking; a cancelled one whose booking exists likewise.
    ...pendings.map((p) => {
      if (p.status === PendingStatus.WAITING) return entry(p, 'pending', '待签到', 0, false);
      if (p.status === PendingStatus.NO_SHOW) return entry(p, 'noShow', '爽约', Number(p.noShowFee ?? 0), false);
      return entry(p, 'cancelled', '已取消', 0, false);
    }),
    ...waits.map((w) =>
      w.status === WaitStatus.WAITING
        ? entry(w, 'waiting', `候补第${Number(w.position)}位`, 0, false)
        : entry(w, 'ended', '候补未成功', 0, false),
    ),
  ];
  // Filed by the class: 待上课 until it ends (a cancel of a class still to come stays there, saying so).
  const upcoming = (e: (typeof all)[number]) => e.session.toTime > now;
  const list = all
    .filter((e) => (state === 'upcoming' ? upcoming(e) : !upcoming(e)))
    .sort((a, b) =>
      state === 'upcoming'
        ? a.session.fromTime.localeCompare(b.session.fromTime) || a.id - b.id
        : b.session.fromTime.localeCompare(a.session.fromTime) || b.id - a.id,
    );
  return {
    list: list.slice((page - 1) * PAGE, page * PAGE),
    total: list.length,
  };
}

/** The join link of an online room's stored meeting info, when there is one. */
function joinUrlOf(info: string | null): string | null {
  if (!info) return null;
  try {
    const v = JSON.parse(info) as { joinUrl?: unknown; join_url?: unknown; url?: unknown };
    const url = v.joinUrl ?? v.join_url ?? v.url;
    return typeof url === 'string' && /^https?:\/\//.test(url) ? url : null;
  } catch {
    return null;
  }
}

/** Ledger kinds that move usedCount (a positive amount takes from the balance); the others move the total. */
const USAGE_KINDS = new Set(['deduct', 'refund', 'no_show', 'waive']);

const LEDGER_WORDS: Record<string, string> = {
  deduct: '预约扣除',
  refund: '取消退回',
  issue: '开卡',
  sale: '开卡',
  topup: '充值',
  topup_refund: '充值退回',
  card_refund: '退卡',
  refund_undone: '退款失败退回',
  referral: '转介绍奖励',
  referral_undone: '撤销转介绍奖励',
  no_show: '爽约扣费',
  waive: '免除扣费',
  late_cancel: '迟到取消',
  leave: '请假',
  leave_end: '结束请假',
  activate: '开卡生效',
  transfer: '转卡',
  share: '共享',
};
/** A card's life notes (issue 29): the system's own words, shown to the member as they are. */
const LIFE_KINDS = new Set(['leave', 'leave_end', 'activate', 'transfer', 'share']);

/** The member's cards with balance, expiry, frozen, and their last ten ledger entries. */
export async function myCards(s: MemberScope) {
  const now = localDateTime(s.store.timezone);
  const cards = (await memberCards(s.db, s.store.id, s.memberId, { withShared: true })).filter(
    (c) => c.refundedAt === null,
  );
  const ledger = cards.length
    ? await recentLedgerOf(
        s.db,
        s.store.id,
        cards.map((c) => c.id),
      )
    : [];
  return cards.map((c) => ({
    ...cardView(c, s, now),
    contract:
      !c.hasContract || c.memberId !== s.memberId
        ? null
        : c.contractSignedAt
          ? ('signed' as const)
          : ('pending' as const),
    recent: ledger
      .filter((l) => l.memberCardId === c.id)
      .slice(0, 10)
      .map((l) => ({
        time: l.createdAt,
        kind: LEDGER_WORDS[l.kind] ?? l.kind,
        // As a change of the balance: what was used (deduct, no-show) is negative, given back positive;
        // a late cancel moves nothing and says what it keeps.
        amount: l.kind === 'late_cancel' ? 0 : USAGE_KINDS.has(l.kind) ? -Number(l.amount) : Number(l.amount),
        note:
          l.kind === 'late_cancel'
            ? `${l.courseName ?? ''}（不退回 ${amountText(c.bigType, Number(l.amount))}）`
            : LIFE_KINDS.has(l.kind)
              ? (l.remark ?? '')
              : // A shared card (多人共享) says who else booked.
                `${l.courseName ?? ''}${l.memberId !== null && l.memberId !== s.memberId ? `（${l.bookedBy}）` : ''}`,
      })),
  }));
}

/**
 * Self check-in with the store's token: the member's class whose window holds now (from
 * CHECKIN_BEFORE_MINUTES before the start until the end; `sessionId` picks one when two overlap). Mode 1:
 * their pending is signed in with its card, charged like a desk sign-in; mode 0: their booking is
 * marked attended. Twice is told so; no class in the window is said in plain words.
 */
export async function selfCheckIn(s: MemberScope, input: { sessionId?: number; token: string }) {
  if (!(await checkinTokenValid(s.db, s.store, input.token))) throw badRequest(MemberMsg.badToken);
  const now = localDateTime(s.store.timezone);
  return inWriteTx(s.db, s.dialect, async (tx) => {
    const session = await checkInSessionOf(tx, s.store.id, s.memberId, {
      startsBy: addMinutes(now, CHECKIN_BEFORE_MINUTES),
      endsAfter: now,
      sessionId: input.sessionId,
    });
    if (!session) throw conflict(MemberMsg.noClassToCheckIn);
    const done = { tid: session.id, courseName: session.courseName, fromTime: session.startTime };
    const pending = await waitingPendingOf(tx, session.id, s.memberId);
    if (pending) {
      const card = pending.memberCardId ?? (await firstUsableCard(tx, s.store.id, s.memberId, session))?.id ?? null;
      if (card === null) throw conflict(Msg.cardHelp);
      await signInPending(tx, s.store, {
        pendingId: pending.id,
        memberCardId: card,
        remark: null,
        operatorId: null,
        operateType: OperateType.SELF_CHECKED_IN,
      });
      await s.events.emit(
        tx,
        event(memberAttended, { storeId: s.store.id, memberId: s.memberId, sessionId: session.id, now }),
      );
      return { ...done, message: MemberMsg.checkedIn };
    }
    // The same attendance fact the desk and the teacher record (到店), by the member themself.
    const booking = await bookedOf(tx, session.id, s.memberId);
    const marked =
      booking !== undefined &&
      (await recordAttendance(tx, s.store.id, booking, {
        attended: true,
        now,
        operatorId: null,
        remark: '会员扫码签到',
      }));
    if (!marked) throw conflict(MemberMsg.alreadyCheckedIn);
    await s.events.emit(
      tx,
      event(memberAttended, { storeId: s.store.id, memberId: s.memberId, sessionId: session.id, now }),
    );
    audit(tx, {
      kind: 'booking',
      summary: '会员扫码签到',
      targets: [
        { type: 'booking', id: booking.id },
        { type: 'session', id: session.id },
        { type: 'member', id: s.memberId },
      ],
    });
    return { ...done, message: MemberMsg.checkedIn };
  });
}

/** One class on a member's calendar feed. */
export interface CalendarEntry {
  /** Stable across feed reads (a calendar app updates the event rather than adding another). */
  uid: string;
  startTime: string;
  endTime: string;
  courseName: string;
  teacherName: string;
  areaName: string | null;
  state: string;
}

/**
 * The member's classes a calendar shows: live bookings (booked, marked 到店, signed in) and pendings
 * waiting for sign-in, on sessions not deleted. A cancelled one is not listed, so it leaves the
 * phone's calendar at its next refresh.
 */
export async function memberCalendarEntries(db: Executor, storeId: number, memberId: number, now: string) {
  const [bookings, pendings] = await Promise.all([
    reservationsOfMember(db, storeId, memberId, now),
    pendingsOfMember(db, storeId, memberId),
  ]);
  const entry = (r: (typeof bookings)[number] | (typeof pendings)[number], uid: string, state: string) => ({
    uid,
    startTime: r.startTime,
    endTime: r.endTime,
    courseName: r.courseName,
    teacherName: r.teacherName,
    areaName: r.areaName,
    state,
  });
  return [
    ...bookings
      .filter((b) => b.status !== ReservationStatus.CANCELLED)
      .map((b) =>
        entry(b, `booking-${b.id}`, b.status === ReservationStatus.SIGNED_IN || b.attendedTime ? '已到店' : '已预约'),
      ),
    ...pendings.filter((p) => p.status === PendingStatus.WAITING).map((p) => entry(p, `pending-${p.id}`, '待签到')),
  ] satisfies CalendarEntry[];
}
