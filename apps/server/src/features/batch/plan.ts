import { addDays, weekday } from '../../lib/time.ts';
import { groupBy } from '../../lib/group.ts';

/** A date and a time of day, store-local. */
export interface Slot {
  date: string;
  time: string;
}

/**
 * Batch scheduling: from `startDate`, walk the days; on every ticked weekday take that weekday's
 * time(s), until `count` slots exist. Times of one day come in clock order.
 */
export function arrangeSlots(
  startDate: string,
  times: { weekday: number; arrangeTime: string }[],
  count: number,
): Slot[] {
  const byDay = new Map(
    [...groupBy(times, (t) => t.weekday)].map(([day, list]) => [day, list.map((t) => t.arrangeTime).sort()]),
  );
  const slots: Slot[] = [];
  for (let date = startDate; slots.length < count; date = addDays(date, 1)) {
    for (const time of byDay.get(weekday(date)) ?? []) {
      if (slots.length < count) slots.push({ date, time });
    }
  }
  return slots;
}

/** Days from Monday of a weekday (0 = Sunday ... 6 = Saturday): Monday 0 ... Sunday 6. */
export const mondayOffset = (day: number) => (day + 6) % 7;

/** The date of `day` (0 = Sunday) in week `week` (1-based) of a template run starting on Monday `fromDate`. */
export const templateDate = (fromDate: string, week: number, day: number) =>
  addDays(fromDate, (week - 1) * 7 + mondayOffset(day));

/** `YYYY-MM-DD HH:mm` of a store-local date-time (what the conflict lists show). */
export const shortTime = (dateTime: string) => dateTime.slice(0, 16);
