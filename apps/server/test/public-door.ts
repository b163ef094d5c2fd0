import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../src/db/schema.ts';

/** A proof-of-work challenge as /member/api/auth/challenge answers it. */
export interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** Solves a challenge as the widget does (SHA-256 of salt + number), here with node's hash. */
export function solve(c: Challenge, tamper: Partial<{ number: number; signature: string }> = {}): string {
  for (let n = 0; n <= c.maxnumber; n++) {
    if (crypto.createHash('sha256').update(`${c.salt}${n}`).digest('hex') === c.challenge) {
      const payload = { ...c, number: n, ...tamper };
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    }
  }
  throw new Error('no solution');
}

/**
 * Fresh addresses of a documentation range (`first` three parts' start, e.g. [203, 0, 113]), one
 * per call, so each test's address starts with its allowances whole.
 */
export function addressMaker(a: number, b: number, c: number): () => string {
  let seq = 0;
  return () => {
    seq += 1;
    return `${a}.${b}.${c + Math.floor(seq / 250)}.${(seq % 250) + 1}`;
  };
}

/** Moves the windows of the door's counters whose key starts with `prefix` back by `ms` (an hour passes). */
export const ageCounters = (db: Kysely<Database>, prefix: string, ms: number) =>
  db
    .updateTable('loginCounter')
    .set((eb) => ({ startedAt: eb('startedAt', '-', ms) }))
    .where('key', 'like', `${prefix}%`)
    .execute();
