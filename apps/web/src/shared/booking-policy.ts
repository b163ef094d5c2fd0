// The store's 预约规则, read once for every screen that needs it (预约设置, the session drawer's 候补).
import { queryBookingPolicy } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client.ts';
import { keys } from './query-keys.ts';

/** `enabled` false: not asked yet (the drawer asks only for a full session). */
export function useBookingPolicy(enabled = true) {
  return useQuery({ queryKey: keys.bookingPolicy, queryFn: () => call(queryBookingPolicy, {}), enabled });
}
