import type { Tx } from '../../db/index.ts';
import { moveExpiry, type CreditKind } from './credit-repository.ts';
import { addLedgerEntry, addToCardTotal, takeFromCardTotal } from './repository.ts';

/**
 * A credit a card is given for nothing paid (转介绍奖励), and its taking back: classes on a 次卡, days
 * of validity on a 期限卡, or money (fen) on a 储值卡, each one guarded write of the card with its one
 * ledger entry.
 */

interface Credit {
  memberCardId: number;
  kind: CreditKind;
  /** Classes, days or fen; positive. */
  amount: number;
  /** The ledger's words (who referred whom). */
  remark: string;
  operatorId: number | null;
  now: string;
}

/**
 * Gives the card the credit: its total grows by the classes or fen (ledger `referral` of that amount),
 * or its expiry moves on by the days (ledger `referral` of 0, the days in its remark). Answers the
 * entry's id, or null (nothing written) when the card is refunded or changed meanwhile.
 */
export async function creditCard(tx: Tx, storeId: number, c: Credit): Promise<number | null> {
  const done =
    c.kind === 'days'
      ? await moveExpiry(tx, storeId, c.memberCardId, c.amount)
      : await addToCardTotal(tx, storeId, c.memberCardId, c.amount);
  if (!done) return null;
  return addLedgerEntry(tx, {
    storeId,
    memberCardId: c.memberCardId,
    kind: 'referral',
    amount: c.kind === 'days' ? 0 : c.amount,
    operatorId: c.operatorId,
    remark: c.remark,
    createdAt: c.now,
  });
}

/**
 * Takes a credit back: the classes or fen only while the card's balance still holds them and it is not
 * refunded, the days off its expiry; ledger `referral_undone` of minus the amount (0 for days). Null,
 * nothing written, when the card cannot give it back.
 */
export async function takeBackCredit(tx: Tx, storeId: number, c: Credit): Promise<number | null> {
  const done =
    c.kind === 'days'
      ? await moveExpiry(tx, storeId, c.memberCardId, -c.amount)
      : await takeFromCardTotal(tx, storeId, c.memberCardId, c.amount);
  if (!done) return null;
  return addLedgerEntry(tx, {
    storeId,
    memberCardId: c.memberCardId,
    kind: 'referral_undone',
    amount: c.kind === 'days' ? 0 : -c.amount,
    operatorId: c.operatorId,
    remark: c.remark,
    createdAt: c.now,
  });
}
