import type { LeadStage } from '@studio/contract';
import { sql } from 'kysely';
import { contains } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import { idChunks } from '../../db/chunks.ts';
import type { NewRow } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import { trialMissedSql } from './trial-repository.ts';

/** The leads' repository: a store's leads (one per mobile), their follow-ups and the pool return. */

/** Which leads a list holds: everyone's, or an owner's and (`withPool`) the pool's. */
export interface LeadFilter {
  /** null: any owner (the manager's view). */
  ownerId: number | null;
  withPool: boolean;
  onlyPool: boolean;
  stage?: LeadStage | null;
  param?: string | null;
  source?: string | null;
}

const leadsOf = (ex: Executor, storeId: number) =>
  ex
    .selectFrom('lead as l')
    .leftJoin('staff as s', 's.id', 'l.ownerId')
    // 已是会员: the member of the store holding the mobile (member_store_mobile_uq: at most one).
    .leftJoin('member as m', (j) => j.onRef('m.storeId', '=', 'l.storeId').onRef('m.mobile', '=', 'l.mobile'))
    // 转介绍: the member whose referral link brought the lead.
    .leftJoin('member as rm', 'rm.id', 'l.referrerMemberId')
    .where('l.storeId', '=', storeId);

const leadCols = [
  'l.id',
  'l.name',
  'l.mobile',
  'l.source',
  'l.interests',
  'l.notes',
  'l.preferredTimes',
  'l.ownerId',
  's.name as ownerName',
  'l.stage',
  'l.lostReason',
  'l.nextFollowUp',
  'l.touchedAt',
  'l.createdAt',
  'm.id as memberId',
  'l.convertedCardId',
  'l.convertedAt',
  'l.referrerMemberId as referrerId',
  'rm.name as referrerName',
] as const;

const asRow = <R extends { stage: string }>(r: R) => ({ ...r, stage: r.stage as LeadStage });

/** One page of the leads the filter holds, newest first, and their count. */
export async function leadPage(ex: Executor, storeId: number, f: LeadFilter, page: number, pageSize: number) {
  let q = leadsOf(ex, storeId);
  if (f.onlyPool) q = q.where('l.ownerId', 'is', null);
  else if (f.ownerId !== null) {
    const owner = f.ownerId;
    q = q.where((eb) =>
      f.withPool ? eb.or([eb('l.ownerId', '=', owner), eb('l.ownerId', 'is', null)]) : eb('l.ownerId', '=', owner),
    );
  }
  if (f.stage) q = q.where('l.stage', '=', f.stage);
  if (f.source) q = q.where('l.source', '=', f.source);
  if (f.param) {
    const p = f.param;
    q = q.where((eb) => eb.or([contains('l.name', p), contains('l.mobile', p)]));
  }
  const [list, total] = await Promise.all([
    q
      .select([...leadCols])
      .orderBy('l.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: list.map(asRow), total: Number(total.n) };
}

/** A lead of the store as lists show it; 404 潜客不存在 otherwise. */
export async function requireLead(ex: Executor, storeId: number, id: number) {
  const row = await leadsOf(ex, storeId)
    .select([...leadCols])
    .where('l.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('潜客');
  return asRow(row);
}

/**
 * The open leads (not 已成交, not 已流失) an owner follows up: those who missed their trial class at
 * `now` first (体验课未到), then by next follow-up date (none last).
 */
export async function openLeadsOf(ex: Executor, storeId: number, ownerId: number, now: string) {
  const missed = trialMissedSql('l', now);
  const rows = await leadsOf(ex, storeId)
    .select([...leadCols])
    .select(missed.as('trialMissed'))
    .where('l.ownerId', '=', ownerId)
    .where('l.stage', 'not in', ['won', 'lost'])
    .orderBy(sql`case when ${missed} then 0 else 1 end`)
    .orderBy(sql`case when l.next_follow_up is null then 1 else 0 end`)
    .orderBy('l.nextFollowUp')
    .orderBy('l.id')
    .execute();
  return rows.map(asRow);
}

/** A lead's follow-ups, newest first, with who made them. */
export function followUpsOf(ex: Executor, leadId: number) {
  return ex
    .selectFrom('leadFollowUp as f')
    .innerJoin('staff as s', 's.id', 'f.staffId')
    .select(['f.id', 'f.way', 'f.note', 'f.nextDate', 's.name as staffName', 'f.createdAt'])
    .where('f.leadId', '=', leadId)
    .orderBy('f.id', 'desc')
    .execute();
}

/**
 * Adds a lead unless the store has one with its mobile (`lead_store_mobile_uq`): answers the new id,
 * or undefined when one was there (also when it was added at the same moment by another request).
 */
export async function insertLeadIfNew(ex: Executor, row: NewRow<'lead'>): Promise<number | undefined> {
  const r = await ex
    .insertInto('lead')
    .values(row)
    .onConflict((oc) => oc.columns(['storeId', 'mobile']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return r?.id;
}

/**
 * Merges a second entry of the same mobile into the store's lead, in one statement: empty fields
 * filled (an owner too), the notes appended on a new line. Answers the lead's id and name.
 */
export async function mergeIntoLead(
  ex: Executor,
  storeId: number,
  m: {
    mobile: string;
    interests: string | null;
    notes: string | null;
    preferredTimes: string | null;
    ownerId: number | null;
    now: string;
  },
) {
  return ex
    .updateTable('lead')
    .set((eb) => ({
      interests: eb.fn.coalesce('interests', eb.val(m.interests)),
      preferredTimes: eb.fn.coalesce('preferredTimes', eb.val(m.preferredTimes)),
      ownerId: eb.fn.coalesce('ownerId', eb.val(m.ownerId)),
      notes:
        m.notes === null
          ? eb.ref('notes')
          : sql<string>`case when notes is null or notes = '' then ${m.notes} else notes || ${'\n'} || ${m.notes} end`,
      touchedAt: m.now,
    }))
    .where('storeId', '=', storeId)
    .where('mobile', '=', m.mobile)
    .returning(['id', 'name', 'ownerId'])
    .executeTakeFirstOrThrow();
}

/** The store's leads of these mobiles as they are, by mobile (the import's check and its undo's facts). */
export async function leadsByMobile(ex: Executor, storeId: number, mobiles: readonly string[]) {
  const out = new Map<
    string,
    { id: number; name: string; ownerId: number | null; notes: string | null; touchedAt: string }
  >();
  for (const part of idChunks([...new Set(mobiles)].filter(Boolean))) {
    const rows = await ex
      .selectFrom('lead')
      .select(['id', 'mobile', 'name', 'ownerId', 'notes', 'touchedAt'])
      .where('storeId', '=', storeId)
      .where('mobile', 'in', part)
      .execute();
    for (const { mobile, ...r } of rows) out.set(mobile, { ...r, id: Number(r.id) });
  }
  return out;
}

/** The names of the store's leads among `ids`. */
export async function leadNames(ex: Executor, storeId: number, ids: readonly number[]): Promise<string[]> {
  const out: string[] = [];
  for (const part of idChunks([...new Set(ids)])) {
    const rows = await ex
      .selectFrom('lead')
      .select('name')
      .where('storeId', '=', storeId)
      .where('id', 'in', part)
      .execute();
    out.push(...rows.map((r) => r.name));
  }
  return out;
}

/**
 * Whether any of the leads has a follow-up, trial class or referral reward, or a consent other than
 * `ownConsents` (an import's undo: what happened to the leads it made).
 */
export async function leadsWithActivity(
  ex: Executor,
  storeId: number,
  ids: readonly number[],
  ownConsents: readonly number[],
): Promise<boolean> {
  const own = new Set(ownConsents);
  for (const part of idChunks([...ids])) {
    for (const table of ['leadFollowUp', 'leadTrial', 'referralReward'] as const) {
      const found = await ex
        .selectFrom(table)
        .select('leadId')
        .where('storeId', '=', storeId)
        .where('leadId', 'in', part)
        .limit(1)
        .execute();
      if (found.length) return true;
    }
    const consents = await ex
      .selectFrom('leadConsent')
      .select('id')
      .where('storeId', '=', storeId)
      .where('leadId', 'in', part)
      .execute();
    if (consents.some((c) => !own.has(Number(c.id)))) return true;
  }
  return false;
}

/** Deletes consent rows (an import's, on its undo). */
export async function deleteLeadConsents(ex: Executor, storeId: number, ids: readonly number[]): Promise<void> {
  for (const part of idChunks([...ids])) {
    await ex.deleteFrom('leadConsent').where('storeId', '=', storeId).where('id', 'in', part).execute();
  }
}

/** Deletes leads with nothing of their own left (an import's, on its undo). */
export async function deleteLeads(ex: Executor, storeId: number, ids: readonly number[]): Promise<void> {
  for (const part of idChunks([...ids])) {
    await ex.deleteFrom('lead').where('storeId', '=', storeId).where('id', 'in', part).execute();
  }
}

/** Puts a lead an import merged into back as it was (its owner, notes and last touch). */
export async function restoreMergedLead(
  ex: Executor,
  storeId: number,
  m: { id: number; ownerId: number | null; notes: string | null; touchedAt: string },
): Promise<void> {
  await ex
    .updateTable('lead')
    .set({ ownerId: m.ownerId, notes: m.notes, touchedAt: m.touchedAt })
    .where('storeId', '=', storeId)
    .where('id', '=', m.id)
    .execute();
}

/** The id of the store's lead holding `mobile`, if any. */
export async function leadIdOfMobile(ex: Executor, storeId: number, mobile: string) {
  const r = await ex
    .selectFrom('lead')
    .select('id')
    .where('storeId', '=', storeId)
    .where('mobile', '=', mobile)
    .executeTakeFirst();
  return r?.id;
}

/**
 * Writes a lead's typed fields; the mobile changes only while the lead is not 已成交 (guarded on the
 * mobile it had and its stage). Answers whether it applied.
 */
export async function updateLeadFields(
  ex: Executor,
  storeId: number,
  id: number,
  f: { name: string; mobile: string; source: string; interests: string | null; notes: string | null },
  mobileBefore: string,
) {
  let q = ex.updateTable('lead').set(f).where('storeId', '=', storeId).where('id', '=', id);
  if (f.mobile !== mobileBefore) q = q.where('mobile', '=', mobileBefore).where('stage', '!=', 'won');
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Removes a lead merged into another (`into`): its follow-ups move over, then it is deleted, guarded
 * (still not 已成交). Answers whether it applied.
 */
export async function mergeAway(ex: Executor, storeId: number, id: number, into: number) {
  await ex
    .updateTable('leadFollowUp')
    .set({ leadId: into })
    .where('storeId', '=', storeId)
    .where('leadId', '=', id)
    .execute();
  await ex
    .updateTable('leadConsent')
    .set({ leadId: into })
    .where('storeId', '=', storeId)
    .where('leadId', '=', id)
    .execute();
  await ex
    .updateTable('leadTrial')
    .set({ leadId: into })
    .where('storeId', '=', storeId)
    .where('leadId', '=', id)
    .execute();
  const r = await ex
    .deleteFrom('lead')
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('stage', '!=', 'won')
    .executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export function insertFollowUp(ex: Executor, row: NewRow<'leadFollowUp'>) {
  return ex.insertInto('leadFollowUp').values(row).returning('id').executeTakeFirstOrThrow();
}

/**
 * A follow-up's mark on its lead, guarded in one statement (not once it is 已成交): touched now, the
 * next follow-up date, and 新线索 becomes 已联系. Answers whether it applied.
 */
export async function markFollowedUp(ex: Executor, storeId: number, id: number, nextDate: string | null, now: string) {
  const r = await ex
    .updateTable('lead')
    .set((eb) => ({
      touchedAt: now,
      nextFollowUp: nextDate,
      contactedAt: eb.fn.coalesce('contactedAt', eb.val(now)),
      stage: eb.case().when('stage', '=', 'new').then('contacted').else(eb.ref('stage')).end(),
    }))
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('stage', '!=', 'won')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Sets a stage staff may set, guarded (never over 已成交), marking the steps of the funnel it reaches
 * first (已体验 implies 已约体验 and 已联系; 已流失 marks none). Answers whether it applied.
 */
export async function setStage(
  ex: Executor,
  storeId: number,
  id: number,
  stage: LeadStage,
  lostReason: string | null,
  now: string,
) {
  const reach = FUNNEL_REACH[stage];
  const r = await ex
    .updateTable('lead')
    .set((eb) => ({
      stage,
      lostReason: stage === 'lost' ? lostReason : null,
      ...Object.fromEntries(reach.map((c) => [c, eb.fn.coalesce(c, eb.val(now))])),
    }))
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('stage', '!=', 'won')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The funnel's columns a stage set by hand marks (when not marked before). */
const FUNNEL_REACH: Record<LeadStage, ('contactedAt' | 'trialBookedAt' | 'trialDoneAt')[]> = {
  new: [],
  contacted: ['contactedAt'],
  trial_booked: ['contactedAt', 'trialBookedAt'],
  trial_done: ['contactedAt', 'trialBookedAt', 'trialDoneAt'],
  won: [],
  lost: [],
};

/** Gives leads of the store another owner (null: the pool), touched now; answers the ids changed. */
export async function setOwner(ex: Executor, storeId: number, ids: number[], ownerId: number | null, now: string) {
  const rows = await ex
    .updateTable('lead')
    .set({ ownerId, touchedAt: now })
    .where('storeId', '=', storeId)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Takes a lead of the pool, guarded: of two sellers at once one gets it. Answers whether this one did. */
export async function takeFromPool(ex: Executor, storeId: number, id: number, ownerId: number, now: string) {
  const r = await ex
    .updateTable('lead')
    .set({ ownerId, touchedAt: now })
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('ownerId', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The leads of the store to go back to the pool: owned, still open, untouched since before `before`
 * (store-local).
 */
export function staleLeads(ex: Executor, storeId: number, before: string) {
  return ex
    .selectFrom('lead')
    .select(['id', 'name', 'ownerId', 'touchedAt'])
    .where('storeId', '=', storeId)
    .where('ownerId', 'is not', null)
    .where('stage', 'not in', ['won', 'lost'])
    .where('touchedAt', '<', before)
    .orderBy('id')
    .execute();
}

/**
 * Puts one stale lead back in the pool, guarded by what made it stale (its owner and last touch
 * unchanged): a follow-up or a take at the same moment, or another instance's run, wins. Answers
 * whether this one did.
 */
export async function returnToPool(
  ex: Executor,
  storeId: number,
  lead: { id: number; ownerId: number | null; touchedAt: string },
) {
  const r = await ex
    .updateTable('lead')
    .set({ ownerId: null })
    .where('storeId', '=', storeId)
    .where('id', '=', lead.id)
    .where('ownerId', '=', lead.ownerId)
    .where('touchedAt', '=', lead.touchedAt)
    .where('stage', 'not in', ['won', 'lost'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * Converts the store's lead holding `mobile`, once (guarded: `converted_card_id` still null; of two
 * cards sold at once, one converts it): 已成交, credited to its owner and source of now. Answers the
 * lead converted, or undefined (no lead, or converted before).
 */
export function convertLead(
  ex: Executor,
  storeId: number,
  c: { mobile: string; memberId: number; memberCardId: number; now: string },
) {
  return ex
    .updateTable('lead')
    .set((eb) => ({
      stage: 'won',
      convertedCardId: c.memberCardId,
      convertedMemberId: c.memberId,
      convertedOwnerId: eb.ref('ownerId'),
      convertedSource: eb.ref('source'),
      convertedAt: c.now,
    }))
    .where('storeId', '=', storeId)
    .where('mobile', '=', c.mobile)
    .where('convertedCardId', 'is', null)
    .returning(['id', 'name', 'ownerId', 'source'])
    .executeTakeFirst();
}

/** The stores with leads that have an owner, with their time zone and lead setting (the pool return's round). */
export function storesWithOwnedLeads(ex: Executor, settingKey: string) {
  return ex
    .selectFrom('store as st')
    .leftJoin('storeSetting as s', (j) => j.onRef('s.storeId', '=', 'st.id').on('s.key', '=', settingKey))
    .select(['st.id as storeId', 'st.timezone', 's.value'])
    .where((eb) =>
      eb.exists(
        eb.selectFrom('lead').select('id').whereRef('lead.storeId', '=', 'st.id').where('lead.ownerId', 'is not', null),
      ),
    )
    .orderBy('st.id')
    .execute();
}

/**
 * The leads added to the store from `from` to before `before` (store-local), oldest first, with when they
 * reached each step of the funnel and the owner credited: the one of the conversion, else the owner
 * now (null: 公海); the teacher of its attended trial class, if any.
 */
export function funnelLeads(ex: Executor, storeId: number, from: string, before: string) {
  return ex
    .selectFrom('lead as l')
    .leftJoin('staff as s', (j) =>
      j.on((eb) => eb(eb.fn.coalesce('l.convertedOwnerId', 'l.ownerId'), '=', eb.ref('s.id'))),
    )
    .leftJoin('teacher as te', 'te.id', 'l.trialTeacherId')
    .select((eb) => [
      'l.id',
      'l.name',
      'l.mobile',
      eb.fn.coalesce('l.convertedSource', 'l.source').as('source'),
      eb.fn.coalesce('l.convertedOwnerId', 'l.ownerId').as('ownerId'),
      's.name as ownerName',
      'l.trialTeacherId',
      'te.name as trialTeacherName',
      'l.stage',
      'l.createdAt',
      'l.contactedAt',
      'l.trialBookedAt',
      'l.trialDoneAt',
      'l.convertedAt',
    ])
    .where('l.storeId', '=', storeId)
    .where('l.createdAt', '>=', from)
    .where('l.createdAt', '<', before)
    .orderBy('l.createdAt')
    .orderBy('l.id')
    .execute();
}

/** The names of the store's courses on offer (group classes and lesson types), for the 体验课报名 page. */
export async function offeredCourseNames(ex: Executor, storeId: number): Promise<string[]> {
  const rows = await ex
    .selectFrom('course')
    .select('name')
    .distinct()
    .where('storeId', '=', storeId)
    .where('enabled', '=', 1)
    .where('deleted', '=', 0)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.name);
}

/** A lead's marketing consents, newest first, with the staff who recorded each (null: the person). */
export async function leadConsentsOf(ex: Executor, leadId: number) {
  const rows = await ex
    .selectFrom('leadConsent as c')
    .leftJoin('staff as s', 's.id', 'c.staffId')
    .select(['c.granted', 'c.way', 'c.at', 's.name as staffName'])
    .where('c.leadId', '=', leadId)
    .orderBy('c.id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, granted: Number(r.granted) === 1 }));
}

/** Inserts consent rows; answers their ids. */
export async function insertLeadConsents(ex: Executor, rows: NewRow<'leadConsent'>[]): Promise<number[]> {
  if (!rows.length) return [];
  const ids = await ex.insertInto('leadConsent').values(rows).returning('id').execute();
  return ids.map((r) => Number(r.id));
}

/**
 * The store's leads with their latest marketing consent (null: never asked) and its time: the
 * marketing audience reads them (features/marketing), `mobile` to narrow to one person.
 */
export function leadsWithMarketingConsent(ex: Executor, storeId: number, mobile?: string) {
  let q = ex
    .selectFrom('lead as l')
    .select(['l.id', 'l.mobile', 'l.stage'])
    .select((eb) => {
      const latest = () =>
        eb.selectFrom('leadConsent as c').whereRef('c.leadId', '=', 'l.id').orderBy('c.id', 'desc').limit(1);
      return [latest().select('c.granted').as('granted'), latest().select('c.at').as('at')];
    })
    .where('l.storeId', '=', storeId);
  if (mobile !== undefined) q = q.where('l.mobile', '=', mobile);
  return q.execute();
}
