// The changed fields of an audit entry as lines staff read: 「字段: 旧 → 新」.

/** A stored value in words: 空 for nothing, 是/否, lists joined with 、, records as 「名: 值」. */
export function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '空';
  if (typeof v === 'boolean') return v ? '是' : '否';
  if (typeof v === 'string' || typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.length ? v.map(valueText).join('、') : '空';
  if (typeof v === 'object') {
    const parts = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}: ${valueText(x)}`);
    return parts.length ? parts.join('，') : '空';
  }
  return String(v);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * One line per changed field: `字段: 旧 → 新` (a field gone on one side reads 空 there). An entry with
 * only one side (something made, or removed) lists that side's fields as `字段: 值`. Fields with the
 * same value on both sides are left out.
 */
export function changeLines(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string[] {
  const only = before && !after ? before : after && !before ? after : null;
  if (only) return Object.entries(only).map(([f, v]) => `${f}: ${valueText(v)}`);
  if (!before || !after) return [];
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((f) => !same(before[f], after[f]))
    .map((f) => `${f}: ${f in before ? valueText(before[f]) : '空'} → ${f in after ? valueText(after[f]) : '空'}`);
}
