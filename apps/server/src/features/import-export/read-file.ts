import { IMPORT_COLUMNS_MAX, IMPORT_ROWS_MAX, ImportMsg } from '@studio/contract';
import { decodeText } from '../../lib/decode-text.ts';
import { badRequest } from '../../lib/errors.ts';

/** One sheet of an import file: its headings and data rows as text, with their row numbers. */
export interface FileSheet {
  /** '' for a CSV file or a workbook read by its first sheet. */
  name: string;
  header: string[];
  rows: { row: number; cells: string[] }[];
}

/** The sheets of a workbook the import reads when it has them (what 导出全部数据 writes). */
const MEMBER_SHEETS = ['会员', '会员卡'];
/** An archive inflating to more than this is refused before it is read (a zip bomb). */
const UNZIPPED_MAX = 300 * 1024 * 1024;

/** Decodes an upload (base64 of .xlsx or .csv) into its sheets; 400 with a message a manager can act on. */
export async function readImportFile(fileName: string, content: string): Promise<FileSheet[]> {
  const data = Buffer.from(content, 'base64');
  if (!data.length) throw badRequest(ImportMsg.fileBroken);
  const isZip = data.length > 4 && data.readUInt32LE(0) === 0x04034b50;
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  let sheets: FileSheet[];
  if (isZip) {
    if (ext !== 'xlsx') throw badRequest(ImportMsg.fileKind);
    sheets = await readWorkbook(data);
  } else {
    if (ext !== 'csv' && ext !== 'txt') throw badRequest(ImportMsg.fileKind);
    if (data.includes(0)) throw badRequest(ImportMsg.fileBroken);
    sheets = [sheetOf('', parseCsv(decodeText(data)))];
  }
  const total = sheets.reduce((n, s) => n + s.rows.length, 0);
  if (total > IMPORT_ROWS_MAX) throw badRequest(ImportMsg.tooManyRows);
  if (!total) throw badRequest(ImportMsg.noRows);
  for (const s of sheets) {
    if (s.header.length > IMPORT_COLUMNS_MAX) throw badRequest(ImportMsg.tooManyColumns);
    if (!s.header.some(Boolean)) throw badRequest(ImportMsg.noHeader);
  }
  return sheets;
}

/** Rows of cells to a sheet: the first non-empty row is the header, wholly empty rows are dropped. */
function sheetOf(name: string, lines: string[][]): FileSheet {
  const numbered = lines.map((cells, i) => ({ row: i + 1, cells: cells.map((c) => c.trim()) }));
  const filled = numbered.filter((l) => l.cells.some((c) => c !== ''));
  const [head, ...rows] = filled;
  if (rows.length > IMPORT_ROWS_MAX) throw badRequest(ImportMsg.tooManyRows);
  return { name, header: head?.cells ?? [], rows };
}

/** RFC 4180 CSV (quoted fields with commas, quotes and line breaks), or tab-separated text. */
export function parseCsv(text: string): string[][] {
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0);
  const sep = firstLine.includes('\t') && !firstLine.includes(',') ? '\t' : ',';
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === sep) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      if (out.length > IMPORT_ROWS_MAX + 1000) throw badRequest(ImportMsg.tooManyRows);
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    out.push(row);
  }
  return out;
}

/** The total unpacked size an archive's central directory declares (0 when it cannot be read). */
function unzippedSize(buf: Buffer): number {
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) !== 0x06054b50) continue;
    const count = buf.readUInt16LE(i + 10);
    let p = buf.readUInt32LE(i + 16);
    let total = 0;
    for (let n = 0; n < count && p + 46 <= buf.length; n++) {
      if (buf.readUInt32LE(p) !== 0x02014b50) return 0;
      total += buf.readUInt32LE(p + 24);
      p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    }
    return total;
  }
  return 0;
}

/** A cell's value as the text a person sees (dates `YYYY-MM-DD`, formulas by their result). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? '' : v.toISOString().slice(0, 10);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  if (typeof v === 'string' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object') {
    const o = v as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: string };
    if (o.richText) return o.richText.map((r) => r.text).join('');
    if ('result' in o) return cellText(o.result);
    if (o.text !== undefined) return cellText(o.text);
    if (o.error) return '';
  }
  return '';
}

async function readWorkbook(data: Buffer): Promise<FileSheet[]> {
  if (unzippedSize(data) > UNZIPPED_MAX) throw badRequest(ImportMsg.fileTooLarge);
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw badRequest(ImportMsg.fileBroken);
  }
  const named = wb.worksheets.filter((ws) => MEMBER_SHEETS.includes(ws.name.trim()));
  const chosen = named.length ? named : wb.worksheets.slice(0, 1);
  if (!chosen.length) throw badRequest(ImportMsg.noRows);
  return chosen.map((ws) => {
    const lines: string[][] = [];
    ws.eachRow({ includeEmpty: true }, (row, n) => {
      if (n > IMPORT_ROWS_MAX + 1000) throw badRequest(ImportMsg.tooManyRows);
      const values = row.values as unknown[];
      const cells: string[] = [];
      for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
      lines[n - 1] = cells;
    });
    for (let i = 0; i < lines.length; i++) lines[i] ??= [];
    return sheetOf(named.length ? ws.name.trim() : '', lines);
  });
}
