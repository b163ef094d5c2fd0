/**
 * Store-local time. Sessions and bookings are kept as wall-clock text `YYYY-MM-DD HH:mm:ss`
 * in the store's time zone, so nothing depends on the server's own TZ.
 */
import { isValidTimeZone, storeDateTime } from '@studio/contract/store-time';

export { isValidTimeZone };

/**
 * The wall-clock time `YYYY-MM-DD HH:mm:ss` of an instant in a time zone, asking Intl (the zone's
 * rules) every time (`@studio/contract/store-time`, the browsers' clock): what `localDateTime` answers
 * from its cached offset (lib/time.test.ts compares them).
 */
export const formatLocal = (tz: string, at: number): string => storeDateTime(tz, at);

/**
 * A zone's offset from UTC does not change within a quarter of an hour (every change of the time
 * zone database since 1970 falls on one), so it is worked out once per zone and quarter: asking
 * Intl for every wall-clock time was a noticeable share of a booking's CPU (bench/booking.ts).
 */
const QUARTER = 15 * 60_000;
const offsets = new Map<string, { quarter: number; offset: number }>();

/** The wall-clock time `YYYY-MM-DD HH:mm:ss` of an instant in a time zone. */
export function localDateTime(tz: string, at: number = Date.now()): string {
  const quarter = Math.floor(at / QUARTER);
  let known = offsets.get(tz);
  if (known?.quarter !== quarter) {
    const start = quarter * QUARTER;
    known = { quarter, offset: Date.parse(`${formatLocal(tz, start).replace(' ', 'T')}Z`) - start };
    offsets.set(tz, known);
  }
  return new Date(at + known.offset).toISOString().slice(0, 19).replace('T', ' ');
}

/** Now on the wall clock of the call's store (`YYYY-MM-DD HH:mm:ss`). */
export const storeNow = (ctx: { store: { timezone: string } }): string => localDateTime(ctx.store.timezone);

/** Calendar arithmetic on `YYYY-MM-DD` (no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const dt = new Date(Date.UTC(y, m - 1, d + days));
  return dt.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` plus whole months, the day kept or, past the month's end, its last day (01-31 + 1 month = 02-28). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** 0 = Sunday ... 6 = Saturday, as JavaScript's getDay. */
export function weekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

export function daysBetween(from: string, to: string): number {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  return Math.round((b - a) / 86_400_000);
}

/** `YYYY-MM-DD HH:mm:ss` plus minutes, as wall-clock arithmetic. */
export function addMinutes(dateTime: string, minutes: number): string {
  const iso = `${dateTime.slice(0, 10)}T${dateTime.slice(11, 19) || '00:00:00'}Z`;
  return new Date(Date.parse(iso) + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Minutes between two wall-clock date-times. */
export function minutesBetween(from: string, to: string): number {
  const a = Date.parse(`${from.replace(' ', 'T')}Z`);
  const b = Date.parse(`${to.replace(' ', 'T')}Z`);
  return Math.round((b - a) / 60_000);
}

/** Normalises `YYYY-MM-DD`, `YYYY-MM-DD HH:mm` or full date-time to `YYYY-MM-DD HH:mm:ss`. */
export function toDateTime(date: string, time?: string): string {
  if (date.length > 10) return date.length === 16 ? `${date}:00` : date;
  const t = time ?? '00:00';
  return `${date} ${t.length === 5 ? `${t}:00` : t}`;
}

/** The instant (ms) a wall-clock `YYYY-MM-DD HH:mm:ss` of a time zone names (the earlier one in a DST overlap). */
export function epochOfLocal(tz: string, dateTime: string): number {
  const asUtc = Date.parse(`${toDateTime(dateTime).replace(' ', 'T')}Z`);
  let at = asUtc;
  for (let i = 0; i < 2; i++) {
    const shown = Date.parse(`${localDateTime(tz, at).replace(' ', 'T')}Z`);
    at += asUtc - shown;
  }
  return at;
}
