import crypto from 'node:crypto';
import {
  IMPORT_ERRORS_MAX,
  IMPORT_FIELDS,
  IMPORT_MAPPING_SETTING,
  ImportMsg,
  LEAD_IMPORT_SHEET,
  importMembers,
  Msg,
  PREPAID_RULE_SET_NAMES,
  type ImportMapping,
  type ImportProblem,
  type ParsedReqOf,
  type ResOf,
  type queryImportColumns,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { deleteExpiredOpLocks, deleteOpLock, deleteStaleOpLock, insertOpLock } from '../../db/op-locks.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { endOfDay, importedCardOver, insertSharesOfNewCards, leaveDays, loadPrepaidRule } from '../cards/public.ts';
import { checkLeadSheet, writeLeadRows } from '../leads/public.ts';
import { readImportFile, type FileSheet } from './read-file.ts';
import {
  insertCards,
  insertLeaves,
  insertLedger,
  insertMembers,
  insertPayments,
  lastEntryOf,
  membersByMobile,
  productsOf,
  putSetting,
  settingOf,
  updateMember,
  type ExistingMember,
} from './repository.ts';
import {
  guessMapping,
  planImport,
  sharedMobiles,
  shareProblems,
  sortProblems,
  type FileCard,
  type FileMember,
  type ImportPlan,
  type ImportProduct,
} from './rows.ts';
import { ProgressReporter } from './progress.ts';
import type { ImportUndo } from './undo-import.ts';

type ImportAnswer = ResOf<typeof importMembers>;
/** The opening ledger entry of an imported card. */
export const OPENING_REMARK = '导入期初余额';
/** The reason of a leave a card moved in with. */
const LEAVE_REASON = '导入的请假记录';
/** The same file imported again this soon after (a double click) is refused. */
const REPEAT_WINDOW_MS = 10_000;
/** A lock older than this was left by an instance that stopped mid-import (no import takes this long). */
const STALE_LOCK_MS = 15 * 60 * 1000;
/** The members an import's audit entry names (more are counted in words). */
const NAMED_MEMBERS = 200;
const SAMPLE_ROWS = 5;

/** The remembered mapping (a store setting), or none. */
async function rememberedMapping(ctx: CallCtx): Promise<ImportMapping> {
  const text = await settingOf(ctx.db, ctx.store.id, IMPORT_MAPPING_SETTING);
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as Record<string, string>;
    const ok = new Set<string>([...IMPORT_FIELDS, 'ignore']);
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => ok.has(v))) as ImportMapping;
  } catch {
    return {};
  }
}

/** The file's columns, its first rows and the mapping to start from (remembered, or guessed). */
export async function importColumns(
  ctx: CallCtx,
  input: ParsedReqOf<typeof queryImportColumns>,
): Promise<ResOf<typeof queryImportColumns>> {
  const all = await readImportFile(input.fileName, input.content);
  // The 潜客 sheet is read by its own columns: the mapping is the members' sheets'.
  const { sheets, leadSheet } = splitSheets(all);
  const columns = [...new Set(sheets.flatMap((s) => s.header).filter(Boolean))];
  const first = sheets.at(-1);
  const sample = first ? first.rows.slice(0, SAMPLE_ROWS).map((r) => first.header.map((_, i) => r.cells[i] ?? '')) : [];
  return {
    columns,
    rows: sheets.reduce((n, s) => n + s.rows.length, 0),
    leadRows: leadSheet?.rows.length ?? 0,
    sample,
    mapping: guessMapping(columns, await rememberedMapping(ctx)),
  };
}

/** The members' sheets and the 潜客 sheet (leads) of a file. */
function splitSheets(all: FileSheet[]) {
  return {
    sheets: all.filter((s) => s.name !== LEAD_IMPORT_SHEET),
    leadSheet: all.find((s) => s.name === LEAD_IMPORT_SHEET),
  };
}

/**
 * The file's cards over the store's prepaid limits (预付卡限额), row by row: they are imported (sold
 * before), the studio is told; a card that moves in refunded holds nothing prepaid.
 */
async function prepaidWarnings(ctx: CallCtx, plan: ImportPlan, products: ImportProduct[]): Promise<ImportProblem[]> {
  const rule = await loadPrepaidRule(ctx.db, ctx.store.id);
  if (rule.ruleSet === 'none') return [];
  const byId = new Map(products.map((p) => [p.id, p]));
  return sortProblems(
    plan.cards.flatMap((card) => {
      const product = byId.get(card.productId);
      const over = product && !card.refundDate ? importedCardOver(rule, product, card) : [];
      return over.length
        ? [
            {
              sheet: card.at.sheet,
              row: card.at.row,
              column: '',
              message: ImportMsg.overPrepaid(PREPAID_RULE_SET_NAMES[rule.ruleSet], over.join('，')),
            },
          ]
        : [];
    }),
  );
}

/** What the file changes in a member that exists: the fields it fills that differ. */
function changesOf(had: ExistingMember, m: FileMember) {
  const set: { name?: string; gender?: number; birthday?: string; remark?: string } = {};
  if (m.name !== had.name) set.name = m.name;
  if (m.gender !== undefined && m.gender !== had.gender) set.gender = m.gender;
  if (m.birthday !== undefined && m.birthday !== had.birthday) set.birthday = m.birthday;
  if (m.remark !== undefined && m.remark !== had.remark) set.remark = m.remark;
  return Object.keys(set).length ? set : null;
}

/**
 * Imports members and cards from a file (导入). Every row is checked first (the dry run answers the
 * problems and what would be created); the import itself runs in one transaction that writes
 * nothing when any row has a problem: members, members matched by mobile updated where the file
 * fills a field (or their rows skipped), cards each with one opening ledger entry (导入期初余额) and
 * the amount paid as a sale, the mapping remembered, and one audit entry that 操作日志 can undo
 * within 24 hours. Two imports of a store at once: the second is refused (409).
 */
export async function importFile(ctx: CallCtx, input: ParsedReqOf<typeof importMembers>): Promise<ImportAnswer> {
  const progress = new ProgressReporter(ctx.db, ctx.dialect, ctx.store.id, input.progressId);
  try {
    return await importWithProgress(ctx, input, progress);
  } catch (e) {
    await progress.fail();
    throw e;
  }
}

async function importWithProgress(
  ctx: CallCtx,
  input: ParsedReqOf<typeof importMembers>,
  progress: ProgressReporter,
): Promise<ImportAnswer> {
  const storeId = ctx.store.id;
  await progress.set('read', 0, 0);
  const all = await readImportFile(input.fileName, input.content);
  const { sheets, leadSheet } = splitSheets(all);
  const rows = all.reduce((n, s) => n + s.rows.length, 0);
  await progress.set('check', 0, rows);
  const products = await productsOf(ctx.db, storeId);
  const now = localDateTime(ctx.store.timezone);
  const plan = planImport(sheets, input.mapping, products, now.slice(0, 10));
  // The store's members the file is about, and those its 共享成员 name (who must exist).
  const storeMembers = (ex: Executor) =>
    membersByMobile(ex, storeId, [...new Set([...plan.members.keys(), ...sharedMobiles(plan)])]);
  const before = await storeMembers(ctx.db);
  // The 潜客 sheet: a mobile already a member (of the store, or of this file) is reported.
  const membersHolding = async (mobiles: string[]) =>
    new Set([
      ...(await membersByMobile(ctx.db, storeId, mobiles)).keys(),
      ...mobiles.filter((m) => plan.members.has(m)),
    ]);
  const leadCheck = leadSheet
    ? await checkLeadSheet(ctx.db, storeId, leadSheet, membersHolding)
    : { rows: [], errors: [], warnings: [] };
  const problems = sortProblems([...plan.problems, ...shareProblems(plan, (m) => before.has(m)), ...leadCheck.errors]);
  const warned = [...(await prepaidWarnings(ctx, plan, products)), ...leadCheck.warnings];
  const warnings = { warnings: warned.slice(0, IMPORT_ERRORS_MAX), warningCount: warned.length };
  await progress.set('check', rows, rows);
  const errors = problems.slice(0, IMPORT_ERRORS_MAX);
  const count = (existing: Map<string, ExistingMember>) => {
    const skip = input.duplicates === 'skip';
    const kept = (c: FileCard) => !(skip && existing.has(c.mobile));
    let updated = 0;
    let skipped = 0;
    for (const [mobile, m] of plan.members) {
      const had = existing.get(mobile);
      if (!had) continue;
      if (skip) skipped += 1;
      else if (changesOf(had, m)) updated += 1;
    }
    return {
      members: plan.members.size - [...plan.members.keys()].filter((k) => existing.has(k)).length,
      updated,
      skipped,
      cards: plan.cards.filter(kept).length,
      leads: leadCheck.rows.filter((r) => r.mergedInto === null).length,
      leadsMerged: leadCheck.rows.filter((r) => r.mergedInto !== null).length,
    };
  };
  if (input.dryRun) {
    await progress.set('done', rows, rows);
    return { ...count(before), errors, errorCount: problems.length, ...warnings, auditId: null };
  }
  if (problems.length) throw badRequest(ImportMsg.hasErrors(problems.length), { errors });
  // The lock is its own row, committed before the import and removed after it: a second import of
  // the store meanwhile is refused at once (on any instance), a later one runs.
  const key = `${importMembers.path}:${storeId}`;
  const at = Date.now();
  await deleteStaleOpLock(ctx.db, key, at - STALE_LOCK_MS);
  if (!(await insertOpLock(ctx.db, key, storeId, at))) throw conflict(ImportMsg.busy);
  let done: Omit<ImportAnswer, 'errors' | 'errorCount' | 'warnings' | 'warningCount' | 'auditId'>;
  try {
    done = await inOwnTx(ctx.db, async (tx) => {
      // The same file and choices again within seconds is a repeat (请勿重复操作): its lock stays for the window.
      const hash = crypto
        .createHash('sha256')
        .update(JSON.stringify([input.content, input.mapping, input.duplicates]))
        .digest('hex')
        .slice(0, 32);
      const repeat = `${importMembers.path}#${storeId}:`;
      await deleteExpiredOpLocks(tx, storeId, repeat, Date.now() - REPEAT_WINDOW_MS);
      if (!(await insertOpLock(tx, repeat + hash, storeId, Date.now()))) throw conflict(Msg.duplicateOp);
      const existing = await storeMembers(tx);
      // A member the lists name gone meanwhile: the file has problems after all (nothing written).
      const gone = sortProblems(shareProblems(plan, (m) => existing.has(m)));
      if (gone.length) throw badRequest(ImportMsg.hasErrors(gone.length), { errors: gone });
      const result = await writeImport(tx, ctx, plan, existing, input.duplicates, now, progress);
      const leads = await writeLeadRows(tx, storeId, leadCheck.rows, { by: ctx.staff.id, now });
      await putSetting(tx, storeId, IMPORT_MAPPING_SETTING, JSON.stringify(input.mapping));
      const c = { ...count(existing), leads: leads.created, leadsMerged: leads.merged };
      const words = [
        `新增${c.members}位会员`,
        c.updated ? `更新${c.updated}位会员` : '',
        c.skipped ? `跳过${c.skipped}位已有会员` : '',
        `${c.cards}张会员卡`,
        leadSheet ? `新增${c.leads}位潜客` : '',
        c.leadsMerged ? `合并${c.leadsMerged}位已有潜客` : '',
      ];
      audit(tx, {
        kind: 'bulk',
        summary: `导入会员：${input.fileName}`,
        target: words.filter(Boolean).join('，'),
        targets: [...result.undo.members, ...result.undo.updated.map((u) => u.id)]
          .slice(0, NAMED_MEMBERS)
          .map((id) => ({ type: 'member' as const, id })),
        undo: { imported: leadSheet ? { ...result.undo, leads: leads.undo } : result.undo },
      });
      return c;
    });
  } finally {
    await deleteOpLock(ctx.db, key, at);
  }
  const auditId = await lastEntryOf(ctx.db, storeId, importMembers.path, ctx.staff.id);
  const written = done.members + done.cards;
  await progress.set('done', written, written);
  return { ...done, errors: [], errorCount: 0, ...warnings, auditId };
}

/** Rows per insert of the import: the progress moves after each. */
const WRITE_CHUNK = 1000;
const chunked = <T>(rows: T[]) =>
  Array.from({ length: Math.ceil(rows.length / WRITE_CHUNK) }, (_, i) =>
    rows.slice(i * WRITE_CHUNK, (i + 1) * WRITE_CHUNK),
  );

/**
 * Writes what the plan imports (under the import's lock), a chunk at a time with its progress
 * (members, then cards with their entries); answers what its undo needs.
 */
async function writeImport(
  tx: Tx,
  ctx: CallCtx,
  plan: ImportPlan,
  existing: Map<string, ExistingMember>,
  duplicates: 'merge' | 'skip',
  now: string,
  progress: ProgressReporter,
): Promise<{ undo: ImportUndo }> {
  const { members, cards } = plan;
  const storeId = ctx.store.id;
  const fresh = [...members.values()].filter((m) => !existing.has(m.mobile));
  const kept = cards.filter((c) => duplicates === 'merge' || !existing.has(c.mobile));
  const total = fresh.length + kept.length;
  let written = 0;
  await progress.set('write', 0, total);
  const ids = new Map<string, number>();
  for (const part of chunked(fresh)) {
    const made = await insertMembers(
      tx,
      part.map((m) => ({
        storeId,
        name: m.name,
        mobile: m.mobile,
        gender: m.gender ?? 0,
        birthday: m.birthday ?? null,
        remark: m.remark ?? null,
        createdAt: now,
      })),
    );
    for (const [mobile, id] of made) ids.set(mobile, id);
    written += part.length;
    await progress.set('write', written, total);
  }
  const updated: ImportUndo['updated'] = [];
  if (duplicates === 'merge') {
    for (const m of members.values()) {
      const had = existing.get(m.mobile);
      const set = had && changesOf(had, m);
      if (!had || !set) continue;
      updated.push({ id: had.id, name: had.name, gender: had.gender, birthday: had.birthday, remark: had.remark });
      await updateMember(tx, storeId, had.id, set);
    }
  }
  const memberOf = (mobile: string) =>
    ids.get(mobile) ?? (duplicates === 'merge' ? existing.get(mobile)?.id : undefined);
  // Cards in rounds of one card per member, so that each inserted card is known by its member.
  const rounds: { memberId: number; card: FileCard }[][] = [];
  const seen = new Map<number, number>();
  for (const card of cards) {
    const memberId = memberOf(card.mobile);
    if (memberId === undefined) continue;
    const n = seen.get(memberId) ?? 0;
    seen.set(memberId, n + 1);
    (rounds[n] ??= []).push({ memberId, card });
  }
  const cardIds: number[] = [];
  const leaveIds: number[] = [];
  const today = now.slice(0, 10);
  // A day of the file at the start of that day; a day still to come (a start) counts as sold today.
  const dayStart = (d: string) => `${d} 00:00:00`;
  for (const round of rounds.flatMap(chunked)) {
    const made = await insertCards(
      tx,
      round.map(({ memberId, card }) => ({
        storeId,
        memberId,
        cardId: card.productId,
        totalCount: card.remaining,
        usedCount: 0,
        startTime: dayStart(card.soldDate < today ? card.soldDate : today),
        expireTime: card.expireDate ? endOfDay(card.expireDate) : null,
        activateTime: card.startDate ? dayStart(card.startDate) : null,
        validDays: card.validDays,
        leaveDays: card.leaveDays,
        leavePeriods: JSON.stringify(card.leaves),
        frozen: card.frozen ? 1 : 0,
        refundedAt: card.refundDate ? dayStart(card.refundDate) : null,
        createdAt: card.soldDate < today ? dayStart(card.soldDate) : now,
      })),
    );
    const placed = round.map(({ memberId, card }) => ({ id: made.get(memberId)!, memberId, card }));
    const ledger = await insertLedger(
      tx,
      placed.map(({ id, card }) => ({
        storeId,
        memberCardId: id,
        kind: 'issue',
        amount: card.remaining,
        operatorId: ctx.staff.id,
        remark: OPENING_REMARK,
        createdAt: now,
      })),
    );
    await insertPayments(
      tx,
      placed
        .filter(({ card }) => card.paid > 0)
        .map(({ id, card }) => ({
          storeId,
          memberCardId: id,
          ledgerId: ledger.get(id) ?? null,
          kind: 'sale',
          amount: card.paid,
          method: 'other',
          staffId: null,
          remark: '导入',
          createdAt: dayStart(card.soldDate < today ? card.soldDate : today),
        })),
    );
    // Its leaves as approved ones (the days the booking rules and the expiry count), decided by the importer.
    leaveIds.push(
      ...(await insertLeaves(
        tx,
        placed.flatMap(({ id, memberId, card }) =>
          card.leaves.map(([fromDate, toDate]) => ({
            storeId,
            memberCardId: id,
            memberId,
            fromDate,
            toDate,
            days: leaveDays(fromDate, toDate),
            reason: LEAVE_REASON,
            status: 'approved',
            requestedBy: 'staff',
            staffId: ctx.staff.id,
            createdAt: now,
            decidedAt: now,
            decidedBy: ctx.staff.id,
          })),
        ),
      )),
    );
    // Its list (多人共享): the members named, the file's or the store's (merged or skipped alike).
    await insertSharesOfNewCards(
      tx,
      placed.flatMap(({ id, card }) =>
        card.shares.map((mobile) => ({
          storeId,
          memberCardId: id,
          memberId: ids.get(mobile) ?? existing.get(mobile)!.id,
          operatorId: ctx.staff.id,
          createdAt: now,
        })),
      ),
    );
    cardIds.push(...placed.map((p) => p.id));
    written += placed.length;
    await progress.set('write', written, total);
  }
  return { undo: { members: [...ids.values()], cards: cardIds, updated, leaves: leaveIds } };
}
