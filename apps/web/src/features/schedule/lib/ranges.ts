import type { Dayjs } from 'dayjs';

export type Preset = { label: string; value: [Dayjs, Dayjs] };

function week(now: Dayjs, offset: number): [Dayjs, Dayjs] {
  const start = now.startOf('week').add(offset, 'week');
  return [start, start.add(6, 'day')];
}

/**
 * Copy source shortcuts, the week before last through the week after next, computed when asked (the
 * picker opening), not at page load: a page left open over a weekend still offers the right weeks.
 * `now`: the store's clock (store-time.ts `useStoreClock().day()`), not the browser's.
 */
export const copyPresets = (now: Dayjs): Preset[] => [
  { label: '上上周', value: week(now, -2) },
  { label: '上周', value: week(now, -1) },
  { label: '本周', value: week(now, 0) },
  { label: '下周', value: week(now, 1) },
  { label: '下下周', value: week(now, 2) },
];

/** Target shortcuts: this week through four weeks ahead (computed when asked, as above). */
export const aheadPresets = (now: Dayjs): Preset[] => [
  { label: '本周', value: week(now, 0) },
  { label: '下周', value: week(now, 1) },
  { label: '下下周', value: week(now, 2) },
  { label: '三周后', value: week(now, 3) },
  { label: '四周后', value: week(now, 4) },
];

/** Inclusive number of days of a range. */
export function rangeDays(a: Dayjs, b: Dayjs): number {
  return b.startOf('day').diff(a.startOf('day'), 'day') + 1;
}
