import { sql, type Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * Staff roles and the audit log (issue 14).
 * - `post.role` becomes one of manager / desk / teacher (every existing post was 'admin': a manager);
 *   `post.teacher_id` ties a teacher account to its teacher; `post.enabled` 0 is a disabled staff member.
 * - `staff.auth_version` moves on every change of a staff member's posts or password, so an instance's
 *   cached profile is never used after such a change (the session read compares it).
 * - `audit_log`: one entry per write, in the write's transaction: who (staff, member or system), when,
 *   the call, kind, a summary, changed fields before and after, and for a bulk change what an undo
 *   needs. Rows are never updated (a trigger refuses it); an undo is a new entry naming the one it
 *   undid (`undo_of`, unique: a change is undone once).
 * - `audit_target`: what an entry is about (member, session, card, booking, staff), for the filters.
 */
export function staffRolesAudit(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const serial = <T extends { addColumn: (...a: any[]) => T }>(tb: T): T =>
    dialect === 'postgres'
      ? tb.addColumn('id', 'serial', (c: any) => c.primaryKey())
      : tb.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('post')
        .addColumn('teacher_id', 'integer', (c) => c.references('teacher.id'))
        .execute();
      await db.schema
        .alterTable('post')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
      await sql`update post set role = 'manager' where role = 'admin'`.execute(db);
      await db.schema
        .alterTable('staff')
        .addColumn('auth_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('post_store').on('post').columns(['store_id', 'staff_id']).execute();

      await db.schema
        .createTable('audit_log')
        .$call(serial)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('at', big, (c) => c.notNull())
        .addColumn('actor_kind', 'text', (c) => c.notNull())
        .addColumn('staff_id', 'integer')
        .addColumn('member_id', 'integer')
        .addColumn('actor_name', 'text', (c) => c.notNull())
        .addColumn('call', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('target', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('before_json', 'text')
        .addColumn('after_json', 'text')
        .addColumn('undo_json', 'text')
        .addColumn('undo_of', 'integer')
        .execute();
      await db.schema.createIndex('audit_log_store_at').on('audit_log').columns(['store_id', 'at']).execute();
      await db.schema.createIndex('audit_log_staff').on('audit_log').columns(['store_id', 'staff_id', 'at']).execute();
      await db.schema.createIndex('audit_log_undo_of').on('audit_log').column('undo_of').unique().execute();
      await db.schema
        .createTable('audit_target')
        .addColumn('audit_id', 'integer', (c) => c.notNull())
        .addColumn('store_id', 'integer', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('ref_id', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('audit_target_ref')
        .on('audit_target')
        .columns(['store_id', 'type', 'ref_id', 'audit_id'])
        .execute();
      await db.schema.createIndex('audit_target_entry').on('audit_target').column('audit_id').execute();
      // Entries are never changed.
      if (dialect === 'postgres') {
        await sql`create or replace function audit_log_frozen() returns trigger language plpgsql as $$
          begin raise exception 'audit_log entries cannot be changed'; end $$`.execute(db);
        await sql`create trigger audit_log_no_update before update on audit_log
          for each row execute function audit_log_frozen()`.execute(db);
      } else {
        await sql`create trigger audit_log_no_update before update on audit_log
          begin select raise(abort, 'audit_log entries cannot be changed'); end`.execute(db);
      }
    },
  };
}
