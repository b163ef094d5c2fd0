import type { MemberIdentity } from '@studio/contract';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { afterWrite, forgetMember, invalidates, rememberMember, type WriteKind } from './invalidations.ts';
import { keys, privateKeys } from './query-keys.ts';

/** One cached query for every key the members' page makes. */
const sample = {
  store: keys.store(3),
  me: keys.me(3),
  'timetable.public': keys.timetable.public(3, '2026-11-23', '2026-12-06'),
  'timetable.mine': keys.timetable.mine('2026-11-23', '2026-12-06'),
  'bookings.page': keys.bookings.page('upcoming', 1),
  'bookings.past': keys.bookings.page('past', 2),
  'cards.mine': keys.cards.mine,
  'cards.forSession': keys.cards.forSession(7),
  'cards.forLesson': keys.cards.forLesson(7, 2, '2026-11-24 10:00:00'),
  'lessons.types': keys.lessons.types,
  'lessons.slots': keys.lessons.slots(7, null, '2026-11-24'),
  'lessons.open': keys.lessons.open(7, 2, '2026-11-24'),
  'cards.leaves': keys.cards.leaves(7),
  challenge: keys.challenge(1),
  shop: keys.shop,
  'orders.page': keys.orders.page(1),
} satisfies Record<string, QueryKey>;
type Name = keyof typeof sample;

function filled(): QueryClient {
  const qc = new QueryClient();
  for (const key of Object.values(sample)) qc.setQueryData(key, 'cached');
  return qc;
}
const query = (qc: QueryClient, name: Name) => qc.getQueryCache().find({ queryKey: sample[name], exact: true });

/** The names whose query is stale after `kind`'s write. */
function refetchedBy(kind: WriteKind): Name[] {
  const qc = filled();
  afterWrite(qc, kind);
  return (Object.keys(sample) as Name[]).filter((n) => query(qc, n)!.state.isInvalidated).sort();
}

/** Seats, my state, 我的预约 and my cards: what every booking write changes. */
const seatsAndCards: Name[] = [
  'timetable.public',
  'timetable.mine',
  'bookings.page',
  'bookings.past',
  'cards.mine',
  'cards.forSession',
  'cards.forLesson',
  'cards.leaves',
  'lessons.types',
  'lessons.slots',
  'lessons.open',
].sort() as Name[];

describe("the members' page: each write refetches what it changes", () => {
  it.each(['book', 'joinWaitlist', 'cancel', 'checkIn', 'leave'] as const)(
    'a %s refetches the timetable (both views), 我的预约 (every tab and page) and my cards',
    (kind) => {
      expect(refetchedBy(kind)).toEqual(seatsAndCards);
    },
  );

  it('an order refetches 我的订单; a paid one my cards too (the new card, the top-up)', () => {
    expect(refetchedBy('order')).toEqual(['orders.page']);
    expect(refetchedBy('paid')).toEqual([
      'cards.forLesson',
      'cards.forSession',
      'cards.leaves',
      'cards.mine',
      'orders.page',
    ]);
  });

  it('every kind of write is one of those five, or an order', () => {
    expect(Object.keys(invalidates).sort()).toEqual([
      'book',
      'cancel',
      'checkIn',
      'joinWaitlist',
      'leave',
      'order',
      'paid',
    ]);
  });

  it('no write touches the store, who is signed in, or a challenge being solved', () => {
    for (const kind of Object.keys(invalidates) as WriteKind[]) {
      expect(refetchedBy(kind)).not.toContain('store');
      expect(refetchedBy(kind)).not.toContain('me');
      expect(refetchedBy(kind)).not.toContain('challenge');
    }
  });
});

describe('signing in and out on a shared phone', () => {
  const who = { member: { id: 5, name: '王小明' }, store: { id: 3 } } as unknown as MemberIdentity;

  it("sign-out leaves nobody signed in and drops everything of the member's", () => {
    const qc = filled();
    forgetMember(qc, 3);
    expect(qc.getQueryData(keys.me(3))).toBeNull();
    const left = (Object.keys(sample) as Name[]).filter((n) => query(qc, n) !== undefined).sort();
    expect(left).toEqual(['challenge', 'me', 'store', 'timetable.public']);
  });

  it('sign-in sets who is signed in for the store, without asking the server again', () => {
    const qc = new QueryClient();
    rememberMember(qc, 3, who);
    expect(qc.getQueryData(keys.me(3))).toBe(who);
    expect(qc.getQueryData(keys.me(4))).toBeUndefined();
  });

  it('the private keys are the signed-in views only: the public week stays for the landing page', () => {
    const isPrivate = (key: QueryKey) =>
      privateKeys.some((p) => p.every((part, i) => JSON.stringify(part) === JSON.stringify(key[i])));
    expect(isPrivate(keys.timetable.mine('2026-11-23', '2026-12-06'))).toBe(true);
    expect(isPrivate(keys.bookings.page('past', 3))).toBe(true);
    expect(isPrivate(keys.cards.forSession(7))).toBe(true);
    expect(isPrivate(keys.lessons.slots(7, null, '2026-11-24'))).toBe(true);
    expect(isPrivate(keys.timetable.public(3, '2026-11-23', '2026-12-06'))).toBe(false);
    expect(isPrivate(keys.store(3))).toBe(false);
  });

  it('each store has its own sign-in and page; each check its own challenge', () => {
    expect(keys.me(3)).not.toEqual(keys.me(4));
    expect(keys.store(3)).not.toEqual(keys.store(4));
    expect(keys.challenge(1)).not.toEqual(keys.challenge(2));
    expect(keys.bookings.page('upcoming', 1)).not.toEqual(keys.bookings.page('past', 1));
  });
});
