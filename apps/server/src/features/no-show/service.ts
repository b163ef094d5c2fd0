import { DEDUCT_AT_SIGN_IN, NoShowMsg, OperateType, PendingStatus, type BookingPolicy } from '@studio/contract';
import type { Db, Dialect, Executor, Tx } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, skipAudit, systemScope } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { changeMember } from '../reference/public.ts';
import { chargePending, creditCard, findPending, findReservation, writeTrail } from '../timetable/public.ts';
import { storesBookingRules, suspendedUntil } from '../policy/public.ts';
import * as repo from './repository.ts';
import type { SuspensionFacts } from './repository.ts';

/** The clock of the job and the status call (tests inject one): store-local `YYYY-MM-DD HH:mm:ss`. */
export type Clock = (timezone: string) => string;

/** Whether the policy asks anything of no-shows: a charge, or a suspension after repeated ones. */
const watchesNoShows = (p: BookingPolicy) => p.noShow === 'forfeit' || (p.noShowLimit > 0 && p.noShowSuspendDays > 0);

interface Due {
  id: number;
  memberId: number;
  /** The card the pending was made with (charged), or null (the member's first usable card is). */
  memberCardId: number | null;
  studentCount: number;
  sessionId: number;
  startTime: string;
}

/**
 * One no-show, in its own transaction: the pending becomes a no-show by a guarded UPDATE (so of two
 * instances, or a sign-in racing the job, exactly one wins), then, when the policy charges, the
 * card the pending names pays per person like its sign-in would (a pending made without a card: the
 * member's first usable card, said in history), nothing when it cannot (history says why), on the
 * ledger (`no_show`) and in history (爽约). A crash before the commit leaves the pending waiting for
 * the next run; after it, processed: nothing is charged twice or missed.
 */
async function processOne(db: Db, dialect: Dialect, storeId: number, policy: BookingPolicy, p: Due, now: string) {
  // An entry by 系统 for each no-show it marks (none when a sign-in or another run got there first).
  const scope = systemScope('爽约处理', 'job/no-show', 'booking', storeId);
  return inWriteTx(
    db,
    dialect,
    async (tx: Tx) => {
      if (!(await repo.markNoShow(tx, p.id))) {
        skipAudit(tx);
        return false;
      }
      audit(tx, {
        kind: 'booking',
        summary: policy.noShow === 'forfeit' ? '未签到，记为爽约并扣费' : '未签到，记为爽约',
        targets: [
          { type: 'member', id: p.memberId },
          { type: 'session', id: p.sessionId },
        ],
      });
      let fee = 0;
      let cardId: number | null = null;
      let remark = '爽约（未扣费）';
      if (policy.noShow === 'forfeit') {
        const charge = await chargePending(tx, storeId, p, { startTime: p.startTime });
        if (charge.card) {
          [fee, cardId] = [charge.fee, charge.card.id];
          if (fee > 0) remark = charge.fallback ? NoShowMsg.chargedFirstCard(charge.card.cardName) : '爽约扣费';
        } else if (p.memberCardId !== null) remark = `爽约（未扣费：${charge.reason}）`;
      }
      if (cardId !== null) await repo.setNoShowCharge(tx, p.id, fee, cardId);
      await writeTrail(tx, storeId, [
        {
          timetableId: p.sessionId,
          memberId: p.memberId,
          memberCardId: cardId,
          reservationId: null,
          pendingId: p.id,
          studentCount: p.studentCount,
          usedCount: fee,
          operateType: OperateType.NO_SHOW,
          operatorId: null,
          remark,
          now,
        },
      ]);
      return true;
    },
    scope,
  );
}

/**
 * The no-show job: in every store in sign-in mode whose policy charges no-shows or suspends after
 * them, each pending still waiting when its class has ended is processed once. Safe to run on every
 * instance at once and after a crash (see processOne). Answers how many it processed.
 */
export async function runNoShows(db: Db, dialect: Dialect, clock: Clock = localDateTime): Promise<number> {
  let n = 0;
  for (const { policy, deductionMode, ...s } of await storesBookingRules(db)) {
    if (!watchesNoShows(policy) || deductionMode !== DEDUCT_AT_SIGN_IN) continue;
    const now = clock(s.timezone);
    const due = await repo.dueNoShows(db, s.id, now);
    for (const p of due) if (await processOne(db, dialect, s.id, policy, p, now)) n++;
  }
  return n;
}

/**
 * A waiver's money and trail, in the caller's transaction (the caller guarded that it happens once):
 * the charge back to its card, the ledger's `waive` entry (with the booking for a late cancel) and
 * history 免除扣费 with the reason.
 */
async function refundWaived(
  tx: Tx,
  storeId: number,
  w: {
    cardId: number;
    fee: number;
    sessionId: number;
    memberId: number;
    studentCount: number;
    reservationId: number | null;
    pendingId: number | null;
    operatorId: number;
    reason: string;
    now: string;
  },
) {
  audit(tx, {
    kind: 'booking',
    summary: `免除扣费：${w.reason}`,
    targets: [
      { type: 'session', id: w.sessionId },
      { type: 'member', id: w.memberId },
      { type: 'card', id: w.cardId },
      ...(w.reservationId === null ? [] : [{ type: 'booking' as const, id: w.reservationId }]),
    ],
  });
  await creditCard(tx, w.cardId, w.fee);
  await writeTrail(tx, storeId, [
    {
      timetableId: w.sessionId,
      memberId: w.memberId,
      memberCardId: w.cardId,
      reservationId: w.reservationId,
      pendingId: w.pendingId,
      studentCount: w.studentCount,
      usedCount: w.fee,
      operateType: OperateType.WAIVED,
      operatorId: w.operatorId,
      remark: w.reason,
      now: w.now,
    },
  ]);
}

/** Staff waive a no-show's charge with a reason: refunded to its card, once, on the ledger and in history. */
export async function waiveNoShowCharge(ctx: CallCtx, pendingId: number, reason: string): Promise<null> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const p = await findPending(tx, ctx.store.id, pendingId);
    if (!p) throw notFound('预约');
    if (p.status !== PendingStatus.NO_SHOW) throw conflict(NoShowMsg.notNoShow);
    const fee = Number(p.noShowFee ?? 0);
    if (!fee || p.noShowCardId === null) throw conflict(NoShowMsg.nothingToWaive);
    const now = localDateTime(ctx.store.timezone);
    if (!(await repo.markPendingWaived(tx, p.id, now, reason))) throw conflict(NoShowMsg.alreadyWaived);
    await refundWaived(tx, ctx.store.id, {
      cardId: p.noShowCardId,
      fee,
      sessionId: p.timetableId,
      memberId: p.memberId,
      studentCount: p.studentCount,
      reservationId: null,
      pendingId: p.id,
      operatorId: ctx.staff.id,
      reason,
      now,
    });
  });
  return null;
}

/**
 * Staff waive the deduction a member's late cancel kept (迟到取消) with a reason: refunded to its
 * card once (guarded on `waived_time`), on the ledger and in history.
 */
export async function waiveLateCancelCharge(ctx: CallCtx, reservationId: number, reason: string): Promise<null> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const r = await findReservation(tx, ctx.store.id, reservationId);
    if (!r) throw notFound('预约');
    if (!r.forfeited) throw conflict(NoShowMsg.notLateCancel);
    const fee = Number(r.usedCount);
    if (!fee) throw conflict(NoShowMsg.lateNothingToWaive);
    const now = localDateTime(ctx.store.timezone);
    if (!(await repo.markReservationWaived(tx, r.id, now, reason))) throw conflict(NoShowMsg.lateAlreadyWaived);
    await refundWaived(tx, ctx.store.id, {
      cardId: r.memberCardId,
      fee,
      sessionId: r.timetableId,
      memberId: r.memberId,
      studentCount: r.studentCount,
      reservationId: r.id,
      pendingId: r.pendingId,
      operatorId: ctx.staff.id,
      reason,
      now,
    });
  });
  return null;
}

/** A member's late cancels that kept the deduction, of the last 90 days (newest first), with their waiver. */
async function lateCancelsOf(db: Executor, storeId: number, memberId: number, now: string) {
  const rows = await repo.lateCancelRows(db, storeId, memberId, repo.since90Days(now));
  return rows.map((r) => ({
    reservationId: r.id,
    session: { id: r.sessionId, courseName: r.courseName, startTime: r.startTime },
    cancelTime: r.cancelTime,
    fee: Number(r.usedCount),
    cardName: r.cardName,
    bigType: r.bigType,
    waivedTime: r.waivedTime,
    waiveReason: r.waiveReason,
  }));
}

/**
 * Until when a member may not book online (store-local), or null, from their no-shows
 * (`suspensionFacts`): `noShowLimit` no-shows (not waived, after staff last lifted a suspension)
 * within 30 days suspend for `noShowSuspendDays`.
 */
export function suspensionFrom(facts: SuspensionFacts, now: string) {
  const { lifted, policy, list } = facts;
  const counted = list
    .filter((x) => !x.waivedTime && (!lifted || x.session.startTime > lifted))
    .map((x) => x.session.startTime);
  return { until: suspendedUntil(policy, counted, now), lifted, list };
}

/** `suspensionFrom` of the member's no-shows read now; 404 会员不存在 for a member not of the store. */
export async function suspensionOf(db: Executor, storeId: number, memberId: number, now: string) {
  return suspensionFrom(await repo.suspensionFacts(db, storeId, memberId, now), now);
}

/** The member drawer's view: suspension, no-shows and late cancels. */
export async function memberStatus(ctx: CallCtx, memberId: number, clock: Clock = localDateTime) {
  const now = clock(ctx.store.timezone);
  // suspensionOf's member read is the 404 check.
  const s = await suspensionOf(ctx.db, ctx.store.id, memberId, now);
  const lateCancels = await lateCancelsOf(ctx.db, ctx.store.id, memberId, now);
  return { suspendedUntil: s.until, liftedAt: s.lifted, noShows: s.list, lateCancels };
}

/** Staff lift a member's suspension: the no-shows so far stop counting. */
export async function liftSuspension(ctx: CallCtx, memberId: number, clock: Clock = localDateTime): Promise<null> {
  // In a write transaction: the lift is a change of the member's, in the audit log like any other.
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const now = clock(ctx.store.timezone);
    const s = await suspensionOf(tx, ctx.store.id, memberId, now);
    if (!s.until) throw conflict(NoShowMsg.notSuspended);
    await changeMember(tx, ctx.store.id, memberId, { suspensionLiftedAt: now });
    audit(tx, { kind: 'member', targets: [{ type: 'member', id: memberId }] });
  });
  return null;
}
