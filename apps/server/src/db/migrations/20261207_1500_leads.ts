import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../index.ts';
import { serialId } from './serial-id.ts';

/**
 * 潜客 (issue 44, items 1, 2 and 4's hook): prospects of a store and their follow-ups.
 * - `lead`: one per store and mobile (`lead_store_mobile_uq`: two desks adding the same person at
 *   once make one lead, the second merges into it). `source` is a built-in source (到店, 电话, ...)
 *   or one the manager added; `owner_id` the staff member following them up (null: 公海, the pool).
 *   `stage`: 'new' 新线索, 'contacted' 已联系, 'trial_booked' 已约体验, 'trial_done' 已体验, 'won' 已成交,
 *   'lost' 已流失 (with `lost_reason`). `touched_at` (store-local) moves on creation, each follow-up,
 *   an assignment or a take from the pool: a lead untouched for the store's days goes back to the
 *   pool. `next_follow_up` (a date): when its owner means to follow up next.
 * - Conversion: the first card sold to the member holding the lead's mobile makes it 'won', once
 *   (`converted_card_id` set by a guarded UPDATE), credited to `converted_owner_id` and
 *   `converted_source` as they were then.
 * - `lead_follow_up`: each follow-up: `way` 'phone' 电话, 'wechat' 微信, 'visit' 到店, a note and the
 *   next follow-up date it set.
 */
export function leads(dialect: Dialect) {
  const id = serialId(dialect);
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('lead')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('mobile', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('interests', 'text')
        .addColumn('notes', 'text')
        .addColumn('preferred_times', 'text')
        .addColumn('owner_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('stage', 'text', (c) => c.notNull().defaultTo('new'))
        .addColumn('lost_reason', 'text')
        .addColumn('next_follow_up', 'text')
        .addColumn('touched_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer', (c) => c.references('staff.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('converted_card_id', 'integer', (c) => c.references('member_card.id'))
        .addColumn('converted_member_id', 'integer', (c) => c.references('member.id'))
        .addColumn('converted_owner_id', 'integer', (c) => c.references('staff.id'))
        .addColumn('converted_source', 'text')
        .addColumn('converted_at', 'text')
        .addUniqueConstraint('lead_store_mobile_uq', ['store_id', 'mobile'])
        .addCheckConstraint(
          'lead_stage_ck',
          sql`stage in ('new', 'contacted', 'trial_booked', 'trial_done', 'won', 'lost')`,
        )
        .addCheckConstraint('lead_won_ck', sql`(stage = 'won') = (converted_card_id is not null)`)
        .execute();
      await db.schema.createIndex('lead_store_owner').on('lead').columns(['store_id', 'owner_id']).execute();

      await db.schema
        .createTable('lead_follow_up')
        .$call(id)
        .addColumn('store_id', 'integer', (c) => c.notNull().references('store.id'))
        .addColumn('lead_id', 'integer', (c) => c.notNull().references('lead.id'))
        .addColumn('staff_id', 'integer', (c) => c.notNull().references('staff.id'))
        .addColumn('way', 'text', (c) => c.notNull().check(sql`way in ('phone', 'wechat', 'visit')`))
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('next_date', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_follow_up_lead').on('lead_follow_up').column('lead_id').execute();
    },
  };
}
