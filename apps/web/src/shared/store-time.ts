import { storeDateTime } from '@studio/contract/store-time';
import type { Dayjs } from 'dayjs';
import dayjs from './dayjs.ts';
import { useStore } from './profile.ts';

export { storeDateTime } from '@studio/contract/store-time';

/**
 * The store's clock of the logged-in staff member's acting store: `now()` (`YYYY-MM-DD HH:mm:ss`),
 * `today()` (`YYYY-MM-DD`), and `day()`, a dayjs reading the store's wall clock now (for date
 * arithmetic and formatting: week and month shortcuts, default dates, "expired"). Read through
 * `@studio/contract/store-time`, never from the browser's time zone.
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
