import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { installationSecret } from './member-auth.ts';

/**
 * A member's referral code (推荐好友, issue 44 item 5): their store and id sealed in one AES block
 * under the installation's `referral` secret. Stable (the same member, the same code, on every
 * instance), not their id, and not guessable: any other 22 characters open to a block whose padding
 * is not ours and name nobody.
 */
const keyOf = async (db: Db) =>
  crypto
    .createHash('sha256')
    .update(await installationSecret(db, 'referral'))
    .digest()
    .subarray(0, 16);

export async function referralCodeOf(db: Db, storeId: number, memberId: number): Promise<string> {
  const block = Buffer.alloc(16);
  block.writeUInt32BE(storeId, 0);
  block.writeUInt32BE(memberId, 4);
  const c = crypto.createCipheriv('aes-128-ecb', await keyOf(db), null).setAutoPadding(false);
  return Buffer.concat([c.update(block), c.final()]).toString('base64url');
}

/** The member id a referral code names in `storeId`, or undefined (malformed, forged, another store's). */
export async function referrerIdOf(db: Db, storeId: number, code: string): Promise<number | undefined> {
  const sealed = Buffer.from(code, 'base64url');
  // the one spelling of the block (another last letter may differ only in the unused bits)
  if (sealed.length !== 16 || sealed.toString('base64url') !== code) return undefined;
  const d = crypto.createDecipheriv('aes-128-ecb', await keyOf(db), null).setAutoPadding(false);
  const block = Buffer.concat([d.update(sealed), d.final()]);
  if (block.length !== 16 || !block.subarray(8).equals(Buffer.alloc(8))) return undefined;
  if (block.readUInt32BE(0) !== storeId) return undefined;
  return block.readUInt32BE(4);
}
