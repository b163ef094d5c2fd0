/**
 * The store's wall clock, asking Intl (the zone's rules) each time: the admin and the members' page
 * read it directly; the server's `localDateTime` (apps/server/src/lib/time.ts) answers the same from a
 * cached offset and is checked against it. Every time of the API is the store's local `YYYY-MM-DD HH:mm:ss`, in the
 * store's time zone (a store setting): "now" on a screen is read the same way, never from the device's
 * zone (a desk PC set to UTC, a member's phone abroad or set to UTC).
 */

/** The zone of a store that has not chosen one. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter of the zone (cached); an unknown zone falls back to the default store zone. */
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      return formatOf(DEFAULT_TIME_ZONE);
    }
    formats.set(timeZone, f);
  }
  return f;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The instant `at` (ms since the epoch; now by default) on the wall clock of `timeZone`: `YYYY-MM-DD HH:mm:ss`. */
export function storeDateTime(timeZone: string, at: number = Date.now()): string {
  const parts: Record<string, string> = {};
  for (const p of formatOf(timeZone).formatToParts(at)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/** Today's date (`YYYY-MM-DD`) on the store's wall clock. */
export function storeToday(timeZone: string, at: number = Date.now()): string {
  return storeDateTime(timeZone, at).slice(0, 10);
}
