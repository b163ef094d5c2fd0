import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * The members' channel (issue 12): members sign in with their mobile and a one-time code and act
 * on their own bookings.
 * - `member_login_code`: one-time codes (SHA-256 of the code, never the code), their expiry, wrong
 *   tries counted in the row (a guarded UPDATE per attempt, so the limit holds across instances)
 *   and when it was used (once).
 * - `member_session`: a member's session, its own table and cookie (never a staff session); idle
 *   expiry moves on with use.
 * - `pending.member_card_id`: the card chosen when a seat is held in sign-in mode (a member's own
 *   booking, or the desk's), used when the member checks in by themself.
 * - `reservation.attended_time`: in deduction mode 0 a booking marked attended (self check-in).
 */
export function memberChannel(dialect: Dialect) {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('member_login_code')
        .$call((tb) =>
          dialect === 'postgres'
            ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
            : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
        )
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('used_at', big)
        .execute();
      await db.schema
        .createIndex('member_login_code_member')
        .on('member_login_code')
        .columns(['member_id', 'id'])
        .execute();
      await db.schema
        .createTable('member_session')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('member_id', 'integer', (c) => c.notNull().references('member.id').onDelete('cascade'))
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('expires_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('member_session_member').on('member_session').column('member_id').execute();
      await db.schema
        .alterTable('pending')
        .addColumn('member_card_id', 'integer', (c) => c.references('member_card.id'))
        .execute();
      await db.schema.alterTable('reservation').addColumn('attended_time', 'text').execute();
    },
  };
}
