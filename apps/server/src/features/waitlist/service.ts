import { inSavepoint } from '../../db/dialect.ts';
import { DEDUCT_AT_SIGN_IN, Msg, OperateType, WaitMsg, WaitStatus, type BookingPolicy } from '@studio/contract';
import type { Db, Dialect, Executor, Tx } from '../../db/index.ts';
import { lockSessions } from '../../db/locks.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, skipAudit, systemScope, writeSystemEntry, type AuditTarget } from '../../lib/audit.ts';
import type { StoreScope } from '../../lib/context.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { event, type Announced } from '../../lib/events.ts';
import { waitlistPromoted } from './events.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { suspensionOf } from '../no-show/public.ts';
import { bookingRules, loadPolicy, storesBookingRules, waitlistOpen } from '../policy/public.ts';
import { requireMember } from '../reference/public.ts';
import { addPending, bookWithCard, liveSession, loadBookingContext, type MemberRules } from '../timetable/public.ts';
import * as repo from './repository.ts';

/** Who acts: the desk (a staff id) or the member themself. */
export type WaitActor = { staffId: number } | { memberId: number };
/** What the waitlist needs of a call: its database and store. */
export interface WaitScope {
  db: Db;
  dialect: Dialect;
  store: StoreScope;
}
interface Candidate {
  memberId: number;
  memberCardId: number;
  studentCount: number;
}

const REMARK = '候补递补';
const DRY_RUN = Symbol('dry run');

/**
 * What the store's policy holds a member's own wait to (the booking window, their suspension, a
 * period card's open bookings), as it holds their booking: their joining the queue, and the
 * promotion of a wait they made themselves (never a booking they could not have made).
 */
async function memberRules(tx: Executor, storeId: number, memberId: number, policy: BookingPolicy, now: string) {
  const { until } = await suspensionOf(tx, storeId, memberId, now);
  return { policy, suspendedUntil: until };
}

/** The session and the card of a booking the waitlist makes. */
function readBooking(tx: Tx, store: StoreScope, sessionId: number, memberCardId: number) {
  return loadBookingContext(tx, { storeId: store.id, sessionId, memberCardId, now: localDateTime(store.timezone) });
}

/**
 * Tries the booking a wait stands for through the engine's own rules (card, balance, limits,
 * duplicates; a member's own wait also the members' policy) and undoes it: `free` when it would
 * succeed now, `full` when only the seats are missing, else the refusal. One rule set for bookings
 * and waits.
 */
async function tryBooking(
  tx: Tx,
  store: StoreScope,
  sessionId: number,
  c: Candidate,
  member?: MemberRules,
): Promise<{ kind: 'free' } | { kind: 'full' } | { kind: 'refused'; error: AppError }> {
  try {
    await inSavepoint(tx, async () => {
      await bookWithCard(
        tx,
        store,
        {
          sessionId,
          memberCardId: c.memberCardId,
          memberId: c.memberId,
          studentCount: c.studentCount,
          remark: null,
          operatorId: null,
          operateType: OperateType.ADMIN_BOOKED,
          member,
        },
        await readBooking(tx, store, sessionId, c.memberCardId),
      );
      throw DRY_RUN;
    });
  } catch (e) {
    if (e === DRY_RUN) return { kind: 'free' };
    if (e instanceof AppError && e.status < 500) {
      return e.message === Msg.sessionFull ? { kind: 'full' } : { kind: 'refused', error: e };
    }
    throw e;
  }
  return { kind: 'free' };
}

/**
 * Puts a member in the queue of a full session with a card: the waitlist must be on and before its
 * cutoff, the session full for them, and the booking otherwise allowed by the same rules as a
 * booking (a member queueing themself: the members' policy too, so not before the booking window
 * opens nor after it closes). The session row is locked first, so a join and a cancel freeing a
 * seat never cross.
 */
export async function joinWaitlist(
  s: WaitScope,
  input: { mid: number; memberCardId: number; sessionId: number; studentCount: number },
  by: WaitActor,
): Promise<{ id: number; position: number }> {
  return inWriteTx(s.db, s.dialect, async (tx) => {
    const session = await liveSession(tx, s.store.id, input.sessionId, { lock: true });
    const { policy, deductionMode } = await bookingRules(tx, s.store.id);
    const now = localDateTime(s.store.timezone);
    // The ids and the booking rules first (404 for what is not this store's), then the queue's own.
    const tried = await tryBooking(
      tx,
      s.store,
      session.id,
      { memberId: input.mid, memberCardId: input.memberCardId, studentCount: input.studentCount },
      'memberId' in by ? await memberRules(tx, s.store.id, by.memberId, policy, now) : undefined,
    );
    if (tried.kind === 'refused') throw tried.error;
    if (tried.kind === 'free') throw conflict(WaitMsg.notFull);
    if (!policy.waitlist) throw conflict(WaitMsg.off);
    if (now >= session.startTime) throw conflict(WaitMsg.started);
    if (!waitlistOpen(policy, { startTime: session.startTime, now })) throw conflict(WaitMsg.closed);
    if (deductionMode === DEDUCT_AT_SIGN_IN && input.studentCount !== 1) {
      throw badRequest(Msg.oneStudentInSignInMode);
    }
    if (await repo.waitingRowOf(tx, session.id, input.mid)) throw conflict(WaitMsg.already);
    const id = await repo.insertWait(tx, {
      storeId: s.store.id,
      timetableId: session.id,
      memberId: input.mid,
      memberCardId: input.memberCardId,
      studentCount: input.studentCount,
      status: WaitStatus.WAITING,
      operatorId: 'staffId' in by ? by.staffId : null,
      createTime: now,
    });
    await repo.addWaitCount(tx, session.id, 1);
    audit(tx, { kind: 'booking', targets: waitTargets({ id, sessionId: session.id, memberId: input.mid }) });
    return { id, position: await repo.positionOf(tx, session.id, id) };
  });
}

/** What a wait's audit entry is about: its member, its session and itself. */
const waitTargets = (w: { id: number; sessionId: number; memberId: number }): AuditTarget[] => [
  { type: 'member', id: w.memberId },
  { type: 'session', id: w.sessionId },
  { type: 'wait', id: w.id },
];

/** Takes a member out of a queue (the desk, or the member for their own wait). */
export async function leaveWaitlist(s: WaitScope, id: number, by: WaitActor): Promise<null> {
  await inWriteTx(s.db, s.dialect, async (tx) => {
    const w = await repo.findWait(tx, s.store.id, id);
    if (!w || ('memberId' in by && w.memberId !== by.memberId)) throw notFound('候补');
    await lockSessions(tx, [w.timetableId]);
    const ended = await repo.endWaits(tx, { ids: [id] }, WaitStatus.LEFT, localDateTime(s.store.timezone));
    if (!ended.length) throw conflict(WaitMsg.notWaiting);
    await repo.addWaitCount(tx, w.timetableId, -1);
    audit(tx, { kind: 'booking', targets: waitTargets({ ...w, sessionId: w.timetableId }) });
  });
  return null;
}

/** A session's queue in order, and whether promotion still happens for it. */
export async function listWaitlist(s: WaitScope, sessionId: number) {
  const session = await liveSession(s.db, s.store.id, sessionId);
  const [rows, policy] = await Promise.all([repo.waitingOf(s.db, s.store.id, sessionId), loadPolicy(s.db, s.store.id)]);
  const now = localDateTime(s.store.timezone);
  return {
    open: waitlistOpen(policy, { startTime: session.startTime, now }),
    list: rows.map((r, i) => ({
      id: r.id,
      position: i + 1,
      member: { id: r.memberId, name: r.memberName, mobile: r.mobile },
      card: { id: r.memberCardId, cardName: r.cardName, bigType: r.bigType },
      studentCount: r.studentCount,
      skipReason: r.skipReason,
      operator: r.operator,
      createTime: r.createTime,
    })),
  };
}

/** A member's waits (the member must be of the store: 404 会员不存在 otherwise). */
export async function memberWaits(s: WaitScope, memberId: number) {
  await requireMember(s.db, s.store.id, memberId);
  return repo.waitsOfMember(s.db, s.store.id, memberId);
}

/**
 * One waiting member into the session, in a savepoint: booked with their card (mode 0) or held as a
 * pending after the card rules pass (mode 1), the wait marked promoted; a wait the member made
 * themself is held to the members' policy as their booking would be (`member`). Refused by a rule:
 * undone, the reason kept on the wait, which stays in the queue.
 */
async function promoteOne(
  tx: Tx,
  store: StoreScope,
  mode: 0 | 1,
  sessionId: number,
  w: Candidate & { id: number; operatorId: number | null },
  now: string,
  policy: BookingPolicy,
): Promise<boolean> {
  try {
    const member = w.operatorId === null ? await memberRules(tx, store.id, w.memberId, policy, now) : undefined;
    return await inSavepoint(tx, async () => {
      // Marked first: the booking's insert ends any wait of its member still waiting (a trigger).
      const taken = await repo.endWaits(tx, { ids: [w.id] }, WaitStatus.PROMOTED, now);
      if (!taken.length) throw conflict(WaitMsg.notWaiting);
      await repo.addWaitCount(tx, sessionId, -1);
      let reservationId: number | null = null;
      let pendingId: number | null = null;
      if (mode === DEDUCT_AT_SIGN_IN) {
        const tried = await tryBooking(tx, store, sessionId, w, member);
        if (tried.kind === 'refused') throw tried.error;
        ({ pendingId } = await addPending(tx, store, {
          sessionId,
          memberId: w.memberId,
          studentCount: w.studentCount,
          remark: REMARK,
          operatorId: null,
          memberCardId: w.memberCardId,
          operateType: OperateType.PROMOTED,
          member,
        }));
      } else {
        ({ reservationId } = await bookWithCard(
          tx,
          store,
          {
            sessionId,
            memberCardId: w.memberCardId,
            memberId: w.memberId,
            studentCount: w.studentCount,
            remark: REMARK,
            operatorId: null,
            operateType: OperateType.PROMOTED,
            member,
          },
          await readBooking(tx, store, sessionId, w.memberCardId),
        ));
      }
      await repo.setResult(tx, w.id, { reservationId, pendingId });
      return true;
    });
  } catch (e) {
    if (!(e instanceof AppError) || e.status >= 500) throw e;
    await repo.setSkipReason(tx, w.id, e.message);
    return false;
  }
}

/**
 * Fills a session's free seats from its queue, in the transaction of the change that freed them
 * (whose lock on the session row it relies on): first come first served among those whose card
 * passes at this moment; a member needing more seats than are free keeps their place and stops the
 * round. Nothing happens with the waitlist off or at or after the cutoff.
 */
export async function promoteWaitlist(tx: Tx, storeId: number, sessionId: number): Promise<Announced[]> {
  const promoted: Announced[] = [];
  const s = await repo.queueSession(tx, storeId, sessionId);
  if (!s || s.deleted || !s.waitCount || s.realCount >= s.reservableCount) return promoted;
  const [{ policy, deductionMode: mode }, store] = await Promise.all([
    bookingRules(tx, storeId),
    storeScopeById(tx, storeId),
  ]);
  if (!store) return promoted;
  const now = localDateTime(store.timezone);
  if (!waitlistOpen(policy, { startTime: s.startTime, now })) return promoted;
  let free = s.reservableCount - s.realCount;
  for (const w of await repo.waitingOf(tx, storeId, s.id)) {
    if (w.studentCount > free) break;
    if (await promoteOne(tx, store, mode, s.id, w, now, policy)) {
      free -= w.studentCount;
      // The system's change, in the transaction that freed the seat: its own entry (operator 系统).
      await writeSystemEntry(tx, storeId, {
        name: '系统',
        call: 'engine/waitlist-promotion',
        kind: 'booking',
        summary: '候补递补：有空位，排在最前的会员获得名额',
        targets: waitTargets({ id: w.id, sessionId: s.id, memberId: w.memberId }),
      });
      const fact = {
        storeId,
        sessionId: s.id,
        memberId: w.memberId,
        memberName: w.memberName,
        waitId: w.id,
        studentCount: w.studentCount,
      };
      promoted.push(event(waitlistPromoted, fact));
    }
  }
  return promoted;
}

/** Ends waits that can no longer be served and moves the session's count. */
async function endAndCount(tx: Executor, where: Parameters<typeof repo.endWaits>[1], storeId: number) {
  const store = await storeScopeById(tx, storeId);
  const ended = await repo.endWaits(tx, where, WaitStatus.ENDED, localDateTime(store?.timezone ?? 'Asia/Shanghai'));
  const per = new Map<number, number>();
  for (const e of ended) per.set(e.timetableId, (per.get(e.timetableId) ?? 0) + 1);
  for (const [sessionId, n] of per) await repo.addWaitCount(tx, sessionId, -n);
}

/**
 * Ends the waits no promotion can serve any more: those of sessions at or past their store's
 * promotion cutoff (`waitlistCutoffMinutes` before the start; the start itself when the waitlist is
 * off). They end without charge (a wait cost nothing), each session in its own transaction under
 * its row lock, guarded on the wait still waiting, so a promotion racing it, another instance
 * running the same job, or a crash halfway ends each wait once. Runs every minute on every instance;
 * tests inject the clock. Answers how many waits it ended.
 */
export async function endClosedWaits(db: Db, dialect: Dialect, clock: (tz: string) => string = localDateTime) {
  let n = 0;
  for (const { policy, ...st } of await storesBookingRules(db)) {
    const now = clock(st.timezone);
    const by = addMinutes(now, policy.waitlist ? policy.waitlistCutoffMinutes : 0);
    const due = await repo.sessionsWithWaitsBy(db, st.id, by);
    for (const t of due) {
      // An entry by 系统 per session whose waits end (none when another run ended them first).
      const scope = systemScope('候补截止', 'job/end-waits', 'booking', st.id);
      n += await inWriteTx(
        db,
        dialect,
        async (tx) => {
          await lockSessions(tx, [t.id]);
          const ended = await repo.endWaits(tx, { sessionId: t.id }, WaitStatus.ENDED, now);
          if (ended.length) {
            await repo.addWaitCount(tx, t.id, -ended.length);
            audit(tx, {
              kind: 'booking',
              summary: `候补截止，结束${ended.length}人的候补`,
              targets: [{ type: 'session', id: t.id }],
            });
          } else {
            skipAudit(tx);
          }
          return ended.length;
        },
        scope,
      );
    }
  }
  return n;
}

/**
 * Seats may have freed up (a booking cancelled, a session changed: more seats, a later start): they
 * go to whoever waits. Answers the promotions made, announced after the change's other listeners.
 */
export function promoteFreedSeats(tx: Executor, e: { storeId: number; sessionId: number }): Promise<Announced[]> {
  return promoteWaitlist(tx as Tx, e.storeId, e.sessionId);
}

/** A session deleted: its waits end. */
export async function endWaitsOfDeleted(tx: Executor, e: { storeId: number; sessionId: number }): Promise<void> {
  await endAndCount(tx, { sessionId: e.sessionId }, e.storeId);
}
