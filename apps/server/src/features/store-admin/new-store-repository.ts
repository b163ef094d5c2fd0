import { DEDUCT_AT_BOOKING, MODULE_DEDUCTION_MODE, MODULE_ONLINE_DEFAULT } from '@studio/contract';
import { hashPassword } from '../../auth/password.ts';
import type { Db } from '../../db/index.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { audit, auditStore } from '../../lib/audit.ts';

export interface NewStore {
  storeName: string;
  timezone?: string;
  admin: { username: string; password: string; name: string; mobile?: string | null };
}

/** Creates a store with its default modules and its first admin (a post in that store). */
export async function createStoreWithAdmin(db: Db, s: NewStore): Promise<{ storeId: number; staffId: number }> {
  const passwordHash = await hashPassword(s.admin.password);
  return inOwnTx(db, async (tx) => {
    const now = Date.now();
    const store = await tx
      .insertInto('store')
      .values({ name: s.storeName, timezone: s.timezone ?? 'Asia/Shanghai', createdAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const staff = await tx
      .insertInto('staff')
      .values({
        username: s.admin.username,
        mobile: s.admin.mobile ?? null,
        name: s.admin.name,
        passwordHash,
        createdAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await tx.insertInto('post').values({ staffId: staff.id, storeId: store.id, role: 'manager' }).execute();
    await tx
      .insertInto('storeModule')
      .values([
        { storeId: store.id, moduleId: MODULE_DEDUCTION_MODE, status: DEDUCT_AT_BOOKING },
        { storeId: store.id, moduleId: MODULE_ONLINE_DEFAULT, status: 0 },
      ])
      .execute();
    // The first-run setup's entry (by 系统) lands in the new store's log.
    auditStore(tx, store.id);
    audit(tx, {
      kind: 'settings',
      summary: `创建门店 ${s.storeName} 和店长 ${s.admin.name}`,
      targets: [{ type: 'staff', id: staff.id }],
    });
    return { storeId: store.id, staffId: staff.id };
  });
}
