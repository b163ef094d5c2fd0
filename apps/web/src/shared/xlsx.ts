// Loaded on demand: ExcelJS is large and only needed when a sheet is downloaded.
import { sheetCell } from '@studio/contract';

/** One column of a sheet: its heading and width (characters). */
export interface SheetColumn {
  header: string;
  width?: number;
}

/** One sheet of a workbook: its tab name (made safe for Excel), columns and rows. */
export interface Sheet {
  name: string;
  columns: SheetColumn[];
  rows: (string | number | null)[][];
}

/** Builds a one-sheet workbook (bold headings) and starts the download of `<fileName>.xlsx`. */
export async function downloadSheet(
  fileName: string,
  sheetName: string,
  columns: SheetColumn[],
  rows: (string | number | null)[][],
): Promise<void> {
  await downloadWorkbook(fileName, [{ name: sheetName, columns, rows }]);
}

/**
 * A sheet name Excel accepts: at most 31 characters, none of : \ / ? * [ ], and not one taken
 * before in the same workbook (a number is added).
 */
export function sheetName(name: string, taken: Set<string>): string {
  const base =
    name
      .replace(/[:\\/?*[\]]/g, ' ')
      .trim()
      .slice(0, 31) || 'Sheet';
  let out = base;
  for (let i = 2; taken.has(out.toLowerCase()); i++) out = `${base.slice(0, 31 - String(i).length - 1)}-${i}`;
  taken.add(out.toLowerCase());
  return out;
}

/** Builds a workbook of several sheets (bold headings) and starts the download of `<fileName>.xlsx`. */
export async function downloadWorkbook(fileName: string, sheets: Sheet[]): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const taken = new Set<string>();
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(sheetName(sheet.name, taken));
    ws.columns = sheet.columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 14 }));
    for (const r of sheet.rows) ws.addRow(r.map((v) => sheetCell(v ?? '')));
    ws.getRow(1).font = { bold: true };
  }
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
