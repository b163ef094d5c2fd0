import { sql, type Kysely } from 'kysely';

/**
 * The funnel of the leads (issue 44, item 6): when a lead first reached each step, kept when its
 * stage moves on or it is lost (已流失 after a trial still counts as trialled).
 * - `contacted_at`: the first follow-up, or a stage set by hand past 新线索.
 * - `trial_booked_at`: 已约体验 (or 已体验) first set.
 * - `trial_done_at`: 已体验 first set.
 * Leads of before: filled from their stage (and follow-ups) at their last touch.
 */
export function leadFunnel() {
  return {
    async up(db: Kysely<any>): Promise<void> {
      // One column a statement (SQLite adds one at a time).
      for (const col of ['contacted_at', 'trial_booked_at', 'trial_done_at'])
        await db.schema.alterTable('lead').addColumn(col, 'text').execute();
      await sql`update lead set contacted_at = touched_at
        where stage in ('contacted', 'trial_booked', 'trial_done')
           or exists (select 1 from lead_follow_up f where f.lead_id = lead.id)`.execute(db);
      await sql`update lead set trial_booked_at = touched_at where stage in ('trial_booked', 'trial_done')`.execute(db);
      await sql`update lead set trial_done_at = touched_at where stage = 'trial_done'`.execute(db);
    },
  };
}
