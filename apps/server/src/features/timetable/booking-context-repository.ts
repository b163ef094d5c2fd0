import { onPostgres } from '../../db/dialect.ts';
import { deferRefusal, mapRead, readTogether, sendRead, together, type ReadValue } from '../../db/fixed.ts';
import type { Executor, Tx } from '../../db/index.ts';
import { lockCards, lockSessions } from '../../db/locks.ts';
import { bookingRulesRead } from '../policy/public.ts';
import { storeCardsRead } from '../cards/public.ts';
import { openUseRead } from './booking-repository.ts';
import { withOpenUse } from './rules.ts';
import { liveSessionRead } from './session-repository.ts';

/**
 * What a booking reads before it writes, asked for by what the use case needs. The reads of one
 * call go together (`db/fixed.ts`): on PostgreSQL one round trip, before the transaction's BEGIN
 * (`db/pg-pipeline.ts`), so a booking its rules refuse sends neither BEGIN nor ROLLBACK; on SQLite
 * one after the other. The services call these with a plain `await`.
 */

/** Which booking: a session and the card that pays, at the store's `now`. */
export interface BookingAsked {
  storeId: number;
  sessionId: number;
  memberCardId: number;
  now: string;
}

/** A card of the store for a new booking of a session, with what it holds open at `now` (`withOpenUse`). */
function bookingCardRead(tx: Executor, storeId: number, id: number, sessionId: number, now: string) {
  const reads = together({
    cards: storeCardsRead(tx, storeId, [id], { allowedIn: sessionId }),
    use: openUseRead(tx, storeId, [id], now),
  });
  return mapRead(reads, ({ cards, use }) => withOpenUse(cards.get(id)!, use.get(id)));
}

/**
 * The session and the card of a card booking, as one read for a repository to send with its own
 * (the members' channel sends it with the member's suspension): the live session, saying whether
 * the card's holder holds it, and the card with what it holds open at `now`. 404 课程不存在 before
 * 404 会员卡不存在.
 */
export function bookingContextRead(tx: Executor, b: BookingAsked) {
  return together({
    session: liveSessionRead(tx, b.storeId, b.sessionId, { heldByHolderOf: b.memberCardId }),
    card: bookingCardRead(tx, b.storeId, b.memberCardId, b.sessionId, b.now),
  });
}

/** What `bookWithCard` books from: the live session (whether the card's holder holds it) and the card. */
export type BookingContext = ReadValue<ReturnType<typeof bookingContextRead>>;

/** `bookingContextRead`, sent now (a booking the waitlist tries or makes). */
export function loadBookingContext(tx: Executor, b: BookingAsked): Promise<BookingContext> {
  return sendRead(tx, bookingContextRead(tx, b));
}

/**
 * A desk booking's reads, in one round trip: the store's rules (deduction mode, policy) and the
 * booking's session and card. `booking()` answers those, or throws their refusal (404 课程不存在,
 * then 404 会员卡不存在) where the service asks for them: after its own look at the rules.
 */
export async function loadDeskBookingContext(tx: Executor, b: BookingAsked) {
  return readTogether(tx, {
    rules: bookingRulesRead(tx, b.storeId),
    booking: deferRefusal(bookingContextRead(tx, b)),
  });
}

/** The live session a pending is booked into, read as a plain read (404 课程不存在). */
export function sessionToBook(tx: Executor, storeId: number, sessionId: number) {
  return sendRead(tx, liveSessionRead(tx, storeId, sessionId));
}

/** The card a pending names, for a new booking of the session, with what it holds open at `now` (404 会员卡不存在). */
export function cardToBook(tx: Executor, b: BookingAsked) {
  return sendRead(tx, bookingCardRead(tx, b.storeId, b.memberCardId, b.sessionId, b.now));
}

/**
 * Some cards of new bookings read again after their sessions and then the cards are locked (the
 * engine's lock order), with what they hold open at `now`: on PostgreSQL what a card held open was
 * read before any lock, and two bookings of different classes with one card could each find room
 * for itself. SQLite has one writer, so the first read is what the write finds: nothing is locked
 * or read again (null).
 */
export async function cardsAgainUnderLock(
  tx: Tx,
  storeId: number,
  sessionIds: readonly number[],
  cardIds: ReadonlySet<number>,
  now: string,
) {
  if (!onPostgres(tx) || !cardIds.size) return null;
  await lockSessions(tx, sessionIds);
  await lockCards(tx, cardIds);
  return readTogether(tx, {
    cards: storeCardsRead(tx, storeId, [...cardIds]),
    use: openUseRead(tx, storeId, [...cardIds], now),
  });
}
