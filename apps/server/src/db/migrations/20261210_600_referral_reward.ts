import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * 转介绍奖励 (issue 44, item 5): the reward a referrer gets once their friend (a 转介绍 lead) attends a
 * first class or buys a first card (the store's setting, key `referral`).
 * - `referral_reward`: one row a referred lead at most (`referral_reward_lead_uq`: of two triggers at
 *   once on two instances one inserts, the other finds it), with the referrer, the friend (a member
 *   by then), what triggered it (`trigger_on`), the reward (kind 'lessons' classes, 'days' of validity, 'money' fen;
 *   amount), its status ('pending' no card of the kind to put it on yet, 'granted', 'undone'), the
 *   card credited and its ledger entry (`ledger_id`, kind 'referral'), and once undone the entry
 *   taking it back (`undo_ledger_id`, kind 'referral_undone') with who and when.
 */
export function referralReward(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('referral_reward')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('lead_id', 'integer', (c) => c.notNull().references('lead.id'))
        .addColumn('referrer_member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('friend_member_id', 'integer', (c) => c.notNull().references('member.id'))
        .addColumn('trigger_on', 'text', (c) => c.notNull().check(sql`trigger_on in ('class', 'card')`))
        .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('lessons', 'days', 'money')`))
        .addColumn('amount', 'integer', (c) => c.notNull().check(sql`amount > 0`))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'granted', 'undone')`))
        .addColumn('member_card_id', 'integer', (c) => c.references('member_card.id'))
        .addColumn('ledger_id', 'integer', (c) => c.references('card_ledger.id'))
        .addColumn('undo_ledger_id', 'integer', (c) => c.references('card_ledger.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('granted_at', 'text')
        .addColumn('undone_at', 'text')
        .addColumn('undone_by', 'integer', (c) => c.references('staff.id'))
        .addUniqueConstraint('referral_reward_lead_uq', ['lead_id'])
        .execute();
      await db.schema.createIndex('referral_reward_store').on('referral_reward').columns(['store_id', 'id']).execute();
    },
  };
}
