import type { ReferralReward } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import type { NewRow } from '../../db/schema.ts';
import { leftJoinCardProduct } from '../../db/joins.ts';

/** 转介绍奖励's rows (referral_reward) and the referred lead a member's mobile holds. */

/** The 转介绍 lead of the member's mobile, with its referrer and when each was made; undefined when none. */
export function referredLeadOf(ex: Executor, storeId: number, memberId: number) {
  return ex
    .selectFrom('member as m')
    .innerJoin('lead as l', (j) => j.onRef('l.storeId', '=', 'm.storeId').onRef('l.mobile', '=', 'm.mobile'))
    .innerJoin('member as r', 'r.id', 'l.referrerMemberId')
    .select([
      'l.id as leadId',
      'l.mobile',
      'l.createdAt as leadCreatedAt',
      'l.referrerMemberId as referrerMemberId',
      'r.mobile as referrerMobile',
      'm.name as friendName',
      'm.createdAt as memberCreatedAt',
    ])
    .where('m.storeId', '=', storeId)
    .where('m.id', '=', memberId)
    .where('r.storeId', '=', storeId)
    .$narrowType<{ referrerMemberId: number }>()
    .executeTakeFirst();
}

/** A new reward; null when the lead has one already (`referral_reward_lead_uq`, on any instance). */
export async function insertReward(ex: Executor, row: NewRow<'referralReward'>): Promise<number | null> {
  const made = await ex
    .insertInto('referralReward')
    .values(row)
    .onConflict((oc) => oc.column('leadId').doNothing())
    .returning('id')
    .executeTakeFirst();
  return made ? Number(made.id) : null;
}

/**
 * A reward's one guarded status move: pending -> granted (with its card), granted -> undone (by whom);
 * false when it was not in `from` any more (a concurrent grant or undo moved it first).
 */
export async function moveReward(
  ex: Executor,
  storeId: number,
  id: number,
  move:
    | { from: 'pending'; to: 'granted'; memberCardId: number; now: string }
    | { from: 'granted'; to: 'undone'; now: string; by: number },
): Promise<boolean> {
  const set =
    move.to === 'granted'
      ? { status: move.to, memberCardId: move.memberCardId, grantedAt: move.now }
      : { status: move.to, undoneAt: move.now, undoneBy: move.by };
  const res = await ex
    .updateTable('referralReward')
    .set(set)
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('status', '=', move.from)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

export async function setRewardLedger(ex: Executor, id: number, ledgerId: number) {
  await ex.updateTable('referralReward').set({ ledgerId }).where('id', '=', id).execute();
}

export async function setUndoLedger(ex: Executor, id: number, undoLedgerId: number) {
  await ex.updateTable('referralReward').set({ undoLedgerId }).where('id', '=', id).execute();
}

function rewardRows(ex: Executor, storeId: number) {
  return ex
    .selectFrom('referralReward as rr')
    .innerJoin('member as r', 'r.id', 'rr.referrerMemberId')
    .innerJoin('member as f', 'f.id', 'rr.friendMemberId')
    .leftJoin('memberCard as mc', 'mc.id', 'rr.memberCardId')
    .$call(leftJoinCardProduct())
    .where('rr.storeId', '=', storeId);
}

const REWARD_COLS = [
  'rr.id',
  'rr.leadId',
  'rr.referrerMemberId',
  'r.name as referrerName',
  'rr.friendMemberId',
  'f.name as friendName',
  'f.mobile as friendMobile',
  'rr.triggerOn',
  'rr.kind',
  'rr.amount',
  'rr.status',
  'rr.memberCardId',
  'p.cardName',
  'rr.createdAt',
  'rr.grantedAt',
  'rr.undoneAt',
] as const;

/** One reward of the store with its names; undefined when none. */
export async function findReward(ex: Executor, storeId: number, id: number) {
  const r = await rewardRows(ex, storeId).select(REWARD_COLS).where('rr.id', '=', id).executeTakeFirst();
  return r && { ...r, amount: Number(r.amount) };
}

/** A page of the store's rewards, newest first, with their count. */
export async function rewardPage(
  ex: Executor,
  storeId: number,
  o: { status: string | null; offset: number; limit: number },
): Promise<{ rows: ReferralReward[]; total: number }> {
  let q = rewardRows(ex, storeId);
  if (o.status) q = q.where('rr.status', '=', o.status);
  const [rows, count] = await Promise.all([
    q.select(REWARD_COLS).orderBy('rr.id', 'desc').offset(o.offset).limit(o.limit).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      leadId: r.leadId,
      referrerId: r.referrerMemberId,
      referrerName: r.referrerName,
      friendId: r.friendMemberId,
      friendName: r.friendName,
      friendMobile: r.friendMobile,
      trigger: r.triggerOn as ReferralReward['trigger'],
      kind: r.kind as ReferralReward['kind'],
      amount: Number(r.amount),
      status: r.status as ReferralReward['status'],
      memberCardId: r.memberCardId,
      cardName: r.cardName,
      createdAt: r.createdAt,
      grantedAt: r.grantedAt,
      undoneAt: r.undoneAt,
    })),
    total: Number(count.n),
  };
}
