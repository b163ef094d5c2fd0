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
import type { StoreScope } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { cardUnusableReason, chargeFor } from '../card/rules.ts';
import { bookingWindowReason, cancelKind } from '../policy/rules.ts';
import { memberCards } from '../reference/public.ts';
import {
  checkMemberMayBook,
  freeSeats,
  isUniqueViolation,
  liveSession,
  storeMember,
  takeSeats,
} from './engine-shared.ts';

export interface CardBooking {
  timetableId: number;
  memberCardId: number;
  /** When given, the card must belong to this member (else 409 该会员卡不属于此会员). */
  memberId?: number;
  studentCount: number;
  remark: string | null;
  operatorId: number | null;
  /** History operate type: 2 admin booked (1 user booked). */
  operateType: number;
  /**
   * The store's booking policy, for a staff booking: outside the members' booking window it is made
   * anyway and history records the override (members are refused before they get here).
   */
  staffPolicy?: BookingPolicy;
}

/** History's note for a staff booking outside the members' booking window, else null. */
function bookingOverride(policy: BookingPolicy | undefined, startTime: string, now: string): string | null {
  const reason = policy ? bookingWindowReason(policy, { startTime, now }) : null;
  return reason ? `越过预约规则：${reason}` : null;
}

/**
 * A member card of the store with its product, its holder (for the gender and age limits) and
 * whether the session allows its product; 404 会员卡不存在 when the store has no such card.
 */
async function storeCard(tx: Tx, storeId: number, id: number, timetableId: number) {
  const card = await tx
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .innerJoin('member as m', 'm.id', 'mc.memberId')
    .select((eb) => [
      'mc.id',
      'mc.memberId',
      'mc.cardId',
      'mc.totalCount',
      'mc.usedCount',
      'mc.expireTime',
      'mc.frozen',
      'p.cardType',
      'p.perCount',
      'm.name as memberName',
      'm.gender as memberGender',
      'm.birthday as memberBirthday',
      eb
        .exists(
          eb
            .selectFrom('timetableCard as tc')
            .select('tc.cardId')
            .where('tc.timetableId', '=', timetableId)
            .whereRef('tc.cardId', '=', 'mc.cardId'),
        )
        .as('allowed'),
    ])
    .where('mc.id', '=', id)
    .where('mc.storeId', '=', storeId)
    .executeTakeFirst();
  if (!card) throw notFound('会员卡');
  return {
    ...card,
    totalCount: Number(card.totalCount),
    usedCount: Number(card.usedCount),
    allowed: Boolean(card.allowed),
  };
}

/**
 * The member's first card (oldest first) that can pay for `studentCount` seats of the session, by
 * the card rules at its start, or null: a pending made without a card, a member checking in by
 * themself, a no-show charged by the job.
 */
export async function firstUsableCard(
  tx: Executor,
  storeId: number,
  memberId: number,
  session: { id: number; startTime: string },
  studentCount = 1,
) {
  const [cards, allowed] = await Promise.all([
    memberCards(tx, storeId, memberId),
    tx.selectFrom('timetableCard').select('cardId').where('timetableId', '=', session.id).execute(),
  ]);
  const allowedCardIds = allowed.map((a) => a.cardId);
  const card = cards.find(
    (c) =>
      c.refundedAt === null &&
      !cardUnusableReason({ card: c, product: c, memberId, allowedCardIds, at: session.startTime, studentCount }),
  );
  return card ?? null;
}

/** Deducts `amount` from a card, guarded in the database; 409 会员卡余额不足 when it cannot pay. */
export async function deduct(tx: Tx, memberCardId: number, amount: number): Promise<void> {
  const res = await tx
    .updateTable('memberCard')
    .set((eb) => ({ usedCount: eb('usedCount', '+', amount) }))
    .where('id', '=', memberCardId)
    .where('frozen', '=', 0)
    .where((eb) => eb(eb('usedCount', '+', amount), '<=', eb.ref('totalCount')))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(Msg.cardBalance);
}

type StoreCard = Awaited<ReturnType<typeof storeCard>>;

/** Card checks shared by a booking and a sign-in: the card rules of features/card/rules.ts. */
function chargeOrRefuse(session: { startTime: string }, card: StoreCard, memberId: number, studentCount: number) {
  const reason = cardUnusableReason({
    card,
    product: card,
    memberId,
    allowedCardIds: card.allowed ? [card.cardId] : [],
    at: session.startTime,
    studentCount,
  });
  if (reason) throw conflict(reason);
  return chargeFor(card, studentCount);
}

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
): Promise<{ reservationId: number; usedCount: number }> {
  if (!Number.isInteger(args.studentCount) || args.studentCount < 1) throw badRequest(Msg.submitFailed);
  const now = localDateTime(store.timezone);
  const session = await liveSession(tx, store.id, args.timetableId);
  const card = await storeCard(tx, store.id, args.memberCardId, session.id);
  const member =
    args.memberId !== undefined && args.memberId !== card.memberId
      ? await storeMember(tx, store.id, args.memberId)
      : { id: card.memberId, name: card.memberName, gender: card.memberGender, birthday: card.memberBirthday };
  const charge = chargeOrRefuse(session, card, member.id, args.studentCount);
  await checkMemberMayBook(tx, session, member, now);
  // Lock order: the session row (taking the seats), then the card row (paying).
  await takeSeats(tx, store.id, session.id, args.studentCount);
  await deduct(tx, card.id, charge);
  let reservationId: number;
  try {
    const r = await tx
      .insertInto('reservation')
      .values({
        storeId: store.id,
        timetableId: session.id,
        memberId: member.id,
        memberCardId: card.id,
        pendingId: null,
        studentCount: args.studentCount,
        usedCount: charge,
        remark: args.remark,
        operatorId: args.operatorId,
        status: ReservationStatus.BOOKED,
        createTime: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    reservationId = r.id;
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.alreadyBooked);
    throw e;
  }
  await writeBookingTrail(tx, store.id, {
    timetableId: session.id,
    memberId: member.id,
    memberCardId: card.id,
    reservationId,
    pendingId: null,
    studentCount: args.studentCount,
    usedCount: charge,
    operateType: args.operateType,
    operatorId: args.operatorId,
    remark: args.remark,
    now,
    override: bookingOverride(args.staffPolicy, session.startTime, now),
  });
  return { reservationId, usedCount: charge };
}

export async function writeBookingTrail(
  tx: Tx,
  storeId: number,
  t: {
    timetableId: number;
    memberId: number;
    memberCardId: number | null;
    reservationId: number | null;
    pendingId: number | null;
    studentCount: number;
    usedCount: number;
    operateType: number;
    operatorId: number | null;
    remark: string | null;
    now: string;
    /** A staff action outside the members' policy, recorded (越过预约规则：...). */
    override?: string | null;
  },
): Promise<void> {
  await tx
    .insertInto('history')
    .values({
      storeId,
      timetableId: t.timetableId,
      memberId: t.memberId,
      memberCardId: t.memberCardId,
      reservationId: t.reservationId,
      pendingId: t.pendingId,
      studentCount: t.studentCount,
      usedCount: t.usedCount,
      operateType: t.operateType,
      operatorId: t.operatorId,
      remark: t.remark,
      override: t.override ?? null,
      createTime: t.now,
    })
    .execute();
  // A late cancel that keeps the deduction (迟到取消) moves nothing: history only; a waiver writes
  // its own ledger entry (features/no-show).
  const ownLedger: number[] = [OperateType.LATE_CANCEL, OperateType.WAIVED, OperateType.NO_SHOW];
  if (t.memberCardId !== null && t.reservationId !== null && !ownLedger.includes(t.operateType)) {
    const cancel = t.operateType === OperateType.ADMIN_CANCELLED || t.operateType === OperateType.USER_CANCELLED;
    await tx
      .insertInto('cardLedger')
      .values({
        storeId,
        memberCardId: t.memberCardId,
        kind: cancel ? 'refund' : 'deduct',
        amount: cancel ? -t.usedCount : t.usedCount,
        reservationId: t.reservationId,
        timetableId: t.timetableId,
        operatorId: t.operatorId,
        remark: null,
        createdAt: t.now,
      })
      .execute();
  }
}

/**
 * Cancels a live reservation whose row the caller has read, its session row locked (the engine's
 * lock order: session, then its bookings, then the card): flips its status (guarded: 409 该预约已取消
 * when it is no longer live, so a refund happens once), frees its seats, closes its pending if it
 * came from one, refunds what it deducted and writes history and ledger. Returns the refund.
 */
/** Gives `amount` back to a card (a refund of what it paid). */
export async function credit(tx: Tx, memberCardId: number, amount: number): Promise<void> {
  if (amount <= 0) return;
  await tx
    .updateTable('memberCard')
    .set((eb) => ({ usedCount: eb('usedCount', '-', amount) }))
    .where('id', '=', memberCardId)
    .execute();
}

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
  const res = await tx
    .updateTable('reservation')
    .set({ status: ReservationStatus.CANCELLED, cancelTime: o.now, forfeited: o.keepDeduction ? 1 : 0 })
    .where('id', '=', r.id)
    .where('status', 'in', [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN])
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(Msg.alreadyCancelled);
  await freeSeats(tx, r.timetableId, r.studentCount);
  if (r.pendingId !== null) {
    await tx
      .updateTable('pending')
      .set({ status: PendingStatus.CANCELLED, cancelTime: o.now })
      .where('id', '=', r.pendingId)
      .execute();
  }
  const amount = Number(r.usedCount);
  if (!o.keepDeduction) await credit(tx, r.memberCardId, amount);
  await writeBookingTrail(tx, r.storeId, {
    timetableId: r.timetableId,
    memberId: r.memberId,
    memberCardId: r.memberCardId,
    reservationId: r.id,
    pendingId: r.pendingId,
    studentCount: r.studentCount,
    usedCount: amount,
    operateType: o.keepDeduction ? OperateType.LATE_CANCEL : o.operateType,
    operatorId: o.operatorId,
    remark: r.remark,
    now: o.now,
    override: o.override,
  });
  return o.keepDeduction ? 0 : amount;
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
): Promise<{ refunded: number }> {
  const r = await tx
    .selectFrom('reservation')
    .selectAll()
    .where('id', '=', args.reservationId)
    .where('storeId', '=', store.id)
    .executeTakeFirst();
  if (!r || (args.member && r.memberId !== args.member.id)) throw notFound('预约');
  await lockSessions(tx, [r.timetableId]);
  const now = localDateTime(store.timezone);
  const session = await tx
    .selectFrom('timetable')
    .select(['startTime', 'endTime'])
    .where('id', '=', r.timetableId)
    .executeTakeFirstOrThrow();
  if (args.member) {
    if (now >= session.startTime) throw conflict(TimetableMsg.startedNoCancel);
    const kind = cancelKind(args.member.policy, { startTime: session.startTime, now });
    if (kind === 'refused') throw conflict(PolicyMsg.lateCancelRefused(args.member.policy.cancelMinutesBefore));
    const refunded = await cancelReservationLocked(tx, r, { ...args, now, keepDeduction: kind === 'forfeit' });
    return { refunded };
  }
  if (session.endTime <= now && !args.confirmEnded) {
    const card = await tx
      .selectFrom('memberCard as mc')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .select('p.bigType')
      .where('mc.id', '=', r.memberCardId)
      .executeTakeFirstOrThrow();
    throw conflict(
      TimetableMsg.endedCancel(session.endTime.slice(0, 16), amountText(card.bigType, Number(r.usedCount))),
    );
  }
  let override: string | null = null;
  if (args.staffPolicy) {
    if (cancelKind(args.staffPolicy, { startTime: session.startTime, now }) !== 'free') {
      override = `越过预约规则：开课前${args.staffPolicy.cancelMinutesBefore}分钟内取消，已全额退回`;
    }
  }
  const refunded = await cancelReservationLocked(tx, r, { ...args, now, override });
  return { refunded };
}

/**
 * Books a member as a pending item (deduction mode 1): one student, takes the seat at once so the
 * class cannot overfill, deducts nothing; gender/age limits and the duplicate rule apply.
 */
export async function addPending(
  tx: Tx,
  store: StoreScope,
  args: {
    timetableId: number;
    memberId: number;
    studentCount: number;
    remark: string | null;
    operatorId: number | null;
    /** As for bookWithCard: a staff booking outside the members' window is recorded as an override. */
    staffPolicy?: BookingPolicy;
    /** The card to charge at sign-in: it must pass the card rules now (it is charged then). */
    memberCardId?: number | null;
    /** Without a card: refuse (409 with the card help text) when the member has no card usable for it. */
    requireUsableCard?: boolean;
    /** History operate type: 2 admin booked (default), 1 the member's own booking. */
    operateType?: number;
  },
): Promise<{ pendingId: number }> {
  if (args.studentCount !== 1) throw badRequest(Msg.oneStudentInSignInMode);
  const now = localDateTime(store.timezone);
  const session = await liveSession(tx, store.id, args.timetableId);
  const member = await storeMember(tx, store.id, args.memberId);
  await checkMemberMayBook(tx, session, member, now);
  if (args.memberCardId != null) {
    const card = await storeCard(tx, store.id, args.memberCardId, session.id);
    chargeOrRefuse(session, card, member.id, args.studentCount);
  } else if (args.requireUsableCard && (await firstUsableCard(tx, store.id, member.id, session)) === null) {
    throw conflict(Msg.cardHelp);
  }
  await takeSeats(tx, store.id, session.id, args.studentCount);
  let pendingId: number;
  try {
    const p = await tx
      .insertInto('pending')
      .values({
        storeId: store.id,
        timetableId: session.id,
        memberId: member.id,
        studentCount: args.studentCount,
        remark: args.remark,
        status: PendingStatus.WAITING,
        operatorId: args.operatorId,
        reservationId: null,
        memberCardId: args.memberCardId ?? null,
        createTime: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    pendingId = p.id;
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(Msg.alreadyBooked);
    throw e;
  }
  await writeBookingTrail(tx, store.id, {
    timetableId: session.id,
    memberId: member.id,
    memberCardId: null,
    reservationId: null,
    pendingId,
    studentCount: args.studentCount,
    usedCount: 0,
    operateType: args.operateType ?? OperateType.ADMIN_BOOKED,
    operatorId: args.operatorId,
    remark: args.remark,
    now,
    override: bookingOverride(args.staffPolicy, session.startTime, now),
  });
  return { pendingId };
}

async function storePending(tx: Tx, storeId: number, id: number) {
  const p = await tx
    .selectFrom('pending')
    .selectAll()
    .where('id', '=', id)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
  if (!p) throw notFound('预约');
  return p;
}

/** Cancels a waiting pending the caller has read, its session row locked: frees its seat, refunds nothing, history type 4. */
export async function cancelPendingLocked(
  tx: Tx,
  p: Row<'pending'>,
  o: { operatorId: number | null; now: string; operateType?: number },
): Promise<void> {
  const res = await tx
    .updateTable('pending')
    .set({ status: PendingStatus.CANCELLED, cancelTime: o.now })
    .where('id', '=', p.id)
    .where('status', '=', PendingStatus.WAITING)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(Msg.pendingNotWaiting);
  await freeSeats(tx, p.timetableId, p.studentCount);
  await writeBookingTrail(tx, p.storeId, {
    timetableId: p.timetableId,
    memberId: p.memberId,
    memberCardId: null,
    reservationId: null,
    pendingId: p.id,
    studentCount: p.studentCount,
    usedCount: 0,
    operateType: o.operateType ?? OperateType.ADMIN_CANCELLED,
    operatorId: o.operatorId,
    remark: p.remark,
    now: o.now,
  });
}

/** Cancels a waiting pending (409 该预约已签到或已取消 otherwise); nothing to refund. */
export async function cancelPending(
  tx: Tx,
  store: StoreScope,
  args: { pendingId: number; operatorId: number | null; operateType?: number },
): Promise<void> {
  const p = await storePending(tx, store.id, args.pendingId);
  await lockSessions(tx, [p.timetableId]);
  await cancelPendingLocked(tx, p, {
    operatorId: args.operatorId,
    now: localDateTime(store.timezone),
    operateType: args.operateType,
  });
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
): Promise<{ reservationId: number; usedCount: number }> {
  const now = localDateTime(store.timezone);
  const p = await storePending(tx, store.id, args.pendingId);
  if (p.status !== PendingStatus.WAITING) throw conflict(Msg.pendingNotWaiting);
  const card = await storeCard(tx, store.id, args.memberCardId, p.timetableId);
  // Lock order: the session row (read locked), then the pending, then the card.
  const session = await liveSession(tx, store.id, p.timetableId, { lock: true });
  const charge = chargeOrRefuse(session, card, p.memberId, p.studentCount);
  const res = await tx
    .updateTable('pending')
    .set({ status: PendingStatus.SIGNED_IN })
    .where('id', '=', p.id)
    .where('status', '=', PendingStatus.WAITING)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict(Msg.pendingNotWaiting);
  await deduct(tx, card.id, charge);
  const remark = args.remark ?? p.remark;
  const r = await tx
    .insertInto('reservation')
    .values({
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
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.updateTable('pending').set({ reservationId: r.id }).where('id', '=', p.id).execute();
  await writeBookingTrail(tx, store.id, {
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
  });
  return { reservationId: r.id, usedCount: charge };
}
