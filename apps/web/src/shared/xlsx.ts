// Loaded on demand: ExcelJS is large and only needed when a sheet is downloaded.

/** One column of a sheet: its heading and width (characters). */
export interface SheetColumn {
  header: string;
  width?: number;
}

/** Builds a one-sheet workbook (bold headings) and starts the download of `<fileName>.xlsx`. */
export async function downloadSheet(
  fileName: string,
  sheetName: string,
  columns: SheetColumn[],
  rows: (string | number | null)[][],
): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 14 }));
  for (const r of rows) ws.addRow(r.map((v) => v ?? ''));
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
