import { defineEvent } from '../../lib/events.ts';

/**
 * A card was sold to a member (the desk's 开卡 or an online order's fulfilment), in the transaction
 * that wrote it: the leads' conversion listens (a lead holding the member's mobile becomes 已成交).
 */
export const cardSold = defineEvent<{
  storeId: number;
  memberId: number;
  memberCardId: number;
  /** Store-local time of the sale. */
  now: string;
}>('card.sold');
