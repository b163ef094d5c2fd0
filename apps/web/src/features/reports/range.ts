import type { Dayjs } from 'dayjs';
import type { Range } from './hooks.ts';

export type RangeKind = 'week' | 'month' | 'lastMonth' | 'custom';
export const RANGE_KINDS: { value: RangeKind; label: string }[] = [
  { value: 'week', label: '本周' },
  { value: 'month', label: '本月' },
  { value: 'lastMonth', label: '上月' },
  { value: 'custom', label: '自定义' },
];

const D = 'YYYY-MM-DD';

/**
 * The dates of a preset range, computed at the moment it is chosen (weeks start on Monday); `today`
 * on the store's clock (store-time.ts `useStoreClock().day()`), not the browser's.
 */
export function presetRange(kind: Exclude<RangeKind, 'custom'>, today: Dayjs): Range {
  if (kind === 'week') {
    const monday = today.subtract((today.day() + 6) % 7, 'day');
    return { fromDate: monday.format(D), toDate: monday.add(6, 'day').format(D) };
  }
  const month = kind === 'month' ? today : today.subtract(1, 'month');
  return { fromDate: month.startOf('month').format(D), toDate: month.endOf('month').format(D) };
}

export const WEEKDAYS = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];
/** Monday first, as the studio's week runs. */
export const WEEKDAY_ORDER = [1, 2, 3, 4, 5, 6, 0];

export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
