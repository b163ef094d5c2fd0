import crypto from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { hashPassword } from '../../auth/password.ts';
import { anyStore } from '../../lib/store-repository.ts';
import { createStoreWithAdmin } from '../../features/store-admin/public.ts';
import { loadDemoData } from './demo.ts';

export const DEMO_ADMIN = 'admin';

export const DEMO_DESK = 'desk';
export const DEMO_TEACHER = 'teacher';

export interface SeedResult {
  seeded: boolean;
  /** Set when the password was generated here and must be shown once. */
  generatedPassword?: string;
  /** The demo's front-desk and teacher accounts; `password` set when generated here (shown once). */
  others?: { account: string; label: string; password?: string }[];
}

/** Passwords of the demo's other accounts, from the environment (else generated). */
export interface DemoPasswords {
  admin?: string;
  desk?: string;
  teacher?: string;
}

const generated = () => `${crypto.randomBytes(9).toString('base64url')}7a`;

/** On an empty database, loads the demo store (unless `mode` is `empty`). */
export async function seedIfEmpty(db: Db, mode: 'demo' | 'empty', passwords: DemoPasswords = {}): Promise<SeedResult> {
  const adminPassword = passwords.admin;
  if ((await anyStore(db)) || mode === 'empty') return { seeded: false };
  const password = adminPassword ?? crypto.randomBytes(9).toString('base64url');
  const { storeId, staffId } = await createStoreWithAdmin(db, {
    storeName: '悦动健身工作室',
    admin: { username: DEMO_ADMIN, password, name: '店长', mobile: '13800000000' },
  });
  await loadDemoData(db, storeId, staffId);
  // A front desk and a teacher account (the teacher of the demo's first teacher).
  const teacher = await db
    .selectFrom('teacher')
    .select('id')
    .where('storeId', '=', storeId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const others = [
    { account: DEMO_DESK, label: '前台', name: '前台小林', role: 'desk', teacherId: null, given: passwords.desk },
    {
      account: DEMO_TEACHER,
      label: '老师',
      name: '老师账号',
      role: 'teacher',
      teacherId: teacher.id,
      given: passwords.teacher,
    },
  ];
  const shown: NonNullable<SeedResult['others']> = [];
  for (const o of others) {
    const pw = o.given ?? generated();
    const row = await db
      .insertInto('staff')
      .values({
        username: o.account,
        mobile: null,
        name: o.name,
        passwordHash: await hashPassword(pw),
        createdAt: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('post').values({ staffId: row.id, storeId, role: o.role, teacherId: o.teacherId }).execute();
    shown.push({ account: o.account, label: o.label, password: o.given ? undefined : pw });
  }
  return { seeded: true, generatedPassword: adminPassword ? undefined : password, others: shown };
}
