import type { Tx } from '../../db/index.ts';
import { leadImportChangedSince, undoLeadImport, type LeadImportUndo } from '../leads/public.ts';
import {
  cardsOfMembers,
  cardsWithMoreLedger,
  deleteImported,
  membersNamedAfter,
  membersWithActivity,
  restoreMember,
  targetsNamedAfter,
} from './undo-repository.ts';

/** What an import records for its undo: the members and cards it made, and members it changed as they were. */
export interface ImportUndo {
  members: number[];
  cards: number[];
  updated: { id: number; name: string; gender: number; birthday: string | null; remark: string | null }[];
  /** The leaves its cards came with (imports before these were recorded have none). */
  leaves?: number[];
  /** The leads of its 潜客 sheet (imports before these were recorded have none). */
  leads?: LeadImportUndo;
}

/** At most this many names in what an undo says changed. */
const NAMED = 3;

/**
 * What happened since the import to what it made or changed, in words (empty when nothing did): a
 * later audit entry about one of its members or cards (an edit, a booking, a sale), a card used or
 * topped up, a booking, pending, wait, leave or online order of one of them, a card sold to them,
 * one of them named on another card's list. The import's own lists (共享成员) are not: a share the
 * desk adds or takes off later is (its audit entry names the card and the members, its ledger note
 * is the card's).
 */
export async function importChangedSince(tx: Tx, storeId: number, entryId: number, f: ImportUndo): Promise<string[]> {
  const later = await membersNamedAfter(tx, storeId, [...f.members, ...f.updated.map((u) => u.id)], entryId);
  const cardNotes = await targetsNamedAfter(tx, storeId, 'card', f.cards, entryId);
  const used = await cardsWithMoreLedger(tx, f.cards);
  const active = await membersWithActivity(tx, f.members, f.leaves ?? [], f.cards);
  const mine = new Set(f.cards);
  const extra = (await cardsOfMembers(tx, f.members)).filter((c) => !mine.has(Number(c.id))).length;
  const out: string[] = [];
  for (const m of later.slice(0, NAMED)) out.push(`会员${m.name}之后有变动`);
  if (later.length > NAMED) out.push(`另有${later.length - NAMED}位导入的会员之后有变动`);
  const cardsChanged = new Set([...cardNotes, ...used.map((c) => Number(c.id))]).size;
  if (cardsChanged) out.push(`${cardsChanged}张导入的会员卡之后已使用或修改`);
  if (active && !later.length) out.push('导入的会员之后有预约、请假或订单');
  if (extra) out.push(`导入的会员之后新开了${extra}张卡`);
  if (f.leads) {
    const leadIds = [...f.leads.created, ...f.leads.merged.map((m) => m.id)];
    const laterLeads = await targetsNamedAfter(tx, storeId, 'lead', leadIds, entryId);
    out.push(...(await leadImportChangedSince(tx, storeId, f.leads, laterLeads)));
  }
  return out;
}

/**
 * Takes an import back: its cards with their lists, ledger and payments, its members, the members it
 * changed as they were, and its leads (those it made gone, those it merged into as they were).
 */
export async function undoImport(tx: Tx, storeId: number, f: ImportUndo): Promise<void> {
  if (f.leads) await undoLeadImport(tx, storeId, f.leads);
  await deleteImported(tx, storeId, f.cards, f.members);
  for (const u of f.updated) await restoreMember(tx, storeId, u);
}
