import { memberInfo } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

/** A member with the cards they hold (the same cache as the schedule's member drawer). */
export function useMemberInfo(id: number | undefined) {
  return useQuery({ queryKey: ['member', id], queryFn: () => call(memberInfo, { id: id! }), enabled: !!id });
}

/** Caches a card write changes: the member, their course card lists and the ledgers. */
export const CARD_WRITE_KEYS = [['member'], ['member-ledger'], ['member-search']];
