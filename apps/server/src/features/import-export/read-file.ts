import { IMPORT_COLUMNS_MAX, IMPORT_ROWS_MAX, ImportMsg, LEAD_IMPORT_SHEET, unSheetCell } from '@studio/contract';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { decodeText } from '../../lib/decode-text.ts';
import { AppError, badRequest } from '../../lib/errors.ts';

/** One sheet of an import file: its headings and data rows as text, with their row numbers. */
export interface FileSheet {
  /** '' for a CSV file or a workbook read by its first sheet. */
  name: string;
  header: string[];
  rows: { row: number; cells: string[] }[];
}

/** The sheets of a workbook the import reads when it has them (what 导出全部数据 writes). */
const MEMBER_SHEETS = ['会员', '会员卡'];
/**
 * The parts of a workbook inflating to more than this in all are refused while they inflate (a zip
 * bomb): well above a sheet of IMPORT_ROWS_MAX rows, and what the instance's memory can hold twice.
 */
const UNZIPPED_MAX = 64 * 1024 * 1024;

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
  const numbered = lines.map((cells, i) => ({ row: i + 1, cells: cells.map((c) => unSheetCell(c.trim())) }));
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

/** A zip entry as the central directory lists it. */
interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** The entries of an archive's central directory; null when it cannot be read. */
function zipEntries(buf: Buffer): ZipEntry[] | null {
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) !== 0x06054b50) continue;
    const count = buf.readUInt16LE(i + 10);
    let p = buf.readUInt32LE(i + 16);
    const out: ZipEntry[] = [];
    for (let n = 0; n < count; n++) {
      if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return null;
      const nameLength = buf.readUInt16LE(p + 28);
      out.push({
        name: buf.toString('utf8', p + 46, p + 46 + nameLength),
        method: buf.readUInt16LE(p + 10),
        compressedSize: buf.readUInt32LE(p + 20),
        size: buf.readUInt32LE(p + 24),
        offset: buf.readUInt32LE(p + 42),
      });
      p += 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    }
    return out;
  }
  return null;
}

const inflate = (data: Buffer, max: number) =>
  new Promise<Buffer>((resolve, reject) =>
    // In the thread pool (the instance goes on answering), never producing more than `max` bytes.
    zlib.inflateRaw(data, { maxOutputLength: Math.max(1, max) }, (e, out) => (e ? reject(e) : resolve(out))),
  );

/**
 * The parts of a workbook the reader needs, unpacked with a limit on the bytes actually produced
 * (`UNZIPPED_MAX` in all, and no entry beyond the size it declares): a zip bomb, or an entry lying
 * about its size, is stopped while it inflates, 400 文件解压后过大.
 */
async function unpackWorkbook(data: Buffer): Promise<{ name: string; body: Buffer }[]> {
  const entries = zipEntries(data);
  if (!entries) throw badRequest(ImportMsg.fileBroken);
  const wanted = entries.filter((e) =>
    /^(\[Content_Types\]\.xml|_rels\/\.rels|xl\/[^/]+\.xml|xl\/_rels\/workbook\.xml\.rels|xl\/worksheets\/sheet\d+\.xml)$/.test(
      e.name,
    ),
  );
  if (wanted.reduce((n, e) => n + e.size, 0) > UNZIPPED_MAX) throw badRequest(ImportMsg.unzippedTooLarge);
  let left = UNZIPPED_MAX;
  const out: { name: string; body: Buffer }[] = [];
  for (const e of wanted) {
    const at = e.offset;
    if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50) throw badRequest(ImportMsg.fileBroken);
    const from = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
    const packed = data.subarray(from, from + e.compressedSize);
    let body: Buffer;
    if (e.method === 0) body = packed;
    else if (e.method === 8) {
      try {
        body = await inflate(packed, Math.min(e.size, left));
      } catch (err) {
        // Past its own declared size: the entry lies (broken); past what is left: too large in all.
        const tooLarge = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' && left < e.size;
        throw badRequest(tooLarge ? ImportMsg.unzippedTooLarge : ImportMsg.fileBroken);
      }
    } else throw badRequest(ImportMsg.fileBroken);
    if (body.length !== e.size) throw badRequest(ImportMsg.fileBroken);
    left -= body.length;
    out.push({ name: e.name, body });
  }
  return out;
}

/**
 * The unpacked parts as a stored (not compressed) archive for ExcelJS's streaming reader, the
 * workbook's own parts before its sheets (so the reader needs no temporary files).
 */
function storedZip(parts: { name: string; body: Buffer }[]): Buffer {
  const sorted = [...parts].sort(
    (a, b) => Number(a.name.startsWith('xl/worksheets/')) - Number(b.name.startsWith('xl/worksheets/')),
  );
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const { name, body } of sorted) {
    const n = Buffer.from(name, 'utf8');
    const crc = zlib.crc32(body);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(body.length, 22);
    local.writeUInt16LE(n.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x0800, 8);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(body.length, 20);
    dir.writeUInt32LE(body.length, 24);
    dir.writeUInt16LE(n.length, 28);
    dir.writeUInt32LE(offset, 42);
    chunks.push(local, n, body);
    central.push(dir, n);
    offset += 30 + n.length + body.length;
  }
  const size = central.reduce((t, b) => t + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(sorted.length, 8);
  end.writeUInt16LE(sorted.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...central, end]);
}

/**
 * A workbook read row by row (ExcelJS's streaming reader) from its parts unpacked under the limit:
 * the chosen sheets' rows, stopped at the row limit, so memory stays bounded whatever the file holds.
 */
async function readWorkbook(data: Buffer): Promise<FileSheet[]> {
  const zip = storedZip(await unpackWorkbook(data));
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([zip]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  const read: { name: string; lines: string[][] }[] = [];
  try {
    for await (const ws of reader) {
      const name = sheetName(reader, (ws as unknown as { id: string }).id);
      const lines: string[][] = [];
      for await (const row of ws) {
        const n = row.number;
        if (n > IMPORT_ROWS_MAX + 1000) throw badRequest(ImportMsg.tooManyRows);
        const values = row.values as unknown[];
        const cells: string[] = [];
        for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
        lines[n - 1] = cells;
      }
      for (let i = 0; i < lines.length; i++) lines[i] ??= [];
      read.push({ name, lines });
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw badRequest(ImportMsg.fileBroken);
  }
  const named = read.filter((ws) => MEMBER_SHEETS.includes(ws.name.trim()));
  // The 潜客 sheet (leads) is read by its name, beside the members' sheets (a workbook with it names its sheets).
  const leads = read.filter((ws) => ws.name.trim() === LEAD_IMPORT_SHEET).slice(0, 1);
  const chosen = named.length ? named : leads.length ? [] : read.slice(0, 1);
  if (!chosen.length && !leads.length) throw badRequest(ImportMsg.noRows);
  return [
    ...chosen.map((ws) => sheetOf(named.length ? ws.name.trim() : '', ws.lines)),
    ...leads.map((ws) => sheetOf(LEAD_IMPORT_SHEET, ws.lines)),
  ];
}

/** A sheet's name as the workbook lists it, from the streaming reader's view of xl/workbook.xml and its relations. */
function sheetName(reader: unknown, id: string): string {
  const r = reader as {
    model?: { sheets?: { name: string; rId: string }[] };
    workbookRels?: { Id: string; Target: string }[];
  };
  const rel = r.workbookRels?.find((x) => x.Target.replace(/^\/?(xl\/)?/, '') === `worksheets/sheet${id}.xml`);
  return r.model?.sheets?.find((s) => s.rId === rel?.Id)?.name ?? '';
}
