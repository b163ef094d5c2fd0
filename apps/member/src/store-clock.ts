import { DEFAULT_TIME_ZONE, storeToday } from '@studio/contract/store-time';
import { createContext, useContext } from 'react';

/**
 * The store's time zone for every screen of the page (from the store's info, set once in app.tsx):
 * "today" and "now" are the store's, never the phone's (a phone set to UTC, a member abroad), as every
 * time the API answers is the store's wall clock.
 */
const StoreZone = createContext(DEFAULT_TIME_ZONE);
export const StoreZoneProvider = StoreZone.Provider;

/** Today's date (`YYYY-MM-DD`) on the store's clock. */
export function useStoreToday(): string {
  return storeToday(useContext(StoreZone));
}
