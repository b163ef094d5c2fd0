import type { Db } from '../db/index.ts';
import {
  counterValue,
  deleteCounter,
  deleteCountersStartedBefore,
  giveCounterSlotBack,
  takeCounterSlot,
} from './repository.ts';

/**
 * Login limits, kept in the database so they hold across app instances. Each login attempt first
 * reserves one slot per key in ONE conditional upsert (increment-then-check on the key's counter
 * row), and only a reserved attempt verifies its password: however many attempts arrive at once,
 * on however many instances, at most MAX_PER_ACCOUNT per account and MAX_PER_IP per address are
 * ever checked in a window. A failed attempt keeps its slot (it is the failure count); a success
 * frees the account's slots and gives its address slot back.
 */
export const WINDOW_MS = 15 * 60 * 1000;
export const MAX_PER_ACCOUNT = 10;
export const MAX_PER_IP = 30;

/**
 * The counter of a login name: the staff account it names (whether by account name or mobile),
 * or, for a name nobody has, the typed name itself, which locks the same way (nothing enumerated).
 */
export const accountKey = (staffId: number | undefined, typed: string) =>
  staffId === undefined ? `n:${typed.trim().toLowerCase()}` : `s:${staffId}`;
const ipKey = (ip: string) => `i:${ip}`;

/** The longest window of any counter (a store's texts of one local day): older rows are swept. */
const LONGEST_WINDOW_MS = 48 * 3600 * 1000;

/**
 * Takes one attempt on `key` unless `max` were taken since its window began (`windowMs`, default the
 * login window); false when refused. Also the members' login-code limits (features/member-channel).
 */
export async function reserve(db: Db, key: string, max: number, now: number, windowMs = WINDOW_MS): Promise<boolean> {
  return takeCounterSlot(db, key, max, now, now - windowMs);
}

/** How many of `key`'s slots are taken in its current window (nothing reserved). */
export async function reserved(db: Db, key: string, now: number, windowMs = WINDOW_MS): Promise<number> {
  return counterValue(db, key, now - windowMs);
}

/** Gives one slot of `key` back (an attempt that turned out to be allowed, or not made). */
export async function release(db: Db, key: string): Promise<void> {
  await giveCounterSlotBack(db, key);
}

/** Now and then (2% of calls) deletes the counters whose longest window has passed. */
export async function sweepCounters(db: Db, now: number): Promise<void> {
  if (Math.random() < 0.02) await deleteCountersStartedBefore(db, now - LONGEST_WINDOW_MS);
}

/**
 * Reserves the attempt of a login before its password is verified: one slot of the account, then
 * one of the address (the account's slot is given back when the address is over its limit).
 * False: refuse without checking the password.
 */
export async function reserveAttempt(db: Db, account: string, ip: string): Promise<boolean> {
  const now = Date.now();
  if (!(await reserve(db, account, MAX_PER_ACCOUNT, now))) return false;
  if (!(await reserve(db, ipKey(ip), MAX_PER_IP, now))) {
    await release(db, account);
    return false;
  }
  await sweepCounters(db, now);
  return true;
}

/** After a successful login: the account starts afresh, and the address gets its slot back. */
export async function attemptSucceeded(db: Db, account: string, ip: string): Promise<void> {
  await deleteCounter(db, account);
  await release(db, ipKey(ip));
}
