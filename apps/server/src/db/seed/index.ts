import crypto from 'node:crypto';
import type { Db } from '../index.ts';
import { createStoreWithAdmin } from './store.ts';
import { loadDemoData } from './demo.ts';

export const DEMO_ADMIN = 'admin';

export interface SeedResult {
  seeded: boolean;
  /** Set when the password was generated here and must be shown once. */
  generatedPassword?: string;
}

/** On an empty database, loads the demo store (unless `mode` is `empty`). */
export async function seedIfEmpty(db: Db, mode: 'demo' | 'empty', adminPassword?: string): Promise<SeedResult> {
  const any = await db.selectFrom('store').select('id').limit(1).executeTakeFirst();
  if (any || mode === 'empty') return { seeded: false };
  const password = adminPassword ?? crypto.randomBytes(9).toString('base64url');
  const { storeId, staffId } = await createStoreWithAdmin(db, {
    storeName: '悦动健身工作室',
    admin: { username: DEMO_ADMIN, password, name: '店长', mobile: '13800000000' },
  });
  await loadDemoData(db, storeId, staffId);
  return { seeded: true, generatedPassword: adminPassword ? undefined : password };
}
