import { CardLifeMsg, LEAVE_STATUSES, type LeaveStatus } from '@studio/contract';
import type { Db, Dialect, Tx } from '../../../db/index.ts';
import { lockCards, lockSessions } from '../../../db/locks.ts';
import { inWriteTx } from '../../../lib/write-queue.ts';
import { audit } from '../../../lib/audit.ts';
import type { Events } from '../../../lib/events.ts';
import type { StoreScope } from '../../../lib/context.ts';
import { conflict, notFound } from '../../../lib/errors.ts';
import { event } from '../../../lib/events.ts';
import { localDateTime } from '../../../lib/time.ts';
import { activateBy, expiryOf } from '../activation.ts';
import { addLedgerNote } from '../member-card-service.ts';
import { leaveDecided } from '../events.ts';
import { loadCardLifeSetting } from '../refund-quote.ts';
import { cancelCardBookings } from './bookings.ts';
import {
  bookingsOfCardBetween,
  changeLeave,
  insertLeave,
  leavePage,
  leavesOfCard,
  requireLeave,
  requireLeaveCard,
  sessionsOfProductBetween,
  setCardLeave,
  type LeaveCard,
} from './repository.ts';
import { endingOf, leaveDays, leaveRefusal, periodsWith, type CardForLeave } from './rules.ts';

/** Who acts: the desk (a staff member) or the member on the phone. */
export type LeaveActor = { staffId: number } | { memberId: number };

export interface LeaveScope {
  db: Db;
  dialect: Dialect;
  store: StoreScope;
  /** The app's listeners: the bookings a leave cancels are announced to them. */
  events: Events;
}

const LEAVE_PAGE_SIZE = 20;
const storeToday = (store: StoreScope) => localDateTime(store.timezone);

/** When the card starts, as leave counts from it: its start, or the last day a 首次上课开卡 card starts. */
const startOf = (c: LeaveCard) =>
  c.activateTime?.slice(0, 10) ?? (c.activation === 'first_class' ? activateBy(c.createdAt, c) : null);

const forRules = (c: LeaveCard): CardForLeave => ({ ...c, startDate: startOf(c) });

/** The card's expiry with `leaveDays` days of leave (unchanged for a card without a validity). */
const expiryWith = (c: LeaveCard, days: number) =>
  c.validDays === null ? c.expireTime : expiryOf(startOf(c)!, Number(c.validDays), days);

/** The card's bookings a leave from `from` to `to` would cancel (classes not ended by now). */
function bookingsInLeave(ex: Db | Tx, storeId: number, memberCardId: number, from: string, to: string, now: string) {
  return bookingsOfCardBetween(ex, storeId, memberCardId, { from: `${from} 00:00:00`, to: `${to} 23:59:59`, now });
}

/**
 * What a leave would do, without doing it: its days, the card's new expiry, the bookings it would
 * cancel, and why the rules would refuse it (null: they allow it).
 */
export async function previewLeave(s: LeaveScope, input: { memberCardId: number; fromDate: string; toDate: string }) {
  const now = storeToday(s.store);
  const card = await requireLeaveCard(s.db, s.store.id, input.memberCardId);
  const leaves = await leavesOfCard(s.db, s.store.id, card.id);
  const refusal = leaveRefusal({ card: forRules(card), leaves, ...input, today: now.slice(0, 10) });
  const days = input.toDate >= input.fromDate ? leaveDays(input.fromDate, input.toDate) : 0;
  const bookings =
    input.toDate >= input.fromDate
      ? await bookingsInLeave(s.db, s.store.id, card.id, input.fromDate, input.toDate, now)
      : [];
  const expireTime = refusal ? card.expireTime : expiryWith(card, card.leaveDays + days);
  // The answer names each booking's session `tid`, as the wire does.
  return { days, expireTime, refusal, bookings: bookings.map(({ sessionId, ...b }) => ({ ...b, tid: sessionId })) };
}

/**
 * Starts an approved leave in the caller's transaction: the card's bookings inside it are
 * cancelled with their refund through the engine's one cancel (each announced, so the waitlist and
 * store messaging hear of it), then the card's days of leave, its leave periods (what the booking
 * rules read) and its expiry move, with a ledger note. Lock order: the bookings' sessions, then the
 * card; if a booking of the card appeared meanwhile, 409 (the caller's read is stale).
 */
async function startLeave(
  tx: Tx,
  store: StoreScope,
  a: {
    card: LeaveCard;
    fromDate: string;
    toDate: string;
    now: string;
    actor: LeaveActor;
    confirmed: boolean;
    events: Events;
    /** The leave's own row, when it exists already (a pending request): not counted against itself. */
    excludeId?: number;
  },
) {
  const { card, now } = a;
  const ahead = await bookingsInLeave(tx, store.id, card.id, a.fromDate, a.toDate, now);
  if (ahead.length && !a.confirmed) throw conflict(CardLifeMsg.bookingsInLeave(ahead.length));
  // Lock order: every session the card could be booked into during the leave (a booking on its way
  // into one finishes first, or waits and is checked again under the card's lock), then the card;
  // what is booked is read after that, so nothing comes in between.
  const window = { from: `${a.fromDate} 00:00:00`, to: `${a.toDate} 23:59:59`, now };
  await lockSessions(tx, [
    ...(await sessionsOfProductBetween(tx, store.id, card.cardId, window)),
    ...ahead.map((b) => b.sessionId),
  ]);
  await lockCards(tx, [card.id]);
  const fresh = await requireLeaveCard(tx, store.id, card.id);
  const leaves = (await leavesOfCard(tx, store.id, card.id)).filter((l) => l.id !== a.excludeId);
  const range = { fromDate: a.fromDate, toDate: a.toDate };
  const refusal = leaveRefusal({ card: forRules(fresh), leaves, ...range, today: now.slice(0, 10) });
  if (refusal) throw conflict(refusal);
  const found = await bookingsInLeave(tx, store.id, card.id, a.fromDate, a.toDate, now);
  if (found.length && !a.confirmed) throw conflict(CardLifeMsg.bookingsInLeave(found.length));
  const staff = 'staffId' in a.actor ? a.actor.staffId : null;
  await cancelCardBookings(tx, store, found, { staffId: staff, member: 'memberId' in a.actor }, a.events);
  const days = leaveDays(a.fromDate, a.toDate);
  const total = fresh.leaveDays + days;
  const expireTime = expiryWith(fresh, total);
  await setCardLeave(tx, store.id, card.id, {
    leaveDays: total,
    leavePeriods: periodsWith(fresh.leavePeriods, { add: [a.fromDate, a.toDate] }),
    expireTime,
  });
  const cancelled = found.length ? `，取消期间预约${found.length}节` : '';
  const remark = `请假 ${a.fromDate} 至 ${a.toDate}（${days}天），有效期顺延至 ${expireTime?.slice(0, 10) ?? '-'}${cancelled}`;
  await noteLeaveChange(tx, {
    storeId: store.id,
    card,
    kind: 'leave',
    operatorId: staff,
    remark,
    now,
    was: { expireTime: card.expireTime, leaveDays: fresh.leaveDays },
    is: { expireTime, leaveDays: total },
  });
}

/** A leave's change of a card: its ledger note (流水) and its audit entry, with expiry and days of leave before and after. */
async function noteLeaveChange(
  tx: Tx,
  c: {
    storeId: number;
    card: { id: number; memberId: number };
    kind: 'leave' | 'leave_end';
    operatorId: number | null;
    remark: string;
    now: string;
    was: { expireTime: string | null; leaveDays: number };
    is: { expireTime: string | null; leaveDays: number };
  },
) {
  await addLedgerNote(tx, {
    storeId: c.storeId,
    memberCardId: c.card.id,
    kind: c.kind,
    operatorId: c.operatorId,
    remark: c.remark,
    now: c.now,
  });
  const shown = (x: { expireTime: string | null; leaveDays: number }) => ({
    到期日期: x.expireTime?.slice(0, 10) ?? null,
    请假天数: x.leaveDays,
  });
  audit(tx, {
    kind: 'card',
    summary: c.remark,
    targets: [
      { type: 'card', id: c.card.id },
      { type: 'member', id: c.card.memberId },
    ],
    before: shown(c.was),
    after: shown(c.is),
  });
}

/**
 * The desk records a leave (approved at once): refused by the product's leave rules; bookings
 * inside it need the desk's confirmation (`cancelBookings`), then are cancelled with refund.
 */
export async function addLeave(
  s: LeaveScope,
  staffId: number,
  input: { memberCardId: number; fromDate: string; toDate: string; reason: string; cancelBookings?: boolean },
) {
  return inWriteTx(s.db, s.dialect, async (tx) => {
    const now = storeToday(s.store);
    const card = await requireLeaveCard(tx, s.store.id, input.memberCardId);
    const refusal = leaveRefusal({
      card: forRules(card),
      leaves: await leavesOfCard(tx, s.store.id, card.id),
      ...input,
      today: now.slice(0, 10),
    });
    if (refusal) throw conflict(refusal);
    const id = await insertLeave(tx, {
      storeId: s.store.id,
      memberCardId: card.id,
      memberId: card.memberId,
      fromDate: input.fromDate,
      toDate: input.toDate,
      days: leaveDays(input.fromDate, input.toDate),
      reason: input.reason,
      status: 'approved',
      requestedBy: 'staff',
      staffId,
      createdAt: now,
      decidedAt: now,
      decidedBy: staffId,
    });
    await startLeave(tx, s.store, {
      events: s.events,
      card,
      ...input,
      now,
      actor: { staffId },
      confirmed: Boolean(input.cancelBookings),
      excludeId: id,
    });
    return { id };
  });
}

/**
 * A member asks for leave on the phone: the same rules; one request waiting at a time. Approved at
 * once when the store approves automatically (bookings inside it need the member's confirmation,
 * then are cancelled with refund), else it waits for the desk.
 */
export async function requestLeave(
  s: LeaveScope,
  memberId: number,
  input: { memberCardId: number; fromDate: string; toDate: string; reason: string; cancelBookings?: boolean },
): Promise<{ id: number; status: 'approved' | 'pending' }> {
  return inWriteTx(s.db, s.dialect, async (tx) => {
    const now = storeToday(s.store);
    const card = await requireLeaveCard(tx, s.store.id, input.memberCardId);
    // Only the member's own card: another's is not found (nothing of others leaks).
    if (card.memberId !== memberId) throw notFound('会员卡');
    const leaves = await leavesOfCard(tx, s.store.id, card.id);
    const refusal = leaveRefusal({ card: forRules(card), leaves, ...input, today: now.slice(0, 10) });
    if (refusal) throw conflict(refusal);
    if (leaves.some((l) => l.status === 'pending')) throw conflict(CardLifeMsg.onePending);
    const { leaveApproval } = await loadCardLifeSetting(tx, s.store.id);
    const status = leaveApproval === 'auto' ? 'approved' : 'pending';
    const id = await insertLeave(tx, {
      storeId: s.store.id,
      memberCardId: card.id,
      memberId,
      fromDate: input.fromDate,
      toDate: input.toDate,
      days: leaveDays(input.fromDate, input.toDate),
      reason: input.reason,
      status,
      requestedBy: 'member',
      createdAt: now,
      ...(status === 'approved' ? { decidedAt: now } : {}),
    });
    if (status === 'approved') {
      await startLeave(tx, s.store, {
        events: s.events,
        card,
        ...input,
        now,
        actor: { memberId },
        confirmed: Boolean(input.cancelBookings),
        excludeId: id,
      });
    } else {
      audit(tx, {
        kind: 'card',
        summary: `申请请假 ${input.fromDate} 至 ${input.toDate}（待前台审批）`,
        targets: [
          { type: 'card', id: card.id },
          { type: 'member', id: memberId },
        ],
      });
    }
    return { id, status };
  });
}

/**
 * The desk approves a member's waiting request: the rules again (as they stand now), then as a desk
 * leave (bookings inside it need the desk's confirmation). Guarded: decided once.
 */
export async function approveLeave(s: LeaveScope, staffId: number, input: { id: number; cancelBookings?: boolean }) {
  await inWriteTx(s.db, s.dialect, async (tx) => {
    const now = storeToday(s.store);
    const leave = await requireLeave(tx, s.store.id, input.id);
    if (leave.status !== 'pending') throw conflict(CardLifeMsg.notPending);
    const card = await requireLeaveCard(tx, s.store.id, leave.memberCardId);
    if (!(await changeLeave(tx, leave.id, 'pending', { status: 'approved', decidedAt: now, decidedBy: staffId }))) {
      throw conflict(CardLifeMsg.notPending);
    }
    await startLeave(tx, s.store, {
      events: s.events,
      card,
      fromDate: leave.fromDate,
      toDate: leave.toDate,
      now,
      actor: { staffId },
      confirmed: Boolean(input.cancelBookings),
      excludeId: leave.id,
    });
    await announceDecision(s.events, tx, leave, card.cardName, null);
  });
  return null;
}

/** Tells whoever listens (the member's reminder) that the desk decided a leave: null approved, else why refused. */
function announceDecision(
  events: Events,
  tx: Tx,
  leave: { storeId: number; id: number; memberId: number; fromDate: string; toDate: string },
  cardName: string,
  refusedFor: string | null,
) {
  const { storeId, id: leaveId, memberId, fromDate, toDate } = leave;
  return events.emit(tx, event(leaveDecided, { storeId, memberId, leaveId, cardName, fromDate, toDate, refusedFor }));
}

/** The desk refuses a member's waiting request, saying why (the member sees it). Guarded: decided once. */
export async function refuseLeave(s: LeaveScope, staffId: number, input: { id: number; remark: string }) {
  await inWriteTx(s.db, s.dialect, async (tx) => {
    const now = storeToday(s.store);
    const leave = await requireLeave(tx, s.store.id, input.id);
    const done = await changeLeave(tx, leave.id, 'pending', {
      status: 'refused',
      decidedAt: now,
      decidedBy: staffId,
      decideRemark: input.remark,
    });
    if (!done) throw conflict(CardLifeMsg.notPending);
    const card = await requireLeaveCard(tx, s.store.id, leave.memberCardId);
    await announceDecision(s.events, tx, leave, card.cardName, input.remark);
    audit(tx, {
      kind: 'card',
      summary: `拒绝请假申请 ${leave.fromDate} 至 ${leave.toDate}：${input.remark}`,
      targets: [
        { type: 'card', id: leave.memberCardId },
        { type: 'member', id: leave.memberId },
      ],
    });
  });
  return null;
}

/**
 * Ends an approved leave early: `date` is its last day of leave (the next day the card books
 * again); before its first day the leave is withdrawn. The unused days leave the card's days of
 * leave and its expiry comes back by as many, with a ledger note. Guarded: ended once.
 */
export async function endLeave(s: LeaveScope, staffId: number, input: { id: number; date: string }) {
  await inWriteTx(s.db, s.dialect, async (tx) => {
    const now = storeToday(s.store);
    const leave = await requireLeave(tx, s.store.id, input.id);
    if (leave.status !== 'approved') throw conflict(CardLifeMsg.notActive);
    const ending = endingOf(leave, input.date, now.slice(0, 10));
    if (!ending) throw conflict(CardLifeMsg.endRange);
    await lockCards(tx, [leave.memberCardId]);
    const card = await requireLeaveCard(tx, s.store.id, leave.memberCardId);
    const done = await changeLeave(tx, leave.id, 'approved', {
      status: ending.status,
      days: ending.days,
      endedDate: ending.status === 'ended' ? input.date : null,
      endedAt: now,
      endedBy: staffId,
    });
    if (!done) throw conflict(CardLifeMsg.notActive);
    const back = leave.days - ending.days;
    const total = card.leaveDays - back;
    const expireTime = expiryWith(card, total);
    const span: [string, string] = [leave.fromDate, leave.toDate];
    await setCardLeave(tx, s.store.id, card.id, {
      leaveDays: total,
      leavePeriods: periodsWith(
        card.leavePeriods,
        ending.status === 'ended' ? { remove: span, replace: [leave.fromDate, input.date] } : { remove: span },
      ),
      expireTime,
    });
    const what =
      ending.status === 'ended'
        ? `提前结束请假（${leave.fromDate} 至 ${input.date}，共${ending.days}天）`
        : `撤销请假 ${leave.fromDate} 至 ${leave.toDate}`;
    const remark = `${what}，退回${back}天，有效期至 ${expireTime?.slice(0, 10) ?? '-'}`;
    await noteLeaveChange(tx, {
      storeId: s.store.id,
      card,
      kind: 'leave_end',
      operatorId: staffId,
      remark,
      now,
      was: { expireTime: card.expireTime, leaveDays: card.leaveDays },
      is: { expireTime, leaveDays: total },
    });
  });
  return null;
}

/** A page of the store's leaves: a card's (404 for a card not of the store), or those in one status. */
export async function listLeaves(s: LeaveScope, input: { memberCardId?: number; status?: LeaveStatus; page: number }) {
  if (input.memberCardId !== undefined) await requireLeaveCard(s.db, s.store.id, input.memberCardId);
  const { list, total } = await leavePage(s.db, s.store.id, { ...input, size: LEAVE_PAGE_SIZE });
  return {
    total,
    list: list.map((l) => ({
      ...l,
      status: (LEAVE_STATUSES.includes(l.status as LeaveStatus) ? l.status : 'cancelled') as LeaveStatus,
      requestedBy: l.requestedBy === 'member' ? ('member' as const) : ('staff' as const),
    })),
  };
}

/** A member's card's leave rules, what is used of them, and its leaves (the phone's 请假 screen). */
export async function memberLeaves(s: LeaveScope, memberId: number, memberCardId: number) {
  const card = await requireLeaveCard(s.db, s.store.id, memberCardId);
  if (card.memberId !== memberId) throw notFound('会员卡');
  const leaves = await leavesOfCard(s.db, s.store.id, memberCardId);
  const counted = leaves.filter((l) => ['pending', 'approved', 'ended'].includes(l.status) && l.days > 0);
  return {
    rules: {
      allowed: card.leaveAllowed === 1,
      times: card.leaveTimes,
      daysMax: card.leaveDaysMax,
      daysTotal: card.leaveDaysTotal,
      usedTimes: counted.length,
      usedDays: counted.reduce((n, l) => n + l.days, 0),
    },
    list: leaves
      .reverse()
      .map(({ id, fromDate, toDate, days, reason, status, endedDate, createdAt, decideRemark }) => ({
        id,
        fromDate,
        toDate,
        days,
        reason,
        status: status as LeaveStatus,
        endedDate,
        createdAt,
        decideRemark,
      })),
  };
}
