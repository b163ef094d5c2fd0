import { addDays } from '../../lib/time.ts';

/** Whether `HH:mm` falls in the quiet hours from `from` to `to` (across midnight when from > to). */
export function inQuiet(hhmm: string, from: string, to: string): boolean {
  if (from === to) return false;
  return from < to ? hhmm >= from && hhmm < to : hhmm >= from || hhmm < to;
}

/** The end of the quiet hours `now` is in: the next `to` at or after it (store-local). */
export function quietEnd(now: string, to: string): string {
  const date = now.slice(0, 10);
  const hhmm = now.slice(11, 16);
  return `${hhmm < to ? date : addDays(date, 1)} ${to}:00`;
}

/**
 * When a message wanted at `now` goes out: now, except in quiet hours, where it waits for their end,
 * unless it reminds of a class that starts before then (`classStart`): then now.
 */
export function dueAfterQuiet(now: string, quiet: { quietFrom: string; quietTo: string }, classStart?: string): string {
  if (!inQuiet(now.slice(11, 16), quiet.quietFrom, quiet.quietTo)) return now;
  const end = quietEnd(now, quiet.quietTo);
  if (classStart && classStart < end) return now;
  return end;
}
