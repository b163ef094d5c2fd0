import {
  BIG_TYPE_MONEY,
  CARD_TYPE_NO_EXPIRY,
  IMPORT_CARD_STATUSES,
  IMPORT_FIELD_ALIASES,
  IMPORT_FIELD_LABEL,
  IMPORT_FIELDS,
  ImportMsg,
  MAX_NAME,
  MAX_TEXT,
  readWrittenMobile,
  zMobile,
  type CardActivation,
  type ImportCardStatus,
  type ImportField,
  type ImportMapping,
  type ImportProblem,
  type ImportTarget,
} from '@studio/contract';
import { badRequest } from '../../lib/errors.ts';
import { addDays, daysBetween } from '../../lib/time.ts';
import { leaveDays } from '../cards/public.ts';
import type { FileSheet } from './read-file.ts';

/** A card product as the import matches it by name. */
export interface ImportProduct {
  id: number;
  cardName: string;
  bigType: number;
  /** Lessons a booking takes (0: a 期限卡); with bigType, the kind the prepaid limits see. */
  perCount: number;
  cardType: number;
  validDays: number | null;
  enabled: number;
  activation: CardActivation;
  activateWithinDays: number;
  /** 共享人数: how many members besides the holder a card of it may name (0: not shared). */
  shareMax: number;
}

/** A member as the file describes it (fields it leaves empty are undefined). */
export interface FileMember {
  mobile: string;
  name: string;
  gender?: number;
  birthday?: string;
  remark?: string;
}

/**
 * A card the file gives a member: balance (count, or fen), validity from its start, and its state
 * (卡状态, 激活截止, 请假记录, 退卡日期) so that expiry = start + validity + leave days holds as it did.
 */
export interface FileCard {
  mobile: string;
  productId: number;
  remaining: number;
  /** The day it started or starts (a start still to come: 指定日期开卡); null: 首次上课开卡 not started. */
  startDate: string | null;
  /** The day it counts as sold: its start, or for one not started the day its last day to start implies. */
  soldDate: string;
  /** Null: the product never expires. */
  validDays: number | null;
  expireDate: string | null;
  paid: number;
  frozen: boolean;
  /** The day it was refunded (已退卡: closed, balance 0), or null. */
  refundDate: string | null;
  /** Its leaves (请假), first and last day each, and the days they hold together. */
  leaves: [string, string][];
  leaveDays: number;
  /** 共享成员: the mobiles of the members it is shared with (多人共享), in the order added. */
  shares: string[];
  /** Where the row's 共享成员 is (its members are looked up in the store after reading: `shareProblems`). */
  at: { sheet: string; row: number; column: string };
}

export interface ImportPlan {
  members: Map<string, FileMember>;
  cards: FileCard[];
  problems: ImportProblem[];
  /** Every mobile the file's rows are for (rows with problems too): a member the file is about. */
  mobiles: Set<string>;
}

const MOBILE = zMobile();
const mobileOk = (m: string) => MOBILE.safeParse(m).success;
/** Control characters (not tab or line breaks): what no name, mobile or remark holds. */
const hasControl = (s: string) => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
  }
  return false;
};
const MONEY = /^-?\d+(\.\d{1,2})?$/;
const MAX_AMOUNT = 100_000_000_00;
const MAX_CLASSES = 100_000;

const norm = (s: string) => s.replace(/[\s_（）()：:]/g, '').toLowerCase();

/** The mapping a file's headings suggest: each field to the first column named like it. */
export function guessMapping(columns: string[], remembered: ImportMapping): ImportMapping {
  const out: ImportMapping = {};
  const taken = new Set<ImportTarget>();
  for (const c of columns) {
    const kept = remembered[c];
    if (kept && (kept === 'ignore' || !taken.has(kept))) {
      out[c] = kept;
      taken.add(kept);
    }
  }
  for (const c of columns) {
    if (out[c]) continue;
    const n = norm(c);
    const field = IMPORT_FIELDS.find((f) => !taken.has(f) && IMPORT_FIELD_ALIASES[f].some((a) => norm(a) === n));
    out[c] = field ?? 'ignore';
    if (field) taken.add(field);
  }
  return out;
}

/** The column index of each mapped field, checked: 400 when it names a missing column, a field twice, or lacks one. */
export function columnsOf(header: string[], all: string[], mapping: ImportMapping) {
  for (const column of Object.keys(mapping)) {
    if (!all.includes(column)) throw badRequest(ImportMsg.mappingUnknownColumn(column));
  }
  const used = new Map<ImportField, string>();
  for (const [column, field] of Object.entries(mapping)) {
    if (field === 'ignore') continue;
    if (used.has(field)) throw badRequest(ImportMsg.mappingTwice(IMPORT_FIELD_LABEL[field]));
    used.set(field, column);
  }
  if (!used.has('name') || !used.has('mobile')) throw badRequest(ImportMsg.mappingNeeds);
  if (used.has('cardName') !== used.has('remaining')) throw badRequest(ImportMsg.mappingCardNeeds);
  const at = {} as Partial<Record<ImportField, { index: number; column: string }>>;
  for (const [field, column] of used) {
    const index = header.indexOf(column);
    if (index >= 0) at[field] = { index, column };
  }
  return at;
}

/** `YYYY-MM-DD` from the ways dates are written (2025-1-2, 2025/01/02, 2025.1.2, 20250102, 2025年1月2日, an Excel day number). */
export function parseDate(s: string): string | null {
  let m: string[] | null = /^(\d{4})[-/.年](\d{1,2})[-/.月](\d{1,2})日?(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/.exec(s);
  if (!m && /^\d{8}$/.test(s)) m = [s, s.slice(0, 4), s.slice(4, 6), s.slice(6, 8)];
  if (!m && /^\d{5}$/.test(s)) {
    // Excel's day number (1900 system) when a date cell was saved as plain text.
    const d = new Date(Date.UTC(1899, 11, 30) + Number(s) * 86_400_000);
    return d.toISOString().slice(0, 10);
  }
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  if (y < 1900 || y > 2200 || dt.getUTCMonth() !== mo - 1 || dt.getUTCDate() !== d) return null;
  return dt.toISOString().slice(0, 10);
}

function parseGender(s: string): number | null | undefined {
  if (s === '') return undefined;
  const v = s.toLowerCase();
  if (['男', 'm', 'male', '1'].includes(v)) return 1;
  if (['女', 'f', 'female', '2'].includes(v)) return 2;
  if (['未知', '0', '-'].includes(v)) return 0;
  return null;
}

/** Yuan text to fen (at most two decimals), or null. */
function fenOf(s: string): number | null {
  const t = s.replace(/[,，¥￥元\s]/g, '');
  if (!MONEY.test(t)) return null;
  const [whole, frac = ''] = t.replace('-', '').split('.');
  const fen = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return t.startsWith('-') ? -fen : fen;
}

/**
 * Reads every row of the file against the mapping and the store's card products: the members (one
 * per mobile, later rows filling what earlier ones left empty) and cards it would import, and every
 * problem with its row, column and reason. Nothing is looked up in the database here but the
 * products given.
 */
export function planImport(
  sheets: FileSheet[],
  mapping: ImportMapping,
  products: ImportProduct[],
  today: string,
): ImportPlan {
  const all = [...new Set(sheets.flatMap((s) => s.header))];
  const byName = new Map(products.map((p) => [p.cardName.trim(), p]));
  const members = new Map<string, FileMember & { row: number; sheet: string; memberRow: boolean }>();
  const cards: FileCard[] = [];
  const problems: ImportProblem[] = [];
  const mobiles = new Set<string>();
  const multi = sheets.length > 1;
  // Checked once for the whole file, before any row.
  for (const s of sheets) columnsOf(s.header, all, mapping);
  for (const sheet of sheets) {
    const at = columnsOf(sheet.header, all, mapping);
    const sheetName = multi ? sheet.name : '';
    for (const { row, cells } of sheet.rows) {
      const said: ImportProblem[] = [];
      const problem = (field: ImportField | '', message: string) =>
        said.push({
          sheet: sheetName,
          row,
          column: field ? (at[field]?.column ?? IMPORT_FIELD_LABEL[field]) : '',
          message,
        });
      const get = (f: ImportField) => {
        const a = at[f];
        return a ? (cells[a.index] ?? '').trim() : '';
      };
      for (const f of IMPORT_FIELDS) if (hasControl(get(f))) problem(f, ImportMsg.textControl);
      const name = get('name');
      if (!name) problem('name', ImportMsg.nameMissing);
      else if (name.length > MAX_NAME) problem('name', ImportMsg.nameTooLong);
      const mobileText = readWrittenMobile(get('mobile'));
      if (!mobileText) problem('mobile', ImportMsg.mobileMissing);
      else if (!mobileOk(mobileText)) problem('mobile', ImportMsg.mobileBad);
      else mobiles.add(mobileText);
      const gender = parseGender(get('gender'));
      if (gender === null) problem('gender', ImportMsg.genderBad);
      const birthdayText = get('birthday');
      const birthday = birthdayText ? parseDate(birthdayText) : undefined;
      if (birthday === null) problem('birthday', ImportMsg.birthdayBad);
      else if (birthday && birthday > today) problem('birthday', ImportMsg.birthdayFuture);
      const remark = get('remark');
      if (remark.length > MAX_TEXT) problem('remark', ImportMsg.remarkTooLong);

      const card = planCard(get, problem, byName, today, mobileText);
      if (said.length === 0) {
        const mine = members.get(mobileText);
        if (mine && mine.name !== name) problem('name', ImportMsg.sameMobileOtherName(mine.row));
        else if (mine && !card && mine.memberRow) problem('mobile', ImportMsg.sameMobileTwice(mine.row));
      }
      if (said.length) {
        problems.push(...said);
        continue;
      }
      const mine = members.get(mobileText);
      if (!mine) {
        members.set(mobileText, {
          mobile: mobileText,
          name,
          gender: gender ?? undefined,
          birthday: birthday ?? undefined,
          remark: remark || undefined,
          row,
          sheet: sheetName,
          memberRow: !card,
        });
      } else {
        mine.gender ??= gender ?? undefined;
        mine.birthday ??= birthday ?? undefined;
        mine.remark ??= remark || undefined;
        if (!card) mine.memberRow = true;
      }
      if (card) {
        const column = at.sharedWith?.column ?? IMPORT_FIELD_LABEL.sharedWith;
        cards.push({ ...card, mobile: mobileText, at: { sheet: sheetName, row, column } });
      }
    }
  }
  const out = new Map<string, FileMember>();
  for (const [k, m] of members) {
    out.set(k, { mobile: m.mobile, name: m.name, gender: m.gender, birthday: m.birthday, remark: m.remark });
  }
  return { members: out, cards, problems: sortProblems(problems), mobiles };
}

/** Problems in the file's order: the 会员 sheet before 会员卡, by row (a row's own in the order found). */
export const sortProblems = (problems: ImportProblem[]) =>
  problems.sort((a, b) => (a.sheet === b.sheet ? a.row - b.row : a.sheet < b.sheet ? 1 : -1));

/** The mobiles the cards' 共享成员 name (to look up in the store). */
export const sharedMobiles = (plan: ImportPlan) => [...new Set(plan.cards.flatMap((c) => c.shares))];

/**
 * 共享成员 naming a member that will not exist: neither a member the file is about nor one of the
 * store (`inStore`). Whether the store's members are merged or skipped does not matter: either way
 * the member exists after the import, and the card names them.
 */
export function shareProblems(plan: ImportPlan, inStore: (mobile: string) => boolean): ImportProblem[] {
  const out: ImportProblem[] = [];
  for (const c of plan.cards) {
    const missing = c.shares.find((m) => !plan.mobiles.has(m) && !inStore(m));
    if (missing) out.push({ ...c.at, message: ImportMsg.shareUnknown(missing) });
  }
  return out;
}

/**
 * 共享成员 as mobiles (separated by 、，, ; or ；), each checked: a valid mobile, not the holder's
 * (`own`), not twice; answers the list or the first problem.
 */
function parseShares(text: string, own: string): { shares: string[] } | { problem: string } {
  const shares: string[] = [];
  for (const part of text.split(/[、，,;；\n]/)) {
    const written = part.trim();
    if (!written) continue;
    const m = readWrittenMobile(written);
    if (!mobileOk(m))
      return { problem: ImportMsg.shareMobileBad(written.length > 20 ? `${written.slice(0, 20)}…` : written) };
    if (m === own) return { problem: ImportMsg.shareSelf };
    if (shares.includes(m)) return { problem: ImportMsg.shareTwice(m) };
    shares.push(m);
  }
  return { shares };
}

const STATUS_READ: Record<string, ImportCardStatus> = {
  ...Object.fromEntries(IMPORT_CARD_STATUSES.map((x) => [x, x])),
  '': '正常',
  请假中: '正常',
  已过期: '正常',
  已冻结: '冻结',
  退卡: '已退卡',
};

/** 请假记录 as leaves (`2026-01-01至2026-01-10；...`, also with ~ or - between the days), or null when unreadable. */
export function parseLeaves(text: string): [string, string][] | null {
  if (!text) return [];
  const out: [string, string][] = [];
  for (const part of text
    .split(/[；;，,\n]/)
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\S+?)\s*(?:至|~|～|到|—)\s*(\S+)$/.exec(part);
    const from = m ? parseDate(m[1]) : null;
    const to = m ? parseDate(m[2]) : null;
    if (!from || !to || to < from) return null;
    out.push([from, to]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The card a row gives (undefined when it gives none), its problems said through `problem`. */
function planCard(
  get: (f: ImportField) => string,
  problem: (f: ImportField, message: string) => void,
  byName: Map<string, ImportProduct>,
  today: string,
  own: string,
): Omit<FileCard, 'mobile' | 'at'> | undefined {
  const cardName = get('cardName');
  const remainingText = get('remaining').replace(/[,，\s元次¥￥]/g, '');
  const expireText = get('expireDate');
  const saleText = get('saleDate');
  const paidText = get('amountPaid');
  const stateFields = (['status', 'activateBy', 'leaves', 'leaveDays', 'refundDate'] as const).filter((f) => get(f));
  if (!cardName && !remainingText) {
    if (paidText) problem('amountPaid', ImportMsg.paidWithoutCard);
    if (expireText || saleText) problem(expireText ? 'expireDate' : 'saleDate', ImportMsg.cardFieldsWithoutCard);
    if (stateFields.length) problem(stateFields[0], ImportMsg.cardStateWithoutCard);
    if (get('sharedWith')) problem('sharedWith', ImportMsg.shareWithoutCard);
    return undefined;
  }
  let bad = false;
  const fail = (f: ImportField, message: string) => {
    bad = true;
    problem(f, message);
  };
  const product = cardName ? byName.get(cardName) : undefined;
  if (!cardName) fail('cardName', ImportMsg.cardMissing);
  else if (!product) fail('cardName', ImportMsg.cardUnknown);
  else if (!product.enabled) fail('cardName', ImportMsg.cardDisabled);
  let remaining = 0;
  if (!remainingText) fail('remaining', ImportMsg.remainingMissing);
  else if (!/^-?\d+(\.\d+)?$/.test(remainingText)) fail('remaining', ImportMsg.remainingBad);
  else if (remainingText.startsWith('-')) fail('remaining', ImportMsg.remainingNegative);
  else if (product) {
    if (product.bigType === BIG_TYPE_MONEY) {
      remaining = fenOf(remainingText) ?? 0;
      if (!MONEY.test(remainingText)) fail('remaining', ImportMsg.remainingMoneyCents);
      else if (remaining > MAX_AMOUNT) fail('remaining', ImportMsg.remainingTooBig);
    } else if (!/^\d+$/.test(remainingText)) fail('remaining', ImportMsg.remainingCountWhole);
    else {
      remaining = Number(remainingText);
      if (remaining > MAX_CLASSES) fail('remaining', ImportMsg.remainingTooBig);
    }
  }
  // 卡状态: what the card was; whether it has started follows from 开卡日期 and 激活截止.
  const status = STATUS_READ[get('status')];
  if (!status) fail('status', ImportMsg.statusBad);
  const refundText = get('refundDate');
  let refundDate: string | null = null;
  if (status === '已退卡') {
    if (remaining !== 0) fail('remaining', ImportMsg.refundedHasBalance);
    refundDate = refundText ? parseDate(refundText) : today;
    if (refundDate === null) fail('refundDate', ImportMsg.refundDateBad);
    else if (refundDate > today) fail('refundDate', ImportMsg.refundDateFuture);
  } else if (refundText) fail('refundDate', ImportMsg.refundDateNotRefunded);
  const byText = get('activateBy');
  const activateBy = byText ? parseDate(byText) : undefined;
  if (activateBy === null) fail('activateBy', ImportMsg.activateByBad);
  const sale = saleText ? parseDate(saleText) : undefined;
  if (sale === null) fail('saleDate', ImportMsg.saleBad);
  // Not started: 未开卡, or (a frozen or refunded card) a last day to start without a start.
  const notStarted = status === '未开卡' || (!saleText && activateBy !== undefined);
  // A start still to come is a 指定日期开卡 card's (未开卡, or frozen before it).
  if (sale && sale > today && !(status === '未开卡' || status === '冻结')) fail('saleDate', ImportMsg.saleFuture);
  if (status === '未开卡' && sale && sale <= today) fail('saleDate', ImportMsg.notStartedDate);
  if (activateBy && sale) fail('activateBy', ImportMsg.activateByStarted);
  const firstClass = product?.activation === 'first_class';
  if (notStarted && !sale && product && !firstClass) fail('saleDate', ImportMsg.notStartedNeedsFirstClass);
  // A 首次上课开卡 card not started: sold on the day its last day to start implies (that day less the
  // product's days to start), so that it starts at the latest on that day, as it did.
  const startLatest =
    notStarted && !sale && product ? (activateBy ?? addDays(today, product.activateWithinDays)) : null;
  const soldDate = startLatest && product ? addDays(startLatest, -product.activateWithinDays) : (sale ?? today);
  if (startLatest && soldDate > today) fail('activateBy', ImportMsg.activateByTooLate);
  const startDate = notStarted && !sale ? null : (sale ?? today);
  const expire = expireText ? parseDate(expireText) : undefined;
  if (expire === null) fail('expireDate', ImportMsg.expireBad);
  let paid = 0;
  if (paidText) {
    const fen = fenOf(paidText);
    if (fen === null) fail('amountPaid', ImportMsg.paidBad);
    else if (fen < 0) fail('amountPaid', ImportMsg.paidNegative);
    else if (fen > MAX_AMOUNT) fail('amountPaid', ImportMsg.paidBad);
    else paid = fen;
  }
  const leaves = parseLeaves(get('leaves'));
  if (leaves === null) fail('leaves', ImportMsg.leavesBad);
  else if (leaves.some((l, i) => i > 0 && l[0] <= leaves[i - 1][1])) fail('leaves', ImportMsg.leavesOverlap);
  // 共享成员: within the product's 共享人数 (the list of a refunded or frozen card moves as it is).
  const read = parseShares(get('sharedWith'), own);
  const shares = 'shares' in read ? read.shares : [];
  if ('problem' in read) fail('sharedWith', read.problem);
  else if (shares.length && product && product.shareMax <= 0) fail('sharedWith', ImportMsg.shareNotShared);
  else if (product && shares.length > product.shareMax) fail('sharedWith', ImportMsg.shareTooMany(product.shareMax));
  const held = (leaves ?? []).reduce((n, [from, to]) => n + leaveDays(from, to), 0);
  const daysText = get('leaveDays').replace(/[天\s]/g, '');
  if (daysText && !/^\d+$/.test(daysText)) fail('leaveDays', ImportMsg.leaveDaysBad);
  else if (daysText && leaves && Number(daysText) !== held) fail('leaveDays', ImportMsg.leaveDaysMismatch(held));
  if (!product || sale === null || expire === null || activateBy === null || !status || leaves === null)
    return undefined;
  // Validity counts from the start (or the last day to start), less the days of leave in the expiry.
  const from = startDate ?? startLatest!;
  let validDays: number | null = null;
  let expireDate: string | null = null;
  if (product.cardType === CARD_TYPE_NO_EXPIRY) {
    if (expire) fail('expireDate', ImportMsg.expireNotAllowed);
    if (leaves.length) fail('leaves', ImportMsg.leavesNoExpiry);
  } else if (expire) {
    validDays = daysBetween(from, expire) - held;
    expireDate = expire;
    if (validDays < 0) fail('expireDate', ImportMsg.expireBeforeSale);
  } else if (product.validDays !== null) {
    validDays = Number(product.validDays);
    expireDate = addDays(from, validDays + held);
  } else fail('expireDate', ImportMsg.expireMissing);
  if (bad) return undefined;
  return {
    productId: product.id,
    remaining,
    startDate,
    soldDate,
    validDays,
    expireDate,
    paid,
    frozen: status === '冻结',
    refundDate,
    leaves,
    leaveDays: held,
    shares,
  };
}
