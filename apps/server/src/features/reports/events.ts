import { defineEvent } from '../../lib/events.ts';

/** The daily digest of card alerts, once per store and day. */
export const cardsDigest = defineEvent<{
  storeId: number;
  date: string;
  total: number;
  /** The first cards, soonest expiry first: member, card, balance, reasons. */
  rows: { memberName: string; mobile: string; cardName: string; bigType: number; balance: number; reasons: string }[];
}>('cards.digest');
