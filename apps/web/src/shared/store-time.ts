import type { Dayjs } from 'dayjs';
import dayjs from './dayjs.ts';
import { useStore } from './profile.ts';
import { DEFAULT_TIME_ZONE } from './timezones.ts';

/**
 * The store's wall clock. Every time of the API (a class's start and end, a booking's time) is the
 * store's local `YYYY-MM-DD HH:mm:ss`, in the store's time zone (a store setting, on the profile);
 * "now" on a screen must be read the same way, never from the browser's time zone (a desk PC set to
 * UTC, a manager abroad).
 */

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

/** The instant `at` (ms since the epoch; now by default) on the wall clock of `timeZone`: `YYYY-MM-DD HH:mm:ss`. */
export function storeDateTime(timeZone: string, at: number = Date.now()): string {
  const parts: Record<string, string> = {};
  for (const p of formatOf(timeZone).formatToParts(at)) parts[p.type] = p.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

/**
 * The store's clock of the logged-in staff member's acting store: `now()` (`YYYY-MM-DD HH:mm:ss`),
 * `today()` (`YYYY-MM-DD`), and `day()`, a dayjs reading the store's wall clock now (for date
 * arithmetic and formatting: week and month shortcuts, default dates, "expired").
 */
export function useStoreClock(): { timeZone: string; now: () => string; today: () => string; day: () => Dayjs } {
  const { timezone } = useStore();
  return {
    timeZone: timezone,
    now: () => storeDateTime(timezone),
    today: () => storeDateTime(timezone).slice(0, 10),
    day: () => dayjs(storeDateTime(timezone)),
  };
}
