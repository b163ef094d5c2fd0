/** `YYYY-MM` arithmetic (pure). */

/** The month `n` months after `month` (n may be negative). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const i = y * 12 + (m - 1) + n;
  return `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** The month of a store-local date or date-time. */
export const monthOf = (dateOrTime: string) => dateOrTime.slice(0, 7);
