import type { ExpressionBuilder } from 'kysely';
import type { Executor, Tx } from '../../db/index.ts';
import type { Database, NewRow, RowUpdate } from '../../db/schema.ts';

/**
 * The staff's repository: staff members with their post in a store (role, teacher, enabled), their
 * logins and passwords, and the sessions a teacher's post lets them name. The rules (who may be a
 * teacher, at least one manager, which login is free) stay in `service.ts` and `access.ts`.
 */

/** The staff of a store, by their post there. */
function staffOfStore(ex: Executor, storeId: number) {
  return ex
    .selectFrom('post')
    .innerJoin('staff', 'staff.id', 'post.staffId')
    .leftJoin('teacher', 'teacher.id', 'post.teacherId')
    .select([
      'staff.id',
      'staff.name',
      'staff.username as account',
      'staff.mobile',
      'post.role',
      'post.teacherId',
      'teacher.name as teacherName',
      'post.enabled',
    ])
    .where('post.storeId', '=', storeId);
}

/** The staff of a store with their post there, in id order. */
export function listStaffOfStore(ex: Executor, storeId: number) {
  return staffOfStore(ex, storeId).orderBy('staff.id').execute();
}

/** A staff member of the store (by their post there), or undefined. */
export function findStaffOfStore(ex: Executor, storeId: number, staffId: number) {
  return staffOfStore(ex, storeId).where('staff.id', '=', staffId).executeTakeFirst();
}

/** Whether a staff member (other than `exceptStaffId`) has one of `names` as their account or mobile. */
export async function loginTaken(ex: Executor, names: readonly string[], exceptStaffId?: number): Promise<boolean> {
  let q = ex
    .selectFrom('staff')
    .select('id')
    .where((eb) => eb.or([eb('username', 'in', names), eb('mobile', 'in', names)]));
  if (exceptStaffId) q = q.where('id', '!=', exceptStaffId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Inserts a staff member; answers their id. */
export async function insertStaffRow(tx: Tx, row: NewRow<'staff'>): Promise<number> {
  const r = await tx.insertInto('staff').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** Inserts a staff member's post in a store. */
export async function insertPost(tx: Tx, row: NewRow<'post'>): Promise<void> {
  await tx.insertInto('post').values(row).execute();
}

/** Changes a staff member's name and mobile. */
export async function updateStaffRow(tx: Tx, id: number, fields: Pick<RowUpdate<'staff'>, 'name' | 'mobile'>) {
  await tx.updateTable('staff').set(withNewAuthVersion(fields)).where('id', '=', id).execute();
}

/** Changes a staff member's post in a store (role, teacher, enabled). */
export async function updatePost(
  tx: Tx,
  staffId: number,
  storeId: number,
  fields: Pick<RowUpdate<'post'>, 'role' | 'teacherId' | 'enabled'>,
): Promise<void> {
  await tx.updateTable('post').set(fields).where('staffId', '=', staffId).where('storeId', '=', storeId).execute();
}

/** Whether the store has an enabled manager. */
export async function hasEnabledManager(ex: Executor, storeId: number): Promise<boolean> {
  const m = await ex
    .selectFrom('post')
    .select('id')
    .where('storeId', '=', storeId)
    .where('role', '=', 'manager')
    .where('enabled', '=', 1)
    .executeTakeFirst();
  return m !== undefined;
}

/**
 * A change of a staff row that ends what its sessions were allowed (profile, role, password): the
 * auth version moves with it, in the same statement, so every instance re-reads the profile.
 */
const withNewAuthVersion =
  <T extends RowUpdate<'staff'>>(fields: T) =>
  (eb: ExpressionBuilder<Database, 'staff'>) => ({
    ...fields,
    authVersion: eb('authVersion', '+', 1),
  });

/** A staff member's password hash (the staff member exists). */
export async function passwordHashOf(ex: Executor, staffId: number): Promise<string> {
  const row = await ex.selectFrom('staff').select('passwordHash').where('id', '=', staffId).executeTakeFirstOrThrow();
  return row.passwordHash;
}

/** Sets a staff member's password hash. */
export async function setPasswordHash(tx: Tx, staffId: number, passwordHash: string): Promise<void> {
  await tx.updateTable('staff').set(withNewAuthVersion({ passwordHash })).where('id', '=', staffId).execute();
}

/** Replaces a staff member's password hash only while it is still `oldHash` (guarded); false otherwise. */
export async function replacePasswordHash(
  tx: Tx,
  staffId: number,
  oldHash: string,
  passwordHash: string,
): Promise<boolean> {
  const done = await tx
    .updateTable('staff')
    .set(withNewAuthVersion({ passwordHash }))
    .where('id', '=', staffId)
    .where('passwordHash', '=', oldHash)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}

/**
 * A session of the store (deleted too) with its teacher, or undefined when the store has no such
 * session: the one check that a session id names one of the store's.
 */
export function sessionOfStore(ex: Executor, storeId: number, sessionId: number) {
  return ex
    .selectFrom('timetable')
    .select('teacherId')
    .where('id', '=', sessionId)
    .where('storeId', '=', storeId)
    .executeTakeFirst();
}

/** The teacher of the session of a booking of the store, or undefined when there is no such booking. */
export function reservationSessionTeacher(ex: Executor, storeId: number, reservationId: number) {
  return ex
    .selectFrom('reservation')
    .innerJoin('timetable', 'timetable.id', 'reservation.timetableId')
    .select('timetable.teacherId')
    .where('reservation.id', '=', reservationId)
    .where('reservation.storeId', '=', storeId)
    .executeTakeFirst();
}

/** The teacher of the session of a pending of the store, or undefined when there is no such pending. */
export function pendingSessionTeacher(ex: Executor, storeId: number, pendingId: number) {
  return ex
    .selectFrom('pending')
    .innerJoin('timetable', 'timetable.id', 'pending.timetableId')
    .select('timetable.teacherId')
    .where('pending.id', '=', pendingId)
    .where('pending.storeId', '=', storeId)
    .executeTakeFirst();
}
