/** Fen as yuan with two decimals (¥12.50). */
export const formatFen = (fen: number) => `¥${(fen / 100).toFixed(2)}`;
