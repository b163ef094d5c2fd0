import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * Members' own data (issue 45, item 5):
 * - `member_consent`: every consent given or withdrawn, never changed: its kind ('privacy' the
 *   privacy notice, 'marketing', 'health'), the notice's version, granted or not, how ('phone' the
 *   member, 'desk' the staff for them) and when (store-local). A kind's latest row is the member's choice.
 * - `erasure_request`: a member's request to delete their account: 'pending' until the manager
 *   decides ('done' erased, 'rejected' with a note) or the member withdraws it ('withdrawn'); one
 *   pending request per member (`erasure_request_pending_uq`, a partial unique index).
 * - `member.erased_at`: when the member's personal fields were erased (their records stay).
 * - `audit_log.redacted_at`: the log's entries are never changed, but for one thing: an erasure
 *   takes a member's name and mobile out of the entries about them, and stamps them. The trigger
 *   refuses any other change (the entry's who, when, call, kind and links stay as written).
 */
export function memberPrivacy(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('member_consent')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('privacy', 'marketing', 'health')`))
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('granted', 'integer', (c) => c.notNull().check(sql`granted in (0, 1)`))
        .addColumn('way', 'text', (c) => c.notNull().check(sql`way in ('phone', 'desk')`))
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('member_consent_member')
        .on('member_consent')
        .columns(['member_id', 'kind', 'id'])
        .execute();

      await db.schema
        .createTable('erasure_request')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('reason', 'text')
        .addColumn('status', 'text', (c) =>
          c
            .notNull()
            .defaultTo('pending')
            .check(sql`status in ('pending', 'done', 'rejected', 'withdrawn')`),
        )
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('decided_at', 'text')
        .addColumn('decided_by', 'integer', (c) => c.references('staff.id'))
        .addColumn('note', 'text')
        .execute();
      await db.schema
        .createIndex('erasure_request_pending_uq')
        .on('erasure_request')
        .column('member_id')
        .unique()
        .where(sql.ref('status'), '=', 'pending')
        .execute();
      await db.schema
        .createIndex('erasure_request_store')
        .on('erasure_request')
        .columns(['store_id', 'status'])
        .execute();

      await db.schema.alterTable('member').addColumn('erased_at', 'text').execute();

      await db.schema.alterTable('audit_log').addColumn('redacted_at', 'text').execute();
      // The columns an erasure leaves as they were (its text columns are what it redacts).
      const kept = ['id', 'store_id', 'at', 'actor_kind', 'staff_id', 'member_id', 'call', 'kind', 'undo_of'];
      if (dialect === 'postgres') {
        const changed = kept.map((c) => `new.${c} is distinct from old.${c}`).join(' or ');
        await sql
          .raw(
            `create or replace function audit_log_frozen() returns trigger language plpgsql as $$
            begin
              if new.redacted_at is null or ${changed} then
                raise exception 'audit_log entries cannot be changed';
              end if;
              return new;
            end $$`,
          )
          .execute(db);
      } else {
        const changed = kept.map((c) => `new.${c} is not old.${c}`).join(' or ');
        await sql`drop trigger audit_log_no_update`.execute(db);
        await sql
          .raw(
            `create trigger audit_log_no_update before update on audit_log
            when new.redacted_at is null or ${changed}
            begin select raise(abort, 'audit_log entries cannot be changed'); end`,
          )
          .execute(db);
      }
    },
  };
}
