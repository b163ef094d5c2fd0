// Loaded on demand: ExcelJS is large and only needed when exporting.
import { EXPORT_COURSE_NAME_CHARS, sheetCell } from '@studio/contract';
import { bookingsOfSession } from '../hooks/batch.ts';
import type { SessionInfo } from '../types.ts';

/** One export row (spec section 3: the nine columns, and 单位, 场地, 状态). */
export interface ExportRowView {
  courseTime: string;
  teacher: string;
  member: string;
  card: string;
  /** The deduction as a number in `unit`: classes (次), or yuan (元). */
  amount: number;
  /** 次 or 元. */
  unit: string;
  mobile: string;
  courseName: string;
  /** The session's room or venue. */
  area: string | null;
  studentCount: number;
  remark: string | null;
  /** 已预约, 已到店, 已签到, 迟到取消 or 爽约. */
  state: string;
}

/**
 * The headings: the spec's nine (扣除 a number, its unit in 单位 beside it, so that a column of one
 * unit adds up in Excel), 场地 after the course, then what became of the booking (状态).
 */
export const EXPORT_HEADINGS = [
  '上课时间',
  '上课老师',
  '会员',
  '会员卡',
  '扣除',
  '单位',
  '手机号',
  '课程名称',
  '场地',
  '上课人数',
  '备注',
  '状态',
];
const WIDTHS = [20, 12, 12, 18, 10, 6, 14, 20, 16, 10, 24, 10];
/** The 扣除 column (1-based, as ExcelJS counts). */
const AMOUNT_COLUMN = 5;

/** Builds the workbook and starts the download of `<fileName>.xlsx`. */
export async function downloadXlsx(rows: ExportRowView[], fileName: string): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('预约');
  ws.columns = EXPORT_HEADINGS.map((h, i) => ({ header: h, key: String(i), width: WIDTHS[i] }));
  for (const r of rows) {
    const row = ws.addRow(
      [
        r.courseTime,
        r.teacher,
        r.member,
        r.card,
        r.amount,
        r.unit,
        r.mobile,
        r.courseName,
        r.area ?? '',
        r.studentCount,
        r.remark ?? '',
        r.state,
      ].map(sheetCell),
    );
    // Yuan with two decimals, classes as whole numbers: still numbers, so they add up.
    row.getCell(AMOUNT_COLUMN).numFmt = r.unit === '元' ? '0.00' : '0';
  }
  ws.getRow(1).font = { bold: true };
  const buf = await wb.xlsx.writeBuffer();
  const blob = new Blob([buf], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${fileName}.xlsx`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Characters no file system takes in a name (Windows' list, which covers the others): each becomes `_`. */
const NOT_IN_FILE_NAMES = /[\\/:*?"<>|]/g;

/**
 * File name of one session's export (spec section 9): the start time (`YYYY-MM-DD HHmm`: the colon
 * is not allowed in file names) plus the first 15 characters of the course name, with each of
 * \ / : * ? " < > | replaced by `_`.
 */
export function sessionFileName(s: Pick<SessionInfo, 'startTime' | 'courseName'>): string {
  const name = s.courseName.slice(0, EXPORT_COURSE_NAME_CHARS).replace(NOT_IN_FILE_NAMES, '_');
  return `${s.startTime.slice(0, 16).replace(':', '')}${name}`;
}

/** File name of a range export: 【团课】from-to预约. */
export function rangeFileName(from: string, to: string): string {
  return `【团课】${from}-${to}预约`;
}

/** Exports one session's bookings. */
export async function exportSession(s: SessionInfo): Promise<void> {
  const rows = await bookingsOfSession(s.id);
  await downloadXlsx(rows, sessionFileName(s));
}
