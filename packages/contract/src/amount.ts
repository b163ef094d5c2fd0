/**
 * A card amount as a person reads it, wherever it leaves the system (screens, exports, receipts,
 * store messages): count cards (bigType 1) in classes, `1 次`; money cards in yuan with two
 * decimals from fen, `50.00 元`. Self-contained (no imports) so the web's generated contract can
 * carry it as is.
 */
export function amountText(bigType: number, amount: number): string {
  return bigType === 1 ? `${amount} 次` : `${(amount / 100).toFixed(2)} 元`;
}
