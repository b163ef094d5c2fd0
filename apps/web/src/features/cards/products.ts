import { BIG_TYPE_COUNT, cardProductList } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';

export const PRODUCTS_KEY = ['card-products'];

/** The card products on sale. */
export function useCardProducts() {
  return useQuery({ queryKey: PRODUCTS_KEY, queryFn: () => call(cardProductList, {}) });
}

/** Fen to a yuan text with 2 decimals. */
export const yuan = (fen: number) => (fen / 100).toFixed(2);

/** A yuan amount typed by staff (up to 2 decimals) to integer fen. */
export const toFen = (y: number) => Math.round(y * 100);

/** The unit of a card kind: 次 for count cards, 元 for money cards. */
export const unitOf = (bigType: number) => (bigType === BIG_TYPE_COUNT ? '次' : '元');

/** A card amount in its unit (count, or fen shown as yuan). */
export const amountIn = (bigType: number, amount: number) =>
  bigType === BIG_TYPE_COUNT ? `${amount} 次` : `${yuan(amount)} 元`;
