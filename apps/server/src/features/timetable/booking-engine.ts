import {
  amountText,
  Msg,
  OperateType,
  PendingStatus,
  PolicyMsg,
  ReservationStatus,
  TimetableMsg,
  type BookingPolicy,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { lockSessions } from '../../db/locks.ts';
import type { Row } from '../../db/schema.ts';
import { audit, auditFirst, type AuditTarget } from '../../lib/audit.ts';
import type { StoreScope } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import {
  activateOnClass,
  type BookingCard,
  cardBigType,
  cardBookingsDropped,
  type CardOfRules,
  cardUnusableReason,
  newBookingCardReason,
  chargeFor,
  memberCards,
  storeCards,
} from '../cards/public.ts';
import { cancelKind, memberBookingReason } from '../policy/rules.ts';
import { requireMember } from '../reference/public.ts';
import {
  bookingTrail,
  cardHolderOf,
  chargeAndWriteReservations,
  chargeCards,
  creditCard,
  findPending,
  findReservation,
  freeSeats,
  heldPairs,
  insertBookingRows,
  linkPendingBooking,
  openUseOf,
  markPendingCancelled,
  markPendingSignedIn,
  markReservationCancelled,
  pendingTrail,
  takeSeatsOf,
  writeTrail,
} from './booking-repository.ts';
import { bookingCancelled, type BookingFact } from './events.ts';
import { event, type Announced, type PayloadOf } from '../../lib/events.ts';
import { allowedCardsOf, liveSession, sessionTimes } from './session-repository.ts';
import { cardToBook, cardsAgainUnderLock, sessionToBook, type BookingContext } from './booking-context-repository.ts';
import {
  checkBookingSet,
  type IntendedBooking,
  type MemberForRules,
  type MemberRules,
  type SessionForRules,
  withOpenUse,
} from './rules.ts';

export interface CardBooking {
  sessionId: number;
  memberCardId: number;
  /** When given, the card must belong to this member (else 409 该会员卡不属于此会员). */
  memberId?: number;
  studentCount: number;
  remark: string | null;
  operatorId: number | null;
  /** History operate type: 2 admin booked (1 user booked). */
  operateType: number;
  /**
   * The store's booking policy, for a staff booking: where it would refuse a member (the booking
   * window, a period card's open bookings) it is made anyway and history records the override.
   */
  staffPolicy?: BookingPolicy;
  /**
   * A member's own booking, or the promotion of their wait: held to the store's policy (refused with
   * its reason: suspension, booking window, a period card's open bookings) by the rule set.
   */
  member?: MemberRules;
  /**
   * The booking is what the call does (a desk or member booking), so its audit entry is the call's
   * and the engine writes it; not for a booking tried in a savepoint and undone, nor a promotion
   * (the system's change, entered by the waitlist).
   */
  isTheCallsChange?: boolean;
}

/** What a booking's (or a pending's) audit entry is about: its session, member and card, and itself. */
function bookingTargets(
  b: { sessionId: number; memberId: number; memberCardId: number | null },
  reservationId?: number,
): AuditTarget[] {
  return [
    { type: 'session', id: b.sessionId },
    { type: 'member', id: b.memberId },
    ...(b.memberCardId === null ? [] : [{ type: 'card' as const, id: b.memberCardId }]),
    ...(reservationId === undefined ? [] : [{ type: 'booking' as const, id: reservationId }]),
  ];
}

/** What the booking events say of a booking or a pending: its session, member and seats. */
function factOf(
  b: {
    storeId: number;
    sessionId: number;
    memberId: number;
    memberName: string;
    studentCount: number;
    /** The card's product's 体验卡 flag (null or absent: no card). */
    cardTrial: number | null;
  },
  kind: BookingFact['booking']['kind'],
  id: number,
): BookingFact {
  return {
    storeId: b.storeId,
    sessionId: b.sessionId,
    memberId: b.memberId,
    memberName: b.memberName,
    studentCount: b.studentCount,
    booking: { kind, id },
    trialCard: Number(b.cardTrial) === 1,
  };
}

/**
 * History's note for a staff booking the store's policy would refuse a member (outside the booking
 * window, past a period card's open bookings), else null.
 */
function bookingOverride(
  policy: BookingPolicy | undefined,
  startTime: string,
  now: string,
  card: CardOfRules | null,
): string | null {
  const reason = policy ? memberBookingReason(policy, { startTime, now, suspendedUntil: null, card }) : null;
  return reason ? `越过预约规则：${reason}` : null;
}

/** A member card of the store with its product and holder, and whether the session allows it; 404 会员卡不存在. */
async function storeCard(tx: Executor, storeId: number, id: number, sessionId: number) {
  return (await storeCards(tx, storeId, [id], { allowedIn: sessionId })).get(id)!;
}

/**
 * Cards of the store for new bookings of a bulk run (batch scheduling, the weekly template, a
 * drop-in run), each with what it already holds open at `now`: the same card rules as a single
 * booking then count the card's waiting pendings beside the run's own (404 会员卡不存在 for one not
 * of the store).
 */
export async function cardsForNewBookings(tx: Executor, storeId: number, ids: readonly number[], now: string) {
  const cards = await storeCards(tx, storeId, ids);
  const use = await openUseOf(tx, storeId, [...cards.keys()], now);
  return new Map([...cards].map(([id, card]) => [id, withOpenUse(card, use.get(id))]));
}

/**
 * The member's first card (oldest first) that can pay for `studentCount` seats of the session, by
 * the card rules at its start, or null: a member checking in by themself, a no-show charged by the
 * job; `newBooking`: a pending made without a card (a new booking's rules: its contract too).
 */
export async function firstUsableCard(
  tx: Executor,
  storeId: number,
  memberId: number,
  session: { id: number; startTime: string },
  studentCount = 1,
  o: { newBooking?: boolean } = {},
) {
  const [cards, allowed] = await Promise.all([memberCards(tx, storeId, memberId), allowedCardsOf(tx, [session.id])]);
  const allowedCardIds = allowed.get(session.id)!;
  const reasonOf = o.newBooking ? newBookingCardReason : cardUnusableReason;
  const card = cards.find(
    (c) =>
      c.refundedAt === null &&
      !reasonOf({ card: c, product: c, memberId, allowedCardIds, at: session.startTime, studentCount }),
  );
  return card ?? null;
}

/** Deducts `amount` from a card, guarded in the database; 409 会员卡余额不足 when it cannot pay. */
export async function deduct(tx: Tx, memberCardId: number, amount: number): Promise<void> {
  if ((await chargeCards(tx, new Map([[memberCardId, amount]]))) !== null) throw conflict(Msg.cardBalance);
}

/** Card checks of a sign-in: the card rules of features/cards/rules.ts; the charge, or why the card cannot pay it. */
function signInCharge(
  session: { startTime: string },
  card: BookingCard & { allowed: boolean },
  memberId: number,
  studentCount: number,
): { fee: number; reason: null } | { fee: null; reason: string } {
  const reason = cardUnusableReason({
    card,
    product: card,
    memberId,
    allowedCardIds: card.allowed ? [card.cardId] : [],
    at: session.startTime,
    studentCount,
  });
  return reason ? { fee: null, reason } : { fee: chargeFor(card, studentCount), reason: null };
}

/** What a pending's end charged: its card and fee (`fallback`: a card the pending did not name), or why nothing. */
export type PendingCharge =
  | { card: { id: number; cardName: string }; fee: number; fallback: boolean; reason: null }
  | { card: null; fee: 0; fallback: false; reason: string };

/**
 * Charges what a waiting pending's end keeps (a no-show, or a late cancel under a "forfeit"
 * policy) as its sign-in would: the card the pending names, by the card rules at the class's start
 * (as at the desk and at self check-in); only a pending made without a card falls back to the
 * member's first usable card. The charge is one guarded UPDATE; nothing is taken when no card can
 * pay (the reason is answered). The caller holds the session's lock and has ended the pending.
 */
export async function chargePending(
  tx: Tx,
  storeId: number,
  p: { memberId: number; memberCardId: number | null; sessionId: number; studentCount: number },
  session: { startTime: string },
): Promise<PendingCharge> {
  const none = (reason: string): PendingCharge => ({ card: null, fee: 0, fallback: false, reason });
  let card: { id: number; cardName: string; cardType: number; perCount: number };
  if (p.memberCardId !== null) {
    const named = await storeCard(tx, storeId, p.memberCardId, p.sessionId);
    const charge = signInCharge(session, named, p.memberId, p.studentCount);
    if (charge.reason !== null) return none(charge.reason);
    card = named;
  } else {
    const first = await firstUsableCard(tx, storeId, p.memberId, { id: p.sessionId, ...session }, p.studentCount);
    if (!first) return none(Msg.cardHelp);
    card = first;
  }
  const fee = chargeFor(card, p.studentCount);
  if ((await chargeCards(tx, new Map([[card.id, fee]]))) !== null) return none(Msg.cardBalance);
  return { card: { id: card.id, cardName: card.cardName }, fee, fallback: p.memberCardId === null, reason: null };
}

/** A session row as the booking rules read it, its key its id. */
export function sessionForRules(
  s: Omit<SessionForRules, 'key' | 'allowedCardIds'> & { id: number },
  allowedCardIds: readonly number[],
): SessionForRules {
  return { ...s, key: s.id, allowedCardIds };
}

/** One booking of a set: what the rules need, and what its row records. */
export interface SetBooking extends IntendedBooking {
  /** Its key is the session's id (the sessions exist, or were just written). */
  session: SessionForRules;
  member: MemberForRules & { name: string };
  remark: string | null;
  /** A staff booking outside the members' policy, recorded in history. */
  override?: string | null;
}

export interface SetOptions {
  /** 0: book and charge the card now; 1: hold a pending (the card, if any, is charged at sign-in). */
  mode: 0 | 1;
  now: string;
  operatorId: number | null;
  /** History operate type: 2 staff booked, 1 the member's own booking. */
  operateType: number;
  /** (session id, member id) pairs that already hold a live booking or pending (see heldPairs). */
  held?: Iterable<readonly [number, number]>;
  /** Words a refusal of one booking (bulk runs name the session's time and the member). */
  refuse?: (b: SetBooking, reason: string) => Error;
  /** A member's own booking (or a promotion of their wait): held to the store's policy. */
  member?: MemberRules;
}

/**
 * Books a set of bookings in the caller's transaction: every one checked by the one rule set
 * (`checkBookingSet`) before the first write, then the seats of each session and the total of each
 * card taken in guarded UPDATEs (sessions, then cards, ascending ids: the engine's lock order),
 * the rows and their trail written in multi-row INSERTs. All or nothing: the first refusal throws.
 * A single booking is a set of one. Answers the reservation ids (mode 0) or pending ids (mode 1)
 * in the order given.
 */
export async function bookSet(
  tx: Tx,
  storeId: number,
  bookings: readonly SetBooking[],
  o: SetOptions,
): Promise<number[]> {
  const spent = refuseSet(bookings, o);
  await recheckOpenUse(tx, storeId, bookings, o);
  return writeBookingSet(tx, storeId, bookings, spent, o);
}

/**
 * What a card holds open was read before any lock: two bookings of different classes with one card
 * could each find room for itself. Where the rules depend on it (a pending's card in deduction mode
 * 1: what its pendings will take; a member's period card: its open bookings; a capped card: its
 * classes of the day and week; a card that may go on leave: a leave starting meanwhile), those cards
 * are read again under the lock of their sessions and then of the cards (the engine's lock order;
 * `cardsAgainUnderLock`, which on SQLite, one writer, has nothing to read again) and the set's rules
 * run again on what is committed now: the second waits for the first and is refused if the room is gone.
 */
export async function recheckOpenUse(tx: Tx, storeId: number, bookings: readonly SetBooking[], o: SetOptions) {
  const ids = new Set<number>();
  for (const { card } of bookings) {
    if (!card || card.openBookings === undefined) continue;
    const capped = card.perCount === 0 && Boolean(o.member?.policy.maxOpenBookings);
    if ((o.mode === 1 && card.perCount > 0) || capped || card.caps || card.leaveAllowed) ids.add(card.id);
  }
  const sessionIds = bookings.map((b) => b.session.key);
  const again = await cardsAgainUnderLock(tx, storeId, sessionIds, ids, o.now);
  if (!again) return;
  const { cards, use } = again;
  const fresh = bookings.map((b) => {
    const read = b.card && cards.get(b.card.id);
    if (!b.card || !read) return b;
    const { totalCount, usedCount, frozen, expireTime, leavePeriods, memberId } = read;
    const now = { totalCount, usedCount, frozen, expireTime, leavePeriods, memberId };
    return { ...b, card: withOpenUse({ ...b.card, ...now }, use.get(b.card.id)) };
  });
  refuseSet(fresh, o);
}

/** The rules of `bookSet`: throws the first refusal (worded by `o.refuse`), else answers what each card pays. */
export function refuseSet(bookings: readonly SetBooking[], o: SetOptions): Map<number, number> {
  const { refused, spent } = checkBookingSet(bookings, o);
  if (refused) throw refusal(o, bookings, (_b, i) => i === refused.index, refused.reason);
  return spent;
}

/** The refusal of the first booking of the set matching `which`, worded by `o.refuse` (a plain 409 by default). */
function refusal(
  o: SetOptions,
  bookings: readonly SetBooking[],
  which: (b: SetBooking, i: number) => boolean,
  reason: string,
): Error {
  const b = bookings.find(which)!;
  return o.refuse ? o.refuse(b, reason) : conflict(reason);
}

/**
 * The writes of `bookSet` once the rules passed: takes the seats of each session (unless
 * `seatsTaken`: a bulk run writes its new sessions with their seats), charges each card its total
 * (mode 0), inserts the bookings or pendings and their trail. Seats first, then cards: the lock order.
 */
export async function writeBookingSet(
  tx: Tx,
  storeId: number,
  bookings: readonly SetBooking[],
  spent: ReadonlyMap<number, number>,
  o: SetOptions,
  { seatsTaken = false } = {},
): Promise<number[]> {
  if (!bookings.length) return [];
  const seats = new Map<number, number>();
  if (!seatsTaken) {
    for (const b of bookings) seats.set(b.session.key, (seats.get(b.session.key) ?? 0) + b.studentCount);
  }
  const { operatorId, now } = o;
  const full = (id: number) => refusal(o, bookings, (b) => b.session.key === id, Msg.sessionFull);
  if (o.mode === 0) {
    const made = await chargeAndWriteReservations(
      tx,
      storeId,
      bookings.map((b) => ({
        storeId,
        timetableId: b.session.key,
        memberId: b.member.id,
        memberCardId: b.card!.id,
        pendingId: null,
        studentCount: b.studentCount,
        usedCount: chargeFor(b.card!, b.studentCount),
        remark: b.remark,
        operatorId,
        status: ReservationStatus.BOOKED,
        createTime: now,
      })),
      spent,
      o.operateType,
      bookings.map((b) => b.override ?? null),
      seats,
      new Map(bookings.map((b) => [b.card!.id, b.card!.memberId])),
    );
    if ('fullSession' in made) throw full(made.fullSession);
    if ('brokeCard' in made) {
      // The card could not pay: its balance, or it changed hands (转卡) since the rules read it.
      const which = (b: SetBooking) => b.card?.id === made.brokeCard;
      const holder = await cardHolderOf(tx, made.brokeCard);
      const moved = holder !== bookings.find(which)!.card!.memberId;
      throw refusal(o, bookings, which, moved ? Msg.cardNotOwned : Msg.cardBalance);
    }
    await activateOnClass(tx, storeId, cardUses(bookings), now);
    return made.ids;
  }
  const fullSession = await takeSeatsOf(tx, storeId, seats);
  if (fullSession !== null) throw full(fullSession);
  const ids = await insertBookingRows(
    tx,
    'pending',
    bookings.map((b) => ({
      storeId,
      timetableId: b.session.key,
      memberId: b.member.id,
      studentCount: b.studentCount,
      remark: b.remark,
      status: PendingStatus.WAITING,
      operatorId,
      reservationId: null,
      memberCardId: b.card?.id ?? null,
      createTime: now,
    })),
  );
  await writeTrail(
    tx,
    storeId,
    bookings.map((b, i) =>
      pendingTrail(
        {
          id: ids[i],
          timetableId: b.session.key,
          memberId: b.member.id,
          studentCount: b.studentCount,
          remark: b.remark,
        },
        { operateType: o.operateType, operatorId, now, override: b.override ?? null },
      ),
    ),
  );
  await activateOnClass(tx, storeId, cardUses(bookings), now);
  return ids;
}

/** The cards of a set of bookings with their classes' starts: 首次上课开卡 cards start with their first (issue 29). */
const cardUses = (bookings: readonly SetBooking[]) =>
  bookings.flatMap((b) => (b.card ? [{ card: b.card, at: b.session.startTime }] : []));

/**
 * Books a member card into a session (deduction mode 0): card rules, seats, gender and age limits,
 * duplicate rule; deducts perCount x studentCount (fen for money cards, counts otherwise), writes
 * the reservation, its history row and a card_ledger 'deduct'. Seats and balance are guarded by
 * conditional UPDATEs, so concurrent bookings can neither overfill nor overdraw.
 */
export async function bookWithCard(
  tx: Tx,
  store: StoreScope,
  args: CardBooking,
  /** The session and the card, as `loadBookingContext` (or a use case's own load) answers them. */
  booking: BookingContext,
): Promise<{ reservationId: number; usedCount: number; fact: BookingFact }> {
  if (!Number.isInteger(args.studentCount) || args.studentCount < 1) throw badRequest(Msg.submitFailed);
  const now = localDateTime(store.timezone);
  const { session, card } = booking;
  const holder = args.memberId === undefined || args.memberId === card.memberId;
  const member = holder
    ? { id: card.memberId, name: card.memberName, gender: card.gender, birthday: card.birthday }
    : await requireMember(tx, store.id, args.memberId!);
  // The session read said whether the card's holder already holds it; anyone else is looked up.
  const held: [number, number][] = holder
    ? session.holderHolds
      ? [[session.id, member.id]]
      : []
    : await heldPairs(tx, [session.id], [member.id]);
  // The entry names the member as well as the session and card (no card-holder look-up then). It is
  // written before the booking's writes (`auditFirst`), so the session's row lock, which every
  // booking of the class waits for, is held for the write and the commit only.
  if (args.isTheCallsChange) {
    await auditFirst(tx, {
      kind: 'booking',
      targets: [
        { type: 'session', id: session.id },
        { type: 'card', id: card.id },
        { type: 'member', id: member.id },
      ],
    });
  }
  const [reservationId] = await bookSet(
    tx,
    store.id,
    [
      {
        session: sessionForRules(session, card.allowed ? [card.cardId] : []),
        member,
        card,
        studentCount: args.studentCount,
        remark: args.remark,
        override: bookingOverride(args.staffPolicy, session.startTime, now, card),
      },
    ],
    { mode: 0, now, operatorId: args.operatorId, operateType: args.operateType, held, member: args.member },
  );
  const fact = factOf(
    {
      storeId: store.id,
      sessionId: session.id,
      memberId: member.id,
      memberName: member.name,
      studentCount: args.studentCount,
      cardTrial: card.trial,
    },
    'reservation',
    reservationId,
  );
  return { reservationId, usedCount: chargeFor(card, args.studentCount), fact };
}

/**
 * Cancels a live reservation whose row the caller has read, its session row locked (the engine's
 * lock order: session, then its bookings, then the card): flips its status (guarded: 409 该预约已取消
 * when it is no longer live, so a refund happens once), frees its seats, closes its pending if it
 * came from one, refunds what it deducted and writes history and ledger. Returns the refund.
 */
export async function cancelReservationLocked(
  tx: Tx,
  r: Row<'reservation'>,
  o: {
    operatorId: number | null;
    operateType: number;
    now: string;
    override?: string | null;
    /** A member's late cancel under a "forfeit" policy: the seat is freed, the deduction kept (迟到取消). */
    keepDeduction?: boolean;
  },
): Promise<number> {
  if (!(await markReservationCancelled(tx, r.id, o.now, Boolean(o.keepDeduction)))) {
    throw conflict(Msg.alreadyCancelled);
  }
  await freeSeats(tx, r.timetableId, r.studentCount);
  if (r.pendingId !== null) await markPendingCancelled(tx, r.pendingId, o.now, { onlyWaiting: false });
  const amount = Number(r.usedCount);
  if (!o.keepDeduction) await creditCard(tx, r.memberCardId, amount);
  await writeTrail(tx, r.storeId, [
    bookingTrail(r, {
      operateType: o.keepDeduction ? OperateType.LATE_CANCEL : o.operateType,
      operatorId: o.operatorId,
      now: o.now,
      override: o.override,
    }),
  ]);
  return o.keepDeduction ? 0 : amount;
}

/**
 * What a member's own cancel (of a booking or a pending) is at `now`, by the store's policy: refused
 * once the class has started (409 课程已开始), free until the free-cancel time, then refused (409) or
 * allowed keeping the charge (`forfeit`: 迟到取消), as the policy says.
 */
function memberCancelKind(policy: BookingPolicy, startTime: string, now: string): 'free' | 'forfeit' {
  if (now >= startTime) throw conflict(TimetableMsg.startedNoCancel);
  const kind = cancelKind(policy, { startTime, now });
  if (kind === 'refused') throw conflict(PolicyMsg.lateCancelRefused(policy.cancelMinutesBefore));
  return kind;
}

/** Cancels one booking and refunds exactly what it deducted, once (409 该预约已取消 the second time). */
export async function cancelReservation(
  tx: Tx,
  store: StoreScope,
  args: {
    reservationId: number;
    operatorId: number | null;
    operateType: number;
    /** For a staff cancel: after the members' free-cancel time it still refunds, recorded as an override. */
    staffPolicy?: BookingPolicy;
    /**
     * A member's own cancel: only their booking (404 otherwise), held to the policy: after the
     * free-cancel time refused, or (lateCancel "forfeit") allowed keeping the deduction (迟到取消).
     */
    member?: { id: number; policy: BookingPolicy };
    /** Staff: the session has ended and they confirmed cancelling (and refunding) anyway. */
    confirmEnded?: boolean;
  },
): Promise<{ refunded: number; fact: BookingFact }> {
  const r = await findReservation(tx, store.id, args.reservationId);
  if (!r || (args.member && r.memberId !== args.member.id)) throw notFound('预约');
  audit(tx, { kind: 'booking', targets: bookingTargets({ ...r, sessionId: r.timetableId }, r.id) });
  await lockSessions(tx, [r.timetableId]);
  const now = localDateTime(store.timezone);
  const session = await sessionTimes(tx, r.timetableId);
  if (args.member) {
    const kind = memberCancelKind(args.member.policy, session.startTime, now);
    const refunded = await cancelReservationLocked(tx, r, { ...args, now, keepDeduction: kind === 'forfeit' });
    return { refunded, fact: factOf({ ...r, sessionId: r.timetableId }, 'reservation', r.id) };
  }
  if (session.endTime <= now && !args.confirmEnded) {
    const bigType = await cardBigType(tx, r.memberCardId);
    throw conflict(TimetableMsg.endedCancel(session.endTime.slice(0, 16), amountText(bigType, Number(r.usedCount))));
  }
  let override: string | null = null;
  if (args.staffPolicy) {
    if (cancelKind(args.staffPolicy, { startTime: session.startTime, now }) !== 'free') {
      override = `越过预约规则：开课前${args.staffPolicy.cancelMinutesBefore}分钟内取消，已全额退回`;
    }
  }
  const refunded = await cancelReservationLocked(tx, r, { ...args, now, override });
  return { refunded, fact: factOf({ ...r, sessionId: r.timetableId }, 'reservation', r.id) };
}

/**
 * Books a member as a pending item (deduction mode 1): one student, takes the seat at once so the
 * class cannot overfill, deducts nothing; gender/age limits and the duplicate rule apply.
 */
export async function addPending(
  tx: Tx,
  store: StoreScope,
  args: {
    sessionId: number;
    memberId: number;
    studentCount: number;
    remark: string | null;
    operatorId: number | null;
    /** As for bookWithCard: a staff booking the members' policy would refuse is recorded as an override. */
    staffPolicy?: BookingPolicy;
    /** As for bookWithCard: a member's own booking (or a promotion of their wait), held to the policy. */
    member?: MemberRules;
    /** The card to charge at sign-in: it must pass the card rules now (it is charged then). */
    memberCardId?: number | null;
    /** Without a card: refuse (409 with the card help text) when the member has no card usable for it. */
    requireUsableCard?: boolean;
    /** History operate type: 2 admin booked (default), 1 the member's own booking. */
    operateType?: number;
  },
): Promise<{ pendingId: number; fact: BookingFact }> {
  if (args.studentCount !== 1) throw badRequest(Msg.oneStudentInSignInMode);
  const now = localDateTime(store.timezone);
  const session = await sessionToBook(tx, store.id, args.sessionId);
  const member = await requireMember(tx, store.id, args.memberId);
  const card =
    args.memberCardId != null
      ? await cardToBook(tx, { storeId: store.id, sessionId: session.id, memberCardId: args.memberCardId, now })
      : null;
  const held = await heldPairs(tx, [session.id], [member.id]);
  const booking: SetBooking = {
    session: sessionForRules(session, card?.allowed ? [card.cardId] : []),
    member,
    card,
    studentCount: args.studentCount,
    remark: args.remark,
    override: bookingOverride(args.staffPolicy, session.startTime, now, card),
  };
  const o: SetOptions = {
    mode: 1,
    now,
    operatorId: args.operatorId,
    operateType: args.operateType ?? OperateType.ADMIN_BOOKED,
    held,
    member: args.member,
  };
  const spent = refuseSet([booking], o);
  if (
    !card &&
    args.requireUsableCard &&
    (await firstUsableCard(tx, store.id, member.id, session, 1, { newBooking: true })) === null
  ) {
    throw conflict(Msg.cardHelp);
  }
  await recheckOpenUse(tx, store.id, [booking], o);
  const [pendingId] = await writeBookingSet(tx, store.id, [booking], spent, o);
  const fact = factOf(
    {
      storeId: store.id,
      sessionId: session.id,
      memberId: member.id,
      memberName: member.name,
      studentCount: args.studentCount,
      cardTrial: card?.trial ?? null,
    },
    'pending',
    pendingId,
  );
  // A promotion is the system's change, with its own entry (waitlist); any other is the call's.
  if (o.operateType !== OperateType.PROMOTED) {
    audit(tx, {
      kind: 'booking',
      targets: bookingTargets({ sessionId: session.id, memberId: member.id, memberCardId: card?.id ?? null }),
    });
  }
  return { pendingId, fact };
}

async function storePending(tx: Tx, storeId: number, id: number) {
  const p = await findPending(tx, storeId, id);
  if (!p) throw notFound('预约');
  return p;
}

/** Cancels a waiting pending the caller has read, its session row locked: frees its seat, refunds nothing, history type 4. */
export async function cancelPendingLocked(
  tx: Tx,
  p: Row<'pending'>,
  o: { operatorId: number | null; now: string; operateType?: number },
): Promise<void> {
  if (!(await markPendingCancelled(tx, p.id, o.now, { onlyWaiting: true }))) throw conflict(Msg.pendingNotWaiting);
  await freeSeats(tx, p.timetableId, p.studentCount);
  await writeTrail(tx, p.storeId, [
    pendingTrail(p, {
      operateType: o.operateType ?? OperateType.ADMIN_CANCELLED,
      operatorId: o.operatorId,
      now: o.now,
    }),
  ]);
}

/**
 * Cancels a waiting pending (409 该预约已签到或已取消 otherwise); nothing was charged. A member's own
 * cancel is held to the store's policy as a booking's is (`memberCancelKind`): refused once the
 * class has started or, after the free-cancel time, refused or kept as a late cancel charging what
 * its sign-in would (`lateCancelPending`).
 */
export async function cancelPending(
  tx: Tx,
  store: StoreScope,
  args: {
    pendingId: number;
    operatorId: number | null;
    operateType?: number;
    /** A member's own cancel: only their pending (404 预约不存在 otherwise), held to the policy. */
    member?: { id: number; policy: BookingPolicy };
  },
): Promise<BookingFact> {
  const p = await storePending(tx, store.id, args.pendingId);
  if (args.member && p.memberId !== args.member.id) throw notFound('预约');
  audit(tx, { kind: 'booking', targets: bookingTargets({ ...p, sessionId: p.timetableId }) });
  await lockSessions(tx, [p.timetableId]);
  const now = localDateTime(store.timezone);
  const fact = factOf({ ...p, sessionId: p.timetableId }, 'pending', p.id);
  if (args.member) {
    if (p.status !== PendingStatus.WAITING) throw conflict(Msg.pendingNotWaiting);
    const session = await sessionTimes(tx, p.timetableId);
    if (memberCancelKind(args.member.policy, session.startTime, now) === 'forfeit') {
      await lateCancelPending(tx, store.id, p, session, { operatorId: args.operatorId, now });
      return fact;
    }
  }
  await cancelPendingLocked(tx, p, { operatorId: args.operatorId, now, operateType: args.operateType });
  return fact;
}

/**
 * A card gives up bookings (its leave, its transfer; cards' `cardBookingsDropped`, their sessions
 * locked by the card's change): each is cancelled with its refund, as its member or the desk cancels
 * it, and each cancel answered as announced.
 */
export async function cancelDroppedBookings(
  ex: Executor,
  e: PayloadOf<typeof cardBookingsDropped>,
): Promise<Announced[]> {
  const tx = ex as Tx;
  const operateType = e.by.member ? OperateType.USER_CANCELLED : OperateType.ADMIN_CANCELLED;
  const facts: Announced[] = [];
  for (const b of e.bookings) {
    const fact =
      b.kind === 'reservation'
        ? (await cancelReservation(tx, e.store, { reservationId: b.id, operatorId: e.by.staffId, operateType })).fact
        : await cancelPending(tx, e.store, { pendingId: b.id, operatorId: e.by.staffId, operateType });
    facts.push(event(bookingCancelled, fact));
  }
  return facts;
}

/**
 * A member's late cancel of their pending under a "forfeit" policy (迟到取消), its session row
 * locked: the pending is cancelled and its seat freed (guarded: once), and what its sign-in would
 * have charged is charged (`chargePending`) and kept as a cancelled booking marked forfeited, as a
 * booking's late cancel keeps its deduction: listed with the member's late cancels, waived by staff
 * like them. When no card can pay, the late cancel is recorded without a charge, saying why.
 */
async function lateCancelPending(
  tx: Tx,
  storeId: number,
  p: Row<'pending'>,
  session: { startTime: string },
  o: { operatorId: number | null; now: string },
): Promise<void> {
  if (!(await markPendingCancelled(tx, p.id, o.now, { onlyWaiting: true }))) throw conflict(Msg.pendingNotWaiting);
  await freeSeats(tx, p.timetableId, p.studentCount);
  const charge = await chargePending(tx, storeId, { ...p, sessionId: p.timetableId }, session);
  const entry = { operateType: OperateType.LATE_CANCEL, operatorId: o.operatorId, now: o.now };
  if (!charge.card || charge.fee <= 0) {
    const why = charge.card ? '' : `：${charge.reason}`;
    await writeTrail(tx, storeId, [pendingTrail(p, { ...entry, remark: `迟到取消（未扣费${why}）` })]);
    return;
  }
  const row = {
    storeId,
    timetableId: p.timetableId,
    memberId: p.memberId,
    memberCardId: charge.card.id,
    pendingId: p.id,
    studentCount: p.studentCount,
    usedCount: charge.fee,
    remark: p.remark,
    operatorId: o.operatorId,
    status: ReservationStatus.CANCELLED,
    createTime: o.now,
    cancelTime: o.now,
    forfeited: 1,
  };
  const [id] = await insertBookingRows(tx, 'reservation', [row]);
  await linkPendingBooking(tx, p.id, id);
  await writeTrail(tx, storeId, [
    { ...bookingTrail({ ...row, id }, { ...entry, remark: '迟到取消扣费' }), charged: true },
  ]);
}

/**
 * Signs a waiting pending in with a card: card rules, deducts perCount x studentCount, creates a
 * signed-in reservation (status 2) linked to the pending, pending status 2. The seat is already held.
 */
export async function signInPending(
  tx: Tx,
  store: StoreScope,
  args: {
    pendingId: number;
    memberCardId: number;
    remark: string | null;
    operatorId: number | null;
    /** History operate type: 8 at the desk (default), 9 the member's own check-in. */
    operateType?: number;
  },
): Promise<{ reservationId: number; usedCount: number; memberId: number; sessionId: number; now: string }> {
  const now = localDateTime(store.timezone);
  const p = await storePending(tx, store.id, args.pendingId);
  if (p.status !== PendingStatus.WAITING) throw conflict(Msg.pendingNotWaiting);
  const card = await storeCard(tx, store.id, args.memberCardId, p.timetableId);
  // Lock order: the session row (read locked), then the pending, then the card.
  const session = await liveSession(tx, store.id, p.timetableId, { lock: true });
  const { fee: charge, reason } = signInCharge(session, card, p.memberId, p.studentCount);
  if (reason !== null) throw conflict(reason);
  if (!(await markPendingSignedIn(tx, p.id))) throw conflict(Msg.pendingNotWaiting);
  audit(tx, { kind: 'booking', targets: bookingTargets({ ...p, sessionId: p.timetableId, memberCardId: card.id }) });
  await deduct(tx, card.id, charge);
  const remark = args.remark ?? p.remark;
  const [reservationId] = await insertBookingRows(tx, 'reservation', [
    {
      storeId: store.id,
      timetableId: session.id,
      memberId: p.memberId,
      memberCardId: card.id,
      pendingId: p.id,
      studentCount: p.studentCount,
      usedCount: charge,
      remark,
      operatorId: args.operatorId,
      status: ReservationStatus.SIGNED_IN,
      createTime: now,
    },
  ]);
  const r = { id: reservationId };
  await linkPendingBooking(tx, p.id, r.id);
  await writeTrail(tx, store.id, [
    {
      timetableId: session.id,
      memberId: p.memberId,
      memberCardId: card.id,
      reservationId: r.id,
      pendingId: p.id,
      studentCount: p.studentCount,
      usedCount: charge,
      operateType: args.operateType ?? OperateType.SIGNED_IN,
      operatorId: args.operatorId,
      remark,
      now,
    },
  ]);
  await activateOnClass(tx, store.id, [{ card, at: session.startTime }], now);
  return { reservationId: r.id, usedCount: charge, memberId: p.memberId, sessionId: session.id, now };
}
