import type { Kysely } from 'kysely';

type Dialect = 'sqlite' | 'postgres';

/**
 * No-shows (issue 13): a pending not signed in by its class's end becomes status 4 (its seat stays
 * counted) and, when the policy says so, is charged once to a usable card of the member: the fee,
 * the card, and a waiver by staff with its reason. `member.suspension_lifted_at`: no-shows before it
 * no longer count towards a suspension (staff lifted it). `history.override`: a staff booking or
 * cancel the members' policy would have refused, recorded as such.
 */
export function noShow(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('pending')
        .addColumn('no_show_fee', pg ? 'bigint' : 'integer')
        .execute();
      await db.schema
        .alterTable('pending')
        .addColumn('no_show_card_id', 'integer', (c) => c.references('member_card.id'))
        .execute();
      await db.schema.alterTable('pending').addColumn('waived_time', 'text').execute();
      await db.schema.alterTable('pending').addColumn('waive_reason', 'text').execute();
      await db.schema.alterTable('member').addColumn('suspension_lifted_at', 'text').execute();
      // A staff booking or cancel outside the members' policy, recorded on its history row.
      await db.schema.alterTable('history').addColumn('override', 'text').execute();
      // The job's scan: waiting pendings by session.
      await db.schema.createIndex('pending_status_session').on('pending').columns(['status', 'timetable_id']).execute();
    },
  };
}
