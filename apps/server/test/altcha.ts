import crypto from 'node:crypto';

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
