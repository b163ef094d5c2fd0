import type { Dayjs } from 'dayjs';
import dayjs from '../../../shared/dayjs.ts';

type Preset = { label: string; value: [Dayjs, Dayjs] };

function week(offset: number): [Dayjs, Dayjs] {
  const start = dayjs().startOf('week').add(offset, 'week');
  return [start, start.add(6, 'day')];
}

/** Copy source shortcuts: the week before last through the week after next. */
export const copyPresets: Preset[] = [
  { label: '上上周', value: week(-2) },
  { label: '上周', value: week(-1) },
  { label: '本周', value: week(0) },
  { label: '下周', value: week(1) },
  { label: '下下周', value: week(2) },
];

/** Target shortcuts: this week through four weeks ahead. */
export const aheadPresets: Preset[] = [
  { label: '本周', value: week(0) },
  { label: '下周', value: week(1) },
  { label: '下下周', value: week(2) },
  { label: '三周后', value: week(3) },
  { label: '四周后', value: week(4) },
];

/** Inclusive number of days of a range. */
export function rangeDays(a: Dayjs, b: Dayjs): number {
  return b.startOf('day').diff(a.startOf('day'), 'day') + 1;
}
