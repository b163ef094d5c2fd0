import type { LeadStage } from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import { findStoreScope } from '../../lib/store-repository.ts';
import { localDateTime } from '../../lib/time.ts';
import type { PayloadOf } from '../../lib/events.ts';
import { findMember } from '../reference/public.ts';
import { liveSession, type BookingFact, type memberAttended } from '../timetable/public.ts';
import { leadIdOfMobile } from './repository.ts';
import * as repo from './trial-repository.ts';

/**
 * Paid trials (体验卡, issue 44 item 3): a member holding a store lead's mobile who bought a 体验卡
 * (online, or at the desk) is not converted by it (`conversion.ts`); their booking with it is the
 * lead's trial: a `lead_trial` row naming the member (`member_id`), taking no seat (the booking holds
 * it). The booking's attendance marks it 到店, its cancel cancels it, an unmarked one past the class's
 * end is 体验课未到 as any trial. All in the booking's transaction (the write stage).
 */

const lead = (id: number) => ({ type: 'lead' as const, id });

/** The store's local time now. */
async function storeTime(ex: Executor, storeId: number): Promise<string | null> {
  const store = await findStoreScope(ex, storeId);
  return store ? localDateTime(store.timezone) : null;
}

/** The store's lead of the member's mobile, if any. */
async function leadOfMember(ex: Executor, storeId: number, memberId: number) {
  const member = await findMember(ex, storeId, memberId);
  if (!member) return undefined;
  const id = await leadIdOfMobile(ex, storeId, member.mobile);
  return id === undefined ? undefined : { id, member };
}

/**
 * A booking made with a 体验卡 by a lead's member: the lead 已约体验 (the funnel's steps), its trial
 * recorded on the booking. Nothing for a lead 已成交 or 已流失, or already holding a booked trial
 * (one at a time: a second at once on another instance writes nothing, `lead_trial_live_uq`).
 */
export async function onBookingMade(tx: Executor, e: BookingFact): Promise<void> {
  // Said by the booking itself: any other booking reads nothing more here.
  if (!e.trialCard) return;
  const found = await leadOfMember(tx, e.storeId, e.memberId);
  if (!found) return;
  // Lock order: the session (the booking holds it), then the lead.
  const stage = (await repo.lockedLeadStage(tx as Tx, e.storeId, found.id))?.stage as LeadStage | undefined;
  if (!stage || stage === 'won' || stage === 'lost') return;
  if (await repo.hasLiveTrial(tx, found.id)) return;
  const now = await storeTime(tx, e.storeId);
  if (now === null) return;
  const id = await repo.insertPaidTrial(tx as Tx, {
    storeId: e.storeId,
    leadId: found.id,
    timetableId: e.sessionId,
    memberId: e.memberId,
    stageBefore: stage,
    now,
  });
  if (id === undefined) return;
  await repo.markTrialBooked(tx as Tx, e.storeId, found.id, stage, now);
  audit(tx, { kind: 'lead', summary: '体验卡约课：潜客已约体验', targets: [lead(found.id)] });
}

/** The member's booking cancelled (or its pending): the trial riding on it is cancelled, the lead's stage put back. */
export async function onBookingCancelled(tx: Executor, e: BookingFact): Promise<void> {
  if (!e.trialCard) return;
  const t = await repo.paidTrialOf(tx, e.sessionId, e.memberId);
  if (!t) return;
  const now = await storeTime(tx, e.storeId);
  if (now === null) return;
  if (!(await repo.moveBookedTrial(tx as Tx, t.id, { move: 'cancel', now }))) return;
  await repo.restoreStage(tx as Tx, t.leadId, t.stageBefore);
  audit(tx, { kind: 'lead', summary: '体验卡预约取消：潜客体验课取消', targets: [lead(t.leadId)] });
}

/** The member came (到店, a scan, a sign-in): the trial riding on their booking is 到店, the lead 已体验 with the class's teacher. */
export async function onMemberAttended(tx: Executor, e: PayloadOf<typeof memberAttended>): Promise<void> {
  const t = await repo.paidTrialOf(tx, e.sessionId, e.memberId);
  if (!t) return;
  const s = await liveSession(tx as Tx, e.storeId, e.sessionId);
  if (!(await repo.moveBookedTrial(tx as Tx, t.id, { move: 'attend', now: e.now, teacherId: s.teacherId }))) return;
  await repo.markTrialDone(tx as Tx, t.leadId, s.teacherId, e.now);
  audit(tx, { kind: 'lead', summary: '体验卡上课到店：潜客已体验', targets: [lead(t.leadId)] });
}
