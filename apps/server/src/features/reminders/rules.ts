import { NotifyQuietReason } from '@studio/contract';
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

/** When a message may go out: `now`, `later` (the end of the quiet hours), or never (`dropped`). */
export type QuietVerdict =
  { go: 'now' } | { go: 'later'; at: string; reason: string } | { go: 'dropped'; reason: string };

/**
 * When a message wanted at `now` (store-local) may go out: at once outside the quiet hours; inside
 * them, never before their end: at their end, unless it is about a class (`classStart`) that has
 * started by then (a class starting as they end included), when it means nothing any more and is
 * dropped. Nothing goes out inside the quiet hours.
 */
export function quietVerdict(
  now: string,
  quiet: { quietFrom: string; quietTo: string },
  classStart?: string,
): QuietVerdict {
  if (!inQuiet(now.slice(11, 16), quiet.quietFrom, quiet.quietTo)) return { go: 'now' };
  const end = quietEnd(now, quiet.quietTo);
  const hhmm = end.slice(11, 16);
  if (classStart && classStart <= end) return { go: 'dropped', reason: NotifyQuietReason.classStarted(hhmm) };
  return { go: 'later', at: end, reason: NotifyQuietReason.waiting(hhmm) };
}
