import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import {
  sheetCell,
  BIG_TYPE_MONEY,
  IMPORT_FIELD_LABEL,
  IMPORT_FIELDS,
  IMPORT_LEAVE_JOIN,
  IMPORT_LEAVES_SEPARATOR,
  IMPORT_SHARE_SEPARATOR,
  PAY_ORDER_STATUS,
  PAY_ORDER_STATUS_LABEL,
  type CardActivation,
  type ExportFormat,
  type ImportCardStatus,
} from '@studio/contract';
import type { Dialect, Executor } from '../../db/index.ts';
import { activateBy, activationDateOf, sharersOf } from '../cards/public.ts';
import { ProgressReporter } from './progress.ts';
import {
  bookingPage,
  cardPage,
  EXPORT_PAGE,
  exportTotals,
  ledgerPage,
  memberPage,
  orderPage,
  paymentPage,
  sessionPage,
} from './export-repository.ts';

type Cell = string | number | null;
/** One sheet of the export: its name, its columns (JSON key and heading) and how to read it page by page. */
interface SheetDef {
  name: string;
  key: string;
  columns: { key: string; header: string }[];
  page: (ex: Executor, storeId: number, after: number) => Promise<{ id: number }[]>;
  /** A row's cells; `today`: the store's day (a card's state as it stands). */
  row: (r: any, today: string) => Cell[];
}

const GENDER = ['', '男', '女'];
const yuan = (fen: number) => Math.round(Number(fen)) / 100;
const balance = (bigType: number, n: number) => (bigType === BIG_TYPE_MONEY ? yuan(n) : Number(n));
const day = (t: string | null) => (t ? t.slice(0, 10) : '');
const LEDGER_KIND: Record<string, string> = {
  issue: '开卡',
  topup: '充值',
  deduct: '扣除',
  refund: '退回',
  adjust: '调整',
  card_refund: '退卡',
  topup_refund: '退充值',
  refund_undone: '退款未成功退回',
  referral: '转介绍奖励',
  referral_undone: '撤销转介绍奖励',
  waive: '免除',
};
const BOOKING_STATE: Record<number, string> = { 1: '已预约', 2: '已签到', 3: '已取消' };
const PAYMENT_KIND: Record<string, string> = { sale: '售卡', topup: '充值', refund: '退款' };
const METHOD: Record<string, string> = {
  cash: '现金',
  wechat: '微信',
  alipay: '支付宝',
  card: '银行卡',
  other: '其他',
};
const cols = (pairs: [string, string][]) => pairs.map(([key, header]) => ({ key, header }));

interface CardRow {
  activateTime: string | null;
  createdAt: string;
  activation: CardActivation;
  activateWithinDays: number;
  frozen: number;
  refundedAt: string | null;
  leavePeriods: string;
}

/**
 * A card's state in the import's columns (卡状态, 开卡日期, 激活截止, 请假记录), so that it imports back
 * as it is: started on a day; a start still to come (指定日期开卡); or 首次上课开卡 not started, with
 * the last day it starts (激活截止) and no start.
 */
export function cardState(c: CardRow, today: string) {
  const product = { activation: c.activation, activateWithinDays: Number(c.activateWithinDays) };
  const started = activationDateOf(c, product, today);
  // A card without a start of a product that starts on sale (kept from before 开卡方式): its sale.
  const start =
    started ?? c.activateTime?.slice(0, 10) ?? (c.activation === 'first_class' ? '' : c.createdAt.slice(0, 10));
  const notStarted = !started && (start === '' || start > today);
  const status: ImportCardStatus = c.refundedAt ? '已退卡' : c.frozen ? '冻结' : notStarted ? '未开卡' : '正常';
  return {
    status,
    start,
    activateBy: start ? '' : activateBy(c.createdAt, product),
    leaves: (JSON.parse(c.leavePeriods || '[]') as [string, string][])
      .map(([from, to]) => `${from}${IMPORT_LEAVE_JOIN}${to}`)
      .join(IMPORT_LEAVES_SEPARATOR),
  };
}
const MEMBER_FIELDS = IMPORT_FIELDS.slice(0, 5);

/** A page of cards, each with its list (多人共享) as 共享成员 writes it: the mobiles in the order added. */
async function cardsWithShares(ex: Executor, storeId: number, after: number) {
  const page = await cardPage(ex, storeId, after);
  const sharers = await sharersOf(
    ex,
    storeId,
    page.map((c) => c.id),
  );
  return page.map((c) => ({
    ...c,
    shares: (sharers.get(c.id) ?? []).map((m) => m.mobile).join(IMPORT_SHARE_SEPARATOR),
  }));
}

/** The workbook's sheets: 会员 and 会员卡 in the import template's columns (the file imports back), then the records. */
export const SHEETS: SheetDef[] = [
  {
    name: '会员',
    key: 'members',
    columns: MEMBER_FIELDS.map((f) => ({ key: f, header: IMPORT_FIELD_LABEL[f] })),
    page: memberPage,
    row: (m) => [m.name, m.mobile, GENDER[m.gender] ?? '', m.birthday ?? '', m.remark ?? ''],
  },
  {
    name: '会员卡',
    key: 'cards',
    columns: IMPORT_FIELDS.map((f) => ({ key: f, header: IMPORT_FIELD_LABEL[f] })),
    page: cardsWithShares,
    row: (c, today) => {
      const state = cardState(c, today);
      return [
        c.name,
        c.mobile,
        GENDER[c.gender] ?? '',
        c.birthday ?? '',
        c.remark ?? '',
        c.cardName,
        balance(c.bigType, Number(c.totalCount) - Number(c.usedCount)),
        day(c.expireTime),
        state.start,
        c.paid === null || c.paid === undefined ? '' : yuan(Math.max(0, Number(c.paid))),
        state.status,
        state.activateBy,
        state.leaves,
        Number(c.leaveDays) || '',
        day(c.refundedAt),
        c.shares,
      ];
    },
  },
  {
    name: '流水',
    key: 'ledger',
    columns: cols([
      ['id', '流水号'],
      ['cardId', '会员卡编号'],
      ['name', '姓名'],
      ['mobile', '手机号'],
      ['cardName', '卡种'],
      ['kind', '类型'],
      ['amount', '数量（次或元）'],
      ['bookingId', '预约编号'],
      ['remark', '备注'],
      ['time', '时间'],
    ]),
    page: ledgerPage,
    row: (l) => [
      l.id,
      l.memberCardId,
      l.name,
      l.mobile,
      l.cardName,
      LEDGER_KIND[l.kind] ?? l.kind,
      balance(l.bigType, l.amount),
      l.reservationId ?? '',
      l.remark ?? '',
      l.createdAt,
    ],
  },
  {
    name: '预约',
    key: 'bookings',
    columns: cols([
      ['id', '预约编号'],
      ['sessionId', '课程编号'],
      ['name', '姓名'],
      ['mobile', '手机号'],
      ['course', '课程'],
      ['start', '上课时间'],
      ['cardId', '会员卡编号'],
      ['people', '人数'],
      ['used', '扣除'],
      ['state', '状态'],
      ['booked', '预约时间'],
      ['cancelled', '取消时间'],
      ['remark', '备注'],
    ]),
    page: bookingPage,
    row: (r) => [
      r.id,
      r.sessionId,
      r.name,
      r.mobile,
      r.courseName,
      r.startTime,
      r.memberCardId,
      r.studentCount,
      Number(r.usedCount),
      BOOKING_STATE[r.status] ?? String(r.status),
      r.createTime,
      r.cancelTime ?? '',
      r.remark ?? '',
    ],
  },
  {
    name: '课程',
    key: 'sessions',
    columns: cols([
      ['id', '课程编号'],
      ['course', '课程'],
      ['teacher', '老师'],
      ['area', '场地'],
      ['start', '开始时间'],
      ['end', '结束时间'],
      ['capacity', '可约人数'],
      ['booked', '已约人数'],
      ['online', '线上课'],
      ['deleted', '已删除'],
    ]),
    page: sessionPage,
    row: (t) => [
      t.id,
      t.courseName,
      t.teacherName,
      t.areaName ?? '',
      t.startTime,
      t.endTime,
      t.reservableCount,
      t.realCount,
      t.isOnline ? '是' : '',
      t.deleted ? '是' : '',
    ],
  },
  {
    name: '订单',
    key: 'orders',
    columns: cols([
      ['orderNo', '订单号'],
      ['name', '姓名'],
      ['mobile', '手机号'],
      ['kind', '类型'],
      ['description', '内容'],
      ['amount', '金额（元）'],
      ['refunded', '已退款（元）'],
      ['method', '支付方式'],
      ['status', '状态'],
      ['created', '下单时间'],
      ['paid', '支付时间'],
    ]),
    page: orderPage,
    row: (o) => [
      o.orderNo,
      o.name,
      o.mobile,
      o.kind === 'card' ? '购卡' : '充值',
      o.description,
      yuan(o.amount),
      yuan(o.refunded),
      METHOD[o.method] ?? o.method,
      PAY_ORDER_STATUS_LABEL[PAY_ORDER_STATUS[o.status as keyof typeof PAY_ORDER_STATUS]] ?? String(o.status),
      o.createdAt,
      o.paidAt ?? '',
    ],
  },
  {
    name: '收款',
    key: 'payments',
    columns: cols([
      ['id', '编号'],
      ['cardId', '会员卡编号'],
      ['name', '姓名'],
      ['mobile', '手机号'],
      ['cardName', '卡种'],
      ['kind', '类型'],
      ['amount', '金额（元）'],
      ['method', '方式'],
      ['channel', '渠道'],
      ['staff', '经手人'],
      ['remark', '备注'],
      ['time', '时间'],
    ]),
    page: paymentPage,
    row: (p) => [
      p.id,
      p.memberCardId,
      p.name,
      p.mobile,
      p.cardName,
      PAYMENT_KIND[p.kind] ?? p.kind,
      yuan(p.amount),
      METHOD[p.method] ?? p.method,
      p.channel === 'online' ? '线上' : '前台',
      p.staffName ?? '',
      p.remark ?? '',
      p.createdAt,
    ],
  },
];

/** Every row of a sheet, a page at a time (keyset on id): never more than a page in memory. */
async function* rowsOf(ex: Executor, storeId: number, sheet: SheetDef, today: string): AsyncGenerator<Cell[][]> {
  let after = 0;
  for (;;) {
    const page = await sheet.page(ex, storeId, after);
    if (!page.length) return;
    yield page.map((r) => sheet.row(r, today));
    if (page.length < EXPORT_PAGE) return;
    after = Number(page[page.length - 1].id);
  }
}

/** Waits while the reader is behind (the client downloads slower than the pages are read). */
async function keepUp(out: Writable) {
  if (out.writableNeedDrain) await once(out, 'drain');
}

/** Counts the rows written against the store's total and reports them (a page at a time). */
class RowCount {
  done = 0;
  constructor(
    private readonly progress: ProgressReporter,
    readonly total: number,
  ) {}
  async add(n: number) {
    this.done += n;
    await this.progress.set('export', this.done, Math.max(this.total, this.done));
  }
}

/** Writes the store's data as one .xlsx workbook into `out`, page by page, and ends it. */
async function writeWorkbook(ex: Executor, storeId: number, today: string, out: PassThrough, count: RowCount) {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  for (const sheet of SHEETS) {
    const ws = wb.addWorksheet(sheet.name);
    ws.columns = sheet.columns.map((c) => ({ header: c.header, key: c.key, width: 14 }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    for await (const rows of rowsOf(ex, storeId, sheet, today)) {
      for (const r of rows) ws.addRow(r.map(sheetCell)).commit();
      await count.add(rows.length);
      await keepUp(out);
    }
    ws.commit();
  }
  await wb.commit();
}

/** Writes the store's data as JSON (`{store, exportedAt, members: [...], cards: [...], ...}`) into `out`. */
async function writeJson(
  ex: Executor,
  store: { id: number; name: string },
  now: string,
  out: PassThrough,
  count: RowCount,
) {
  out.write(`{"store":${JSON.stringify(store.name)},"exportedAt":${JSON.stringify(now)}`);
  for (const sheet of SHEETS) {
    out.write(`,${JSON.stringify(sheet.key)}:[`);
    let first = true;
    for await (const rows of rowsOf(ex, store.id, sheet, now.slice(0, 10))) {
      let text = '';
      for (const r of rows) {
        const o: Record<string, Cell> = {};
        sheet.columns.forEach((c, i) => (o[c.key] = r[i] ?? null));
        text += (first ? '' : ',') + JSON.stringify(o);
        first = false;
      }
      await count.add(rows.length);
      if (!out.write(text)) await keepUp(out);
    }
    out.write(']');
  }
  out.end('}');
}

/**
 * A stream of the store's data in `format`, filled as it is read (errors end the stream). With a
 * `progressId` the rows written so far and the store's total (counted first) are reported
 * (query/job/progress); the last report, 已完成, comes once the whole file is handed to the stream.
 */
export function exportStream(
  ex: Executor,
  dialect: Dialect,
  store: { id: number; name: string },
  format: ExportFormat,
  now: string,
  progressId: string | undefined,
  onError: (e: unknown) => void,
): PassThrough {
  const out = new PassThrough({ highWaterMark: 1024 * 1024 });
  const progress = new ProgressReporter(ex, dialect, store.id, progressId);
  const work = async () => {
    await progress.set('export', 0, 0);
    const count = new RowCount(progress, progressId ? await exportTotals(ex, store.id) : 0);
    await progress.set('export', 0, count.total);
    if (format === 'xlsx') await writeWorkbook(ex, store.id, now.slice(0, 10), out, count);
    else await writeJson(ex, store, now, out, count);
    await progress.set('done', count.done, count.done);
  };
  work().catch(async (e) => {
    onError(e);
    await progress.fail();
    out.destroy(e instanceof Error ? e : new Error(String(e)));
  });
  return out;
}
