import type { Db } from '../db/index.ts';

/** Failed logins are counted in the database, so the limit holds across app instances. */
export const WINDOW_MS = 15 * 60 * 1000;
export const MAX_PER_ACCOUNT = 10;
export const MAX_PER_IP = 30;

const accountKey = (account: string) => `a:${account.trim().toLowerCase()}`;
const ipKey = (ip: string) => `i:${ip}`;

export async function isLocked(db: Db, account: string, ip: string): Promise<boolean> {
  const since = Date.now() - WINDOW_MS;
  const rows = await db
    .selectFrom('loginFailure')
    .select(['key', (eb) => eb.fn.countAll<number>().as('n')])
    .where('key', 'in', [accountKey(account), ipKey(ip)])
    .where('at', '>', since)
    .groupBy('key')
    .execute();
  for (const r of rows) {
    const n = Number(r.n);
    if (r.key.startsWith('a:') && n >= MAX_PER_ACCOUNT) return true;
    if (r.key.startsWith('i:') && n >= MAX_PER_IP) return true;
  }
  return false;
}

export async function recordFailure(db: Db, account: string, ip: string): Promise<void> {
  const at = Date.now();
  await db
    .insertInto('loginFailure')
    .values([
      { key: accountKey(account), at },
      { key: ipKey(ip), at },
    ])
    .execute();
  if (Math.random() < 0.02)
    await db
      .deleteFrom('loginFailure')
      .where('at', '<', at - WINDOW_MS)
      .execute();
}

export async function clearAccountFailures(db: Db, account: string): Promise<void> {
  await db.deleteFrom('loginFailure').where('key', '=', accountKey(account)).execute();
}
