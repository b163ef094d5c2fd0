import { amountText, type BookingRow } from '@studio/contract';

/** 138****5678: a receipt leaves the desk, so the middle four digits of the mobile are hidden. */
export { maskMobile } from '@studio/contract';

/**
 * What the card holds after this booking, as the receipt prints it: classes left (whole numbers) on
 * a count card, yuan on a money card, with the expiry when the card has one; a period card (nothing
 * charged per class) by its expiry alone.
 */
export function balanceLines(row: Pick<BookingRow, 'bigType' | 'cardLeft' | 'cardPerCount' | 'cardExpireTime'>) {
  const expiry = `有效期至：${row.cardExpireTime ? row.cardExpireTime.slice(0, 10) : '长期有效'}`;
  if (row.cardPerCount === 0) return [expiry];
  const left = `剩余：${amountText(row.bigType, row.cardLeft)}`;
  return row.cardExpireTime ? [left, expiry] : [left];
}
