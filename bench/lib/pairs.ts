/**
 * Which (card, session) pair the k-th booking of bench/booking.ts takes, the same for the HTTP run
 * and its raw baseline. Every pair is new either way (no duplicate refusals):
 * - `class`: card k mod C, session (k div C) mod S. Consecutive bookings fill one session with
 *   different cards, so concurrent bookings wait for that session's row, as in a class release.
 * - `spread`: card k mod C, session (k + k div C) mod S (new pairs while C + 1 and S share no
 *   factor: 2001 and 400). Concurrent bookings touch different sessions and cards.
 */
export type Order = 'class' | 'spread';

export function pairOf(k: number, cards: number, sessions: number, order: Order): { card: number; session: number } {
  const round = Math.floor(k / cards);
  return { card: k % cards, session: (order === 'class' ? round : k + round) % sessions };
}
