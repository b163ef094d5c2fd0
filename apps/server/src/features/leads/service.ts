import {
  LEAD_RETURN_DAYS_DEFAULT,
  LEAD_SOURCES,
  LEAD_STAGE_LABEL,
  LeadMsg,
  zLeadSetting,
  type LeadSetting,
  type LeadStage,
  type LeadWay,
  type ParsedReqOf,
  insertLead,
  updateLead,
  type FunnelCounts,
  type FunnelStep,
} from '@studio/contract';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, changedFields, skipAudit, systemScope } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { addDays, daysBetween, localDateTime, storeNow } from '../../lib/time.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import { requireSeller } from '../staff/public.ts';
import * as repo from './repository.ts';
import { trialsOfLead } from './trial-repository.ts';

/** The store setting of the leads (key `leads`, JSON): pool return days and the manager's sources. */
export const LEAD_SETTING_KEY = 'leads';
const PAGE = 20;

const leadTarget = (id: number) => ({ type: 'lead' as const, id });
const named = (l: { name: string; mobile?: string }) => `潜客 ${l.name}${l.mobile ? `（${l.mobile}）` : ''}`;

/** The setting as stored (defaults for a store that never saved it, or a value no longer valid). */
export function leadSettingOf(text: string | null | undefined): LeadSetting {
  const parsed = text ? zLeadSetting.safeParse(JSON.parse(text)) : undefined;
  return parsed?.success ? parsed.data : { returnDays: LEAD_RETURN_DAYS_DEFAULT, sources: [] };
}

export async function leadSetting(ctx: CallCtx) {
  const s = leadSettingOf(await getSetting(ctx.db, ctx.store.id, LEAD_SETTING_KEY));
  return { ...s, builtInSources: [...LEAD_SOURCES] };
}

/** Saves the leads' setting (the manager's), audited with what changed. */
export async function saveLeadSetting(ctx: CallCtx, input: LeadSetting) {
  const before = leadSettingOf(await getSetting(ctx.db, ctx.store.id, LEAD_SETTING_KEY));
  await putSetting(ctx.db, ctx.store.id, LEAD_SETTING_KEY, JSON.stringify(input));
  const words = (s: LeadSetting) => ({ returnDays: s.returnDays, sources: s.sources.join('、') });
  audit(ctx.db, {
    kind: 'settings',
    target: '潜客设置',
    ...changedFields(words(before), words(input), { returnDays: '未跟进回收天数', sources: '自定义来源' }),
  });
  return null;
}

const isManager = (ctx: CallCtx) => ctx.post.role === 'manager';

/** A non-manager acts only on their own leads (a pool lead is taken first); 403 otherwise. */
export function requireMine(ctx: CallCtx, lead: { ownerId: number | null }) {
  if (!isManager(ctx) && lead.ownerId !== ctx.staff.id) throw forbidden(LeadMsg.notYours);
}

/** A non-manager sees their own leads and the pool's; the manager every lead. */
function visibleTo(ctx: CallCtx, lead: { ownerId: number | null }) {
  if (!isManager(ctx) && lead.ownerId !== null && lead.ownerId !== ctx.staff.id) throw forbidden(LeadMsg.notYours);
}

export async function leadList(
  ctx: CallCtx,
  q: {
    stage?: LeadStage | null;
    scope: 'all' | 'mine' | 'pool';
    param?: string | null;
    source?: string | null;
    ownerId?: number | null;
    page: number;
  },
) {
  const mine = q.scope === 'mine' || !isManager(ctx);
  // The manager's 跟进人 filter: one owner's leads (not the pool's).
  const owner = !mine && q.scope === 'all' && q.ownerId ? q.ownerId : null;
  return repo.leadPage(
    ctx.db,
    ctx.store.id,
    {
      ownerId: mine ? ctx.staff.id : owner,
      withPool: q.scope === 'all' && owner === null,
      onlyPool: q.scope === 'pool',
      stage: q.stage,
      source: q.source || null,
      param: q.param?.trim() || null,
    },
    q.page,
    PAGE,
  );
}

export async function leadInfo(ctx: CallCtx, id: number) {
  const lead = await repo.requireLead(ctx.db, ctx.store.id, id);
  visibleTo(ctx, lead);
  const [followUps, trials, consents] = await Promise.all([
    repo.followUpsOf(ctx.db, id),
    trialsOfLead(ctx.db, id),
    repo.leadConsentsOf(ctx.db, id),
  ]);
  return { ...lead, followUps: followUps.map((f) => ({ ...f, way: f.way as LeadWay })), trials, consents };
}

/** A source of the store's (built-in or the manager's); 400 otherwise. */
async function requireSource(ctx: CallCtx, source: string) {
  const setting = leadSettingOf(await getSetting(ctx.db, ctx.store.id, LEAD_SETTING_KEY));
  if (![...LEAD_SOURCES, ...setting.sources].includes(source)) throw badRequest(LeadMsg.unknownSource);
}

/** The owner a new lead gets: the one named (the manager names anyone enabled, others only themselves). */
async function ownerFor(ctx: CallCtx, ownerId: number | null) {
  if (ownerId === null || ownerId === ctx.staff.id) return ownerId;
  if (!isManager(ctx)) throw forbidden(LeadMsg.ownerManager);
  return (await requireSeller(ctx.db, ctx.store.id, ownerId)).id;
}

/**
 * Adds a lead, or merges into the store's lead of the same mobile (one person, one lead): the insert
 * does nothing on the unique (store, mobile), and the merge fills what is empty and appends the notes,
 * so two requests at once (several instances) leave one lead with both.
 */
export async function addLead(ctx: CallCtx, input: ParsedReqOf<typeof insertLead>) {
  await requireSource(ctx, input.source);
  const ownerId = await ownerFor(ctx, input.ownerId);
  const now = storeNow(ctx);
  return inWriteTx(ctx.db, ctx.dialect, (tx) =>
    insertOrMergeLead(tx, ctx.store.id, { ...input, ownerId, referrerMemberId: null }, { by: ctx.staff.id, now }),
  );
}

/**
 * The one insert-or-merge of a lead (the desk's `addLead`, the public 体验课报名), inside the
 * caller's write: the insert does nothing on the unique (store, mobile) and the merge then fills
 * what is empty and appends the notes (source and referrer stay the first entry's). Audited.
 */
export async function insertOrMergeLead(
  tx: Executor,
  storeId: number,
  input: {
    name: string;
    mobile: string;
    source: string;
    interests: string | null;
    notes: string | null;
    preferredTimes: string | null;
    ownerId: number | null;
    referrerMemberId: number | null;
  },
  at: { by: number | null; now: string },
): Promise<{ id: number; merged: boolean }> {
  const { now } = at;
  const id = await repo.insertLeadIfNew(tx, {
    storeId,
    name: input.name,
    mobile: input.mobile,
    source: input.source,
    interests: input.interests,
    notes: input.notes,
    preferredTimes: input.preferredTimes,
    ownerId: input.ownerId,
    touchedAt: now,
    createdBy: at.by,
    createdAt: now,
    lostReason: null,
    nextFollowUp: null,
    convertedCardId: null,
    convertedMemberId: null,
    convertedOwnerId: null,
    convertedSource: null,
    convertedAt: null,
    referrerMemberId: input.referrerMemberId,
  });
  if (id !== undefined) {
    audit(tx, {
      kind: 'lead',
      summary: `新增潜客 ${input.name}，来源 ${input.source}${input.ownerId === null ? '，放入公海' : ''}`,
      target: named(input),
      targets: [leadTarget(id)],
    });
    return { id, merged: false };
  }
  const lead = await repo.mergeIntoLead(tx, storeId, { ...input, now });
  audit(tx, {
    kind: 'lead',
    summary: `手机号已有潜客 ${lead.name}，合并到该潜客`,
    target: named({ name: lead.name, mobile: input.mobile }),
    targets: [leadTarget(lead.id)],
  });
  return { id: lead.id, merged: true };
}

/**
 * Edits a lead of one's own (the manager: any). A new mobile another lead of the store holds merges
 * this lead into that one, as adding it would (one person, one lead): empty fields filled, notes
 * appended, the follow-ups moved over, this lead gone. A 已成交 lead keeps its mobile (its card was
 * sold to the member of that mobile) and is not merged away.
 */
export async function editLead(ctx: CallCtx, input: ParsedReqOf<typeof updateLead>) {
  const lead = await repo.requireLead(ctx.db, ctx.store.id, input.id);
  requireMine(ctx, lead);
  if (input.source !== lead.source) await requireSource(ctx, input.source);
  const storeId = ctx.store.id;
  const now = storeNow(ctx);
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (input.mobile !== lead.mobile) {
      if (lead.stage === 'won') throw conflict(LeadMsg.mobileWon);
      if (await repo.leadIdOfMobile(tx, storeId, input.mobile)) {
        const into = await repo.mergeIntoLead(tx, storeId, {
          mobile: input.mobile,
          interests: input.interests,
          notes: input.notes,
          preferredTimes: lead.preferredTimes,
          ownerId: lead.ownerId,
          now,
        });
        // Guarded: the lead is removed only while still not 已成交 (a sale at this moment wins).
        if (!(await repo.mergeAway(tx, storeId, lead.id, into.id))) throw conflict(LeadMsg.won);
        audit(tx, {
          kind: 'lead',
          summary: `手机号改为 ${input.mobile}，该手机号已有潜客 ${into.name}，合并到该潜客`,
          target: named(lead),
          targets: [leadTarget(lead.id), leadTarget(into.id)],
        });
        return { id: into.id, merged: true };
      }
    }
    const fields = {
      name: input.name,
      mobile: input.mobile,
      source: input.source,
      interests: input.interests,
      notes: input.notes,
    };
    try {
      if (!(await repo.updateLeadFields(tx, storeId, lead.id, fields, lead.mobile))) throw conflict(LeadMsg.mobileWon);
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(LeadMsg.mobileRace);
      throw e;
    }
    audit(tx, {
      kind: 'lead',
      target: named({ name: input.name, mobile: input.mobile }),
      targets: [leadTarget(lead.id)],
      ...changedFields(
        { name: lead.name, mobile: lead.mobile, source: lead.source, interests: lead.interests, notes: lead.notes },
        fields,
        { name: '姓名', mobile: '手机号', source: '来源', interests: '意向', notes: '备注' },
      ),
    });
    return { id: lead.id, merged: false };
  });
}

/** Records a follow-up of one's own lead (the manager: any); the first moves 新线索 to 已联系. */
export async function addFollowUp(
  ctx: CallCtx,
  input: { leadId: number; way: LeadWay; note: string; nextDate?: string | null },
) {
  const lead = await repo.requireLead(ctx.db, ctx.store.id, input.leadId);
  requireMine(ctx, lead);
  const now = storeNow(ctx);
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (!(await repo.markFollowedUp(tx, ctx.store.id, lead.id, input.nextDate ?? null, now)))
      throw conflict(LeadMsg.won);
    const { id } = await repo.insertFollowUp(tx, {
      storeId: ctx.store.id,
      leadId: lead.id,
      staffId: ctx.staff.id,
      way: input.way,
      note: input.note,
      nextDate: input.nextDate ?? null,
      createdAt: now,
    });
    audit(tx, {
      kind: 'lead',
      summary: `跟进：${input.note}${input.nextDate ? `；下次跟进 ${input.nextDate}` : ''}`,
      target: named(lead),
      targets: [leadTarget(lead.id)],
      ...(lead.stage === 'new'
        ? { before: { 阶段: LEAD_STAGE_LABEL.new }, after: { 阶段: LEAD_STAGE_LABEL.contacted } }
        : {}),
    });
    return { id };
  });
}

/** Sets a stage by hand (never 已成交, which a card sale sets; a 已成交 lead stays so). */
export async function changeStage(ctx: CallCtx, input: { id: number; stage: LeadStage; lostReason: string | null }) {
  const lead = await repo.requireLead(ctx.db, ctx.store.id, input.id);
  requireMine(ctx, lead);
  const now = storeNow(ctx);
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (!(await repo.setStage(tx, ctx.store.id, lead.id, input.stage, input.lostReason, now)))
      throw conflict(LeadMsg.won);
    audit(tx, {
      kind: 'lead',
      target: named(lead),
      targets: [leadTarget(lead.id)],
      ...changedFields(
        { stage: LEAD_STAGE_LABEL[lead.stage], lostReason: lead.lostReason },
        { stage: LEAD_STAGE_LABEL[input.stage], lostReason: input.stage === 'lost' ? input.lostReason : null },
        { stage: '阶段', lostReason: '流失原因' },
      ),
    });
    return null;
  });
}

/** The manager assigns leads to an owner, or puts them back in the pool (ownerId null). */
export async function assignLeads(ctx: CallCtx, input: { ids: number[]; ownerId: number | null }) {
  const owner = input.ownerId === null ? null : await requireSeller(ctx.db, ctx.store.id, input.ownerId);
  const ids = [...new Set(input.ids)].sort((a, b) => a - b);
  const now = storeNow(ctx);
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const changed = await repo.setOwner(tx, ctx.store.id, ids, owner?.id ?? null, now);
    // One of the ids is not a lead of the store: nothing is changed (the transaction rolls back).
    if (changed.length !== ids.length) throw notFound('潜客');
    audit(tx, {
      kind: 'lead',
      summary: owner ? `分配 ${ids.length} 位潜客给 ${owner.name}` : `${ids.length} 位潜客放回公海`,
      targets: ids.map(leadTarget),
    });
    return null;
  });
}

/** A staff member takes a lead from the pool (公海): of two at once, one gets it. */
export async function takeLead(ctx: CallCtx, id: number) {
  const lead = await repo.requireLead(ctx.db, ctx.store.id, id);
  const now = storeNow(ctx);
  return inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (!(await repo.takeFromPool(tx, ctx.store.id, lead.id, ctx.staff.id, now))) throw conflict(LeadMsg.taken);
    audit(tx, {
      kind: 'lead',
      summary: `从公海领取 ${lead.name}`,
      target: named(lead),
      targets: [leadTarget(lead.id)],
    });
    return null;
  });
}

/**
 * 我的待跟进: one's open leads, those whose trial class ended without them (体验课未到) first, then
 * overdue and today's (the repository's order), each with its due.
 */
export async function todoList(ctx: CallCtx) {
  const now = storeNow(ctx);
  const today = now.slice(0, 10);
  const rows = await repo.openLeadsOf(ctx.db, ctx.store.id, ctx.staff.id, now);
  return rows.map(({ trialMissed, ...r }) => ({
    ...r,
    trialMissed: Boolean(trialMissed),
    due: (r.nextFollowUp === null
      ? 'none'
      : r.nextFollowUp < today
        ? 'overdue'
        : r.nextFollowUp === today
          ? 'today'
          : 'later') as 'none' | 'overdue' | 'today' | 'later',
  }));
}

/** The clock of the pool return (tests inject one): store-local `YYYY-MM-DD HH:mm:ss`. */
export type Clock = (timezone: string) => string;

/**
 * The pool return (回收到公海): in every store, each open lead with an owner and no follow-up (nor
 * assignment, nor take) for the store's days (counted in whole days: untouched since before the
 * start of the day that many days ago) goes back to the pool, each in its own guarded write with an
 * entry by 系统. The cutoff moves once a day, so however often it runs (on every instance) a lead
 * returns once. Answers the ids returned.
 */
export async function returnStaleLeads(db: Db, dialect: Dialect, clock: Clock = localDateTime): Promise<number[]> {
  const done: number[] = [];
  for (const s of await repo.storesWithOwnedLeads(db, LEAD_SETTING_KEY)) {
    const { returnDays } = leadSettingOf(s.value);
    if (returnDays === 0) continue;
    const before = `${addDays(clock(s.timezone).slice(0, 10), -returnDays)} 00:00:00`;
    for (const lead of await repo.staleLeads(db, s.storeId, before)) {
      const scope = systemScope('潜客回收', 'job/lead-pool-return', 'lead', s.storeId);
      const back = await inWriteTx(
        db,
        dialect,
        async (tx: Executor) => {
          if (!(await repo.returnToPool(tx, s.storeId, lead))) {
            skipAudit(tx);
            return false;
          }
          audit(tx, {
            kind: 'lead',
            summary: `${returnDays}天未跟进，回收到公海`,
            target: named(lead),
            targets: [leadTarget(lead.id)],
          });
          return true;
        },
        scope,
      );
      if (back) done.push(lead.id);
    }
  }
  return done;
}

// ---- 转化漏斗 ----------------------------------------------------------------------------------

type FunnelRow = Awaited<ReturnType<typeof repo.funnelLeads>>[number];

/** Whether a lead reached a step of the funnel (已联系 also when it reached a later one, a card included). */
const reached: Record<FunnelStep, (r: FunnelRow) => boolean> = {
  leads: () => true,
  contacted: (r) => !!(r.contactedAt || r.trialBookedAt || r.trialDoneAt || r.convertedAt),
  trialBooked: (r) => !!(r.trialBookedAt || r.trialDoneAt),
  trialDone: (r) => !!r.trialDoneAt,
  converted: (r) => !!r.convertedAt,
};

/** Whole days from the lead's day to its card's day. */
const daysToCard = (r: FunnelRow) => daysBetween(r.createdAt.slice(0, 10), r.convertedAt!.slice(0, 10));

function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function countsOf(rows: FunnelRow[]): FunnelCounts {
  const n = (step: FunnelStep) => rows.filter(reached[step]).length;
  return {
    leads: rows.length,
    contacted: n('contacted'),
    trialBooked: n('trialBooked'),
    trialDone: n('trialDone'),
    converted: n('converted'),
    medianDays: median(rows.filter(reached.converted).map(daysToCard)),
  };
}

const funnelRows = (ctx: CallCtx, q: { fromDate: string; toDate: string }) =>
  repo.funnelLeads(ctx.db, ctx.store.id, q.fromDate, addDays(q.toDate, 1));

function groupBy<K>(rows: FunnelRow[], key: (r: FunnelRow) => K) {
  const m = new Map<K, FunnelRow[]>();
  for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), r]);
  return m;
}

/**
 * The funnel of the leads added in the range: how many reached each step, the median days to the
 * card, in all, by source, by owner (the one credited with the conversion, else the owner now) and by
 * the teacher of the lead's attended trial class (体验课老师).
 */
export async function leadFunnel(ctx: CallCtx, q: { fromDate: string; toDate: string }) {
  const rows = await funnelRows(ctx, q);
  const bySource = [...groupBy(rows, (r) => r.source)].map(([source, rs]) => ({ source, ...countsOf(rs) }));
  const byOwner = [...groupBy(rows, (r) => r.ownerId ?? 0)].map(([ownerId, rs]) => ({
    ownerId,
    ownerName: rs[0].ownerName ?? '公海',
    ...countsOf(rs),
  }));
  const byTeacher = [
    ...groupBy(
      rows.filter((r) => r.trialTeacherId !== null),
      (r) => r.trialTeacherId!,
    ),
  ].map(([teacherId, rs]) => ({ teacherId, teacherName: rs[0].trialTeacherName ?? '', ...countsOf(rs) }));
  const most = (a: FunnelCounts, b: FunnelCounts) => b.leads - a.leads;
  return {
    total: countsOf(rows),
    bySource: bySource.sort(most),
    byOwner: byOwner.sort(most),
    byTeacher: byTeacher.sort(most),
  };
}

/** The leads behind one number of the funnel: a step, maybe of one source, owner (0: 公海) or trial teacher; 20 a page. */
export async function leadFunnelList(
  ctx: CallCtx,
  q: {
    fromDate: string;
    toDate: string;
    step: FunnelStep;
    source?: string | null;
    ownerId?: number | null;
    teacherId?: number | null;
    page: number;
  },
) {
  const rows = (await funnelRows(ctx, q)).filter(
    (r) =>
      reached[q.step](r) &&
      (q.source == null || r.source === q.source) &&
      (q.ownerId == null || (r.ownerId ?? 0) === q.ownerId) &&
      (q.teacherId == null || r.trialTeacherId === q.teacherId),
  );
  const list = rows.slice((q.page - 1) * PAGE, q.page * PAGE).map((r) => ({
    id: r.id,
    name: r.name,
    mobile: r.mobile,
    source: r.source,
    ownerName: r.ownerName,
    stage: r.stage as LeadStage,
    createdAt: r.createdAt,
    convertedAt: r.convertedAt,
  }));
  return { list, total: rows.length };
}
