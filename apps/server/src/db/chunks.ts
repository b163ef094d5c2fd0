/** Most bound parameters one statement carries (SQLite allows 32766, PostgreSQL 65535). */
const MAX_PARAMS = 30_000;

/** Splits rows of `columns` bound values each into groups one multi-row statement can carry. */
export function chunks<T>(rows: readonly T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS / columns));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Ids per `where id in (...)` statement: a thousand, well under either database's limit. */
export const idChunks = <T>(ids: readonly T[]) => chunks(ids, 30);
