import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { rootOf } from '../../lib/audit.ts';
import { installationSecret } from '../member-channel/public.ts';

/**
 * The unsubscribe link's token: the store and the mobile sealed in one AES block under the
 * installation's `unsubscribe` secret (22 characters; the same person, the same token; forged ones
 * open to a block whose padding is not ours and name nobody). The reply address's key: an HMAC of
 * the store under the same secret, so only the address handed to the provider is believed.
 */
// The secret is made on first use, also within a call's write: through the database under its scoped
// handle (an installation secret is bookkeeping, not the call's change).
const secretOf = async (db: Db) =>
  crypto
    .createHash('sha256')
    .update(await installationSecret(rootOf(db), 'unsubscribe'))
    .digest();

export async function unsubscribeToken(db: Db, storeId: number, mobile: string): Promise<string> {
  const block = Buffer.alloc(16);
  block.writeUInt32BE(storeId, 0);
  block.writeUIntBE(Number(mobile), 4, 6);
  const c = crypto.createCipheriv('aes-128-ecb', (await secretOf(db)).subarray(0, 16), null).setAutoPadding(false);
  return Buffer.concat([c.update(block), c.final()]).toString('base64url');
}

/** The store and mobile a token names, or undefined (malformed, forged). */
export async function openUnsubscribeToken(
  db: Db,
  token: string,
): Promise<{ storeId: number; mobile: string } | undefined> {
  const sealed = Buffer.from(token, 'base64url');
  if (sealed.length !== 16 || sealed.toString('base64url') !== token) return undefined;
  const d = crypto.createDecipheriv('aes-128-ecb', (await secretOf(db)).subarray(0, 16), null).setAutoPadding(false);
  const block = Buffer.concat([d.update(sealed), d.final()]);
  if (!block.subarray(10).equals(Buffer.alloc(6))) return undefined;
  const mobile = String(block.readUIntBE(4, 6));
  if (!/^1\d{10}$/.test(mobile)) return undefined;
  return { storeId: block.readUInt32BE(0), mobile };
}

/** The key in the store's reply (上行短信) address. */
export async function uplinkKey(db: Db, storeId: number): Promise<string> {
  return crypto
    .createHmac('sha256', await secretOf(db))
    .update(`uplink:${storeId}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}

export async function uplinkKeyOk(db: Db, storeId: number, key: string): Promise<boolean> {
  const want = Buffer.from(await uplinkKey(db, storeId));
  const got = Buffer.from(key);
  return got.length === want.length && crypto.timingSafeEqual(got, want);
}
