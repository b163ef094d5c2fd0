/**
 * A cell written into an exported sheet (.xlsx or .csv) so that no spreadsheet runs it: text
 * beginning with `=`, `+`, `-`, `@` (or a tab or carriage return) gets a leading apostrophe, as
 * OWASP advises against CSV injection; numbers, dates and empty cells stay as they are.
 */
export function sheetCell<T>(v: T): T | string {
  return typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

/** A cell read back from an import: the apostrophe `sheetCell` added is taken off again. */
export const unSheetCell = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);
