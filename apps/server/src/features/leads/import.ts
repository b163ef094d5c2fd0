import {
  LEAD_IMPORT_COLUMNS,
  LEAD_SOURCES,
  LEAD_STAGE_LABEL,
  LEAD_STAGES,
  LeadImportMsg,
  LeadMsg,
  readWrittenMobile,
  zLeadImportRow,
  type ImportProblem,
  type LeadStage,
} from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { badRequest } from '../../lib/errors.ts';
import { getSetting } from '../store-admin/public.ts';
import { listStaffOfStore } from '../staff/public.ts';
import { recordLeadConsents } from './consent.ts';
import * as repo from './repository.ts';
import { insertOrMergeLead, LEAD_SETTING_KEY, leadSettingOf } from './service.ts';

/**
 * The import's 潜客 sheet (issue 44, item 1): each row a lead, checked as the desk's add checks one
 * (`zLeadImportRow`, the store's sources, an enabled staff member as 跟进人), then written by the one
 * insert-or-merge (one lead per mobile per store); 阶段 and 营销同意 (导入) on top.
 */

/** A sheet as the import reads it: its headings and rows of cells with their row numbers. */
export interface LeadSheet {
  /** The name problems name (the workbook's sheet). */
  name: string;
  header: string[];
  rows: { row: number; cells: string[] }[];
}

/** A row that passed: the lead to add or merge. */
export interface LeadRow {
  row: number;
  name: string;
  mobile: string;
  source: string;
  notes: string | null;
  ownerId: number | null;
  stage: LeadStage;
  consent: boolean;
  /** The store's lead of this mobile (merged into), by name. */
  mergedInto: string | null;
}

const YES = ['是', '同意', 'y', 'yes', '1'];
const NO = ['否', '不同意', 'n', 'no', '0'];
/** What staff may set by hand (never 已成交), by its label. */
const STAGE_OF = new Map(
  LEAD_STAGES.filter((s) => s !== 'won').map((s) => [LEAD_STAGE_LABEL[s], s] as [string, LeadStage]),
);

/**
 * Checks the 潜客 sheet's rows (nothing written): errors per row and column in Chinese, warnings
 * (already a member: `membersHolding` answers those of the mobiles; merged into a lead of the store), and the rows to write.
 */
export async function checkLeadSheet(
  ex: Executor,
  storeId: number,
  sheet: LeadSheet,
  membersHolding: (mobiles: string[]) => Promise<Set<string>>,
): Promise<{ rows: LeadRow[]; errors: ImportProblem[]; warnings: ImportProblem[] }> {
  const col = (c: (typeof LEAD_IMPORT_COLUMNS)[number]) => sheet.header.findIndex((h) => h.trim() === c);
  if (col('姓名') < 0 || col('手机号') < 0) throw badRequest(LeadImportMsg.columns);
  const sources = new Set<string>([
    ...LEAD_SOURCES,
    ...leadSettingOf(await getSetting(ex, storeId, LEAD_SETTING_KEY)).sources,
  ]);
  const staff = (await listStaffOfStore(ex, storeId)).filter((s) => Number(s.enabled));
  const mobiles = sheet.rows.map((r) => readWrittenMobile(r.cells[col('手机号')] ?? ''));
  const leads = await repo.leadsByMobile(ex, storeId, mobiles);
  const members = await membersHolding([...new Set(mobiles)].filter(Boolean));
  const rows: LeadRow[] = [];
  const errors: ImportProblem[] = [];
  const warnings: ImportProblem[] = [];
  const firstRow = new Map<string, number>();
  for (const { row, cells } of sheet.rows) {
    const said: ImportProblem[] = [];
    const problem = (column: string, message: string) => said.push({ sheet: sheet.name, row, column, message });
    const get = (c: (typeof LEAD_IMPORT_COLUMNS)[number]) => (col(c) < 0 ? '' : (cells[col(c)] ?? '').trim());
    const parsed = zLeadImportRow.safeParse({
      name: get('姓名'),
      mobile: readWrittenMobile(get('手机号')),
      source: get('来源') || '导入',
      notes: get('备注') || null,
    });
    if (!parsed.success) {
      const column = { name: '姓名', mobile: '手机号', source: '来源', notes: '备注' } as Record<string, string>;
      for (const i of parsed.error.issues) problem(column[String(i.path[0])] ?? '', i.message);
    } else if (!sources.has(parsed.data.source)) problem('来源', LeadMsg.unknownSource);
    const ownerName = get('跟进人');
    const owners = ownerName ? staff.filter((s) => s.name === ownerName || s.account === ownerName) : [];
    if (ownerName && !owners.length) problem('跟进人', LeadImportMsg.owner(ownerName));
    else if (owners.length > 1) problem('跟进人', LeadImportMsg.ownerTwice(ownerName));
    const stageText = get('阶段');
    const stage = stageText ? STAGE_OF.get(stageText) : 'new';
    if (!stage) problem('阶段', LeadImportMsg.stage);
    const consentText = get('营销同意').toLowerCase();
    if (consentText && !YES.includes(consentText) && !NO.includes(consentText))
      problem('营销同意', LeadImportMsg.consent);
    const mobile = parsed.success ? parsed.data.mobile : '';
    const earlier = mobile ? firstRow.get(mobile) : undefined;
    if (earlier !== undefined) problem('手机号', LeadImportMsg.sameMobile(earlier));
    if (mobile && earlier === undefined) firstRow.set(mobile, row);
    if (said.length || !parsed.success || !stage) {
      errors.push(...said);
      continue;
    }
    const mergedInto = leads.get(mobile)?.name ?? null;
    if (members.has(mobile)) warnings.push({ sheet: sheet.name, row, column: '手机号', message: LeadImportMsg.member });
    if (mergedInto !== null) {
      warnings.push({ sheet: sheet.name, row, column: '手机号', message: LeadImportMsg.merged(mergedInto) });
    }
    rows.push({
      row,
      ...parsed.data,
      notes: parsed.data.notes ?? null,
      ownerId: owners[0]?.id ?? null,
      stage,
      consent: YES.includes(consentText),
      mergedInto,
    });
  }
  return { rows, errors, warnings };
}

/**
 * What an import's 潜客 sheet wrote, for the import's undo (操作日志): the leads it made, the leads it
 * merged into as they were before (the merge fills an empty owner and appends the notes), and the
 * consents it recorded.
 */
export interface LeadImportUndo {
  created: number[];
  merged: { id: number; ownerId: number | null; notes: string | null; touchedAt: string }[];
  consents: number[];
}

/**
 * Writes the checked rows inside the import's transaction: each by the one insert-or-merge (a lead
 * of the mobile added meanwhile is merged into); a new lead gets its 阶段 (已流失: 导入时已流失), and
 * 营销同意 是 records the consent (导入). Answers how many were created and merged, and the undo's facts.
 */
export async function writeLeadRows(
  tx: Executor,
  storeId: number,
  rows: readonly LeadRow[],
  at: { by: number; now: string },
): Promise<{ created: number; merged: number; undo: LeadImportUndo }> {
  const before = await repo.leadsByMobile(
    tx,
    storeId,
    rows.map((r) => r.mobile),
  );
  const undo: LeadImportUndo = { created: [], merged: [], consents: [] };
  const agreed: number[] = [];
  for (const r of rows) {
    const { id, merged } = await insertOrMergeLead(
      tx,
      storeId,
      {
        name: r.name,
        mobile: r.mobile,
        source: r.source,
        interests: null,
        notes: r.notes,
        preferredTimes: null,
        ownerId: r.ownerId,
        referrerMemberId: null,
      },
      at,
    );
    const was = before.get(r.mobile);
    if (merged && was)
      undo.merged.push({ id: was.id, ownerId: was.ownerId, notes: was.notes, touchedAt: was.touchedAt });
    if (!merged) {
      undo.created.push(id);
      if (r.stage !== 'new') {
        await repo.setStage(tx, storeId, id, r.stage, r.stage === 'lost' ? LeadImportMsg.lostReason : null, at.now);
      }
    }
    if (r.consent) agreed.push(id);
  }
  if (agreed.length) {
    undo.consents = await recordLeadConsents(tx, storeId, agreed, { granted: true, way: 'import', at: at.now });
  }
  return { created: undo.created.length, merged: rows.length - undo.created.length, undo };
}

/**
 * Why the import's leads cannot be taken back, in words (empty: they can): a later audit entry names
 * one of them (`namedLater`: a follow-up, a stage, an owner, a trial, a sale, a consent at the desk),
 * or one it made has a follow-up, trial, referral reward or consent of its own since.
 */
export async function leadImportChangedSince(
  tx: Executor,
  storeId: number,
  u: LeadImportUndo,
  namedLater: readonly number[],
): Promise<string[]> {
  const out: string[] = [];
  const names = await repo.leadNames(tx, storeId, namedLater);
  for (const name of names.slice(0, NAMED_LEADS)) out.push(LeadImportMsg.changedSince(name));
  if (names.length > NAMED_LEADS) out.push(LeadImportMsg.moreChangedSince(names.length - NAMED_LEADS));
  if (!names.length && (await repo.leadsWithActivity(tx, storeId, u.created, u.consents))) {
    out.push(LeadImportMsg.activitySince);
  }
  return out;
}

/** At most this many leads named in what an undo says changed. */
const NAMED_LEADS = 3;

/** Takes the import's leads back: its consents, the leads it made, the merged ones as they were. */
export async function undoLeadImport(tx: Executor, storeId: number, u: LeadImportUndo): Promise<void> {
  await repo.deleteLeadConsents(tx, storeId, u.consents);
  await repo.deleteLeads(tx, storeId, u.created);
  for (const m of u.merged) await repo.restoreMergedLead(tx, storeId, m);
}
