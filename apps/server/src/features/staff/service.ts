import {
  ROLE_LABEL,
  StaffMsg,
  type ParsedReqOf,
  type StaffRole,
  type StaffRow,
  type insertStaff,
  type updateStaff,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { lockStore } from '../../db/locks.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { hashPassword, verifyPassword } from '../../auth/password.ts';
import { audit, changedFields } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { requireTeacher } from '../reference/public.ts';
import { isUniqueViolation } from '../../db/dialect.ts';
import {
  findStaffOfStore,
  hasEnabledManager,
  insertPost,
  insertStaffRow,
  listStaffOfStore,
  loginTaken,
  passwordHashOf,
  replacePasswordHash,
  setPasswordHash,
  updatePost,
  updateStaffRow,
} from './repository.ts';

export async function listStaff(ctx: CallCtx): Promise<StaffRow[]> {
  const rows = await listStaffOfStore(ctx.db, ctx.store.id);
  return rows.map((r) => ({ ...r, role: r.role as StaffRole, enabled: r.enabled ? 1 : 0 }));
}

/** A teacher account's teacher: required for 老师, of this store and not deleted; none for other roles. */
async function teacherFor(tx: Executor, storeId: number, role: StaffRole, teacherId: number | null) {
  if (role !== 'teacher') return null;
  if (!teacherId) throw badRequest(StaffMsg.teacher);
  return (await requireTeacher(tx, storeId, teacherId)).id;
}

/** Mobile numbers and accounts log in alike: one may not be another staff member's other. */
async function requireFreeLogin(tx: Executor, values: (string | null)[], exceptStaffId?: number) {
  const names = values.filter((v): v is string => !!v);
  if (!names.length) return;
  if (await loginTaken(tx, names, exceptStaffId)) throw conflict(StaffMsg.accountTaken);
}

export async function addStaff(ctx: CallCtx, input: ParsedReqOf<typeof insertStaff>): Promise<{ id: number }> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
      const teacherId = await teacherFor(tx, ctx.store.id, input.role, input.teacherId);
      await requireFreeLogin(tx, [input.account, input.mobile]);
      const staffId = await insertStaffRow(tx, {
        username: input.account,
        mobile: input.mobile,
        name: input.name,
        passwordHash,
        createdAt: Date.now(),
      });
      await insertPost(tx, { staffId, storeId: ctx.store.id, role: input.role, teacherId, enabled: 1 });
      audit(tx, {
        kind: 'staff',
        summary: `新增员工 ${input.name}（${ROLE_LABEL[input.role]}）`,
        targets: [{ type: 'staff', id: staffId }],
        after: { 姓名: input.name, 账号: input.account, 手机号: input.mobile, 角色: ROLE_LABEL[input.role] },
      });
      return { id: staffId };
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(StaffMsg.accountTaken);
    throw e;
  }
}

/** Refuses a change that leaves the store without an enabled manager (checked after it, in its transaction). */
async function requireAManager(tx: Tx, storeId: number) {
  if (!(await hasEnabledManager(tx, storeId))) throw conflict(StaffMsg.lastManager);
}

export async function editStaff(ctx: CallCtx, input: ParsedReqOf<typeof updateStaff>): Promise<void> {
  try {
    await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
      // Staff changes of a store run one at a time, so "at least one manager" holds under concurrency.
      await lockStore(tx, ctx.store.id);
      const before = await findStaffOfStore(tx, ctx.store.id, input.id);
      if (!before) throw notFound('员工');
      const teacherId = await teacherFor(tx, ctx.store.id, input.role, input.teacherId);
      await requireFreeLogin(tx, [input.mobile], input.id);
      await updateStaffRow(tx, input.id, { name: input.name, mobile: input.mobile });
      await updatePost(tx, input.id, ctx.store.id, { role: input.role, teacherId, enabled: input.enabled });
      if (before.role === 'manager' && (input.role !== 'manager' || !input.enabled)) {
        await requireAManager(tx, ctx.store.id);
      }
      if (input.id === ctx.staff.id && !input.enabled) throw conflict(StaffMsg.disableSelf);
      // Disabled: every session of theirs ends now (each instance reads the session row on every call);
      // a call with one is told the account is disabled.
      if (!input.enabled) await ctx.sessions.endDisabled(tx, input.id);
      const label = (r: string) => ROLE_LABEL[r as StaffRole] ?? r;
      const changes = changedFields(
        { ...before, role: label(before.role), enabled: before.enabled ? '启用' : '停用' },
        {
          name: input.name,
          mobile: input.mobile,
          role: label(input.role),
          teacherId,
          enabled: input.enabled ? '启用' : '停用',
        },
        { name: '姓名', mobile: '手机号', role: '角色', teacherId: '对应老师', enabled: '状态' },
      );
      audit(tx, {
        kind: 'staff',
        summary: !input.enabled && before.enabled ? `停用员工 ${before.name}` : `修改员工 ${input.name}`,
        targets: [{ type: 'staff', id: input.id }],
        ...changes,
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(StaffMsg.accountTaken);
    throw e;
  }
}

/**
 * A manager sets another staff member's password and ends their sessions. Their own goes through
 * 修改密码, which asks for the old one (a session left open must not be enough to take the account).
 */
export async function resetPassword(ctx: CallCtx, id: number, password: string): Promise<void> {
  if (id === ctx.staff.id) throw conflict(StaffMsg.ownPassword);
  const passwordHash = await hashPassword(password);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const who = await findStaffOfStore(tx, ctx.store.id, id);
    if (!who) throw notFound('员工');
    await setPasswordHash(tx, id, passwordHash);
    await ctx.sessions.endAll(tx, id);
    audit(tx, { kind: 'staff', summary: `重置员工 ${who.name} 的密码`, targets: [{ type: 'staff', id }] });
  });
}

/** A staff member changes their own password: the old one must match; their other sessions end. */
export async function changeOwnPassword(ctx: CallCtx, oldPassword: string, newPassword: string, token?: string) {
  const oldHash = await passwordHashOf(ctx.db, ctx.staff.id);
  if (!(await verifyPassword(oldHash, oldPassword))) throw badRequest(StaffMsg.oldPasswordWrong);
  if (oldPassword === newPassword) throw badRequest(StaffMsg.samePassword);
  const passwordHash = await hashPassword(newPassword);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    // Guarded on the hash read above: two changes at once, one wins.
    if (!(await replacePasswordHash(tx, ctx.staff.id, oldHash, passwordHash))) {
      throw badRequest(StaffMsg.oldPasswordWrong);
    }
    await ctx.sessions.endAll(tx, ctx.staff.id, token);
    audit(tx, {
      kind: 'staff',
      summary: `${ctx.staff.name} 修改了自己的密码`,
      targets: [{ type: 'staff', id: ctx.staff.id }],
    });
  });
}
