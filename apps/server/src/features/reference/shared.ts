/** Rows with a parent id, nested by it; rows whose parent is unknown become roots. Keeps the input order. */
export function nest<T extends { id: number; parentId: number | null }, N>(
  rows: readonly T[],
  make: (row: T, children: N[]) => N,
  rootIds?: ReadonlySet<number>,
): N[] {
  const byParent = new Map<number | null, T[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    const key = r.parentId !== null && ids.has(r.parentId) ? r.parentId : null;
    const list = byParent.get(key) ?? [];
    list.push(r);
    byParent.set(key, list);
  }
  const build = (row: T, seen: Set<number>): N => {
    seen.add(row.id);
    const kids = (byParent.get(row.id) ?? []).filter((k) => !seen.has(k.id)).map((k) => build(k, seen));
    return make(row, kids);
  };
  const roots = rootIds ? rows.filter((r) => rootIds.has(r.id)) : (byParent.get(null) ?? []);
  return roots.map((r) => build(r, new Set()));
}
