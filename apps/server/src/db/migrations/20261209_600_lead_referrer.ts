import type { Kysely } from 'kysely';

/**
 * 转介绍 (issue 44, item 5): the member who referred a lead (their 推荐好友 link), set once when the
 * friend's sign-up made the lead; null for every other lead.
 */
export function leadReferrer() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('lead')
        .addColumn('referrer_member_id', 'integer', (c) => c.references('member.id'))
        .execute();
    },
  };
}
