import type { Kysely } from 'kysely';
import type { Dialect } from '../index.ts';

/**
 * Paid trials (issue 44, item 3): `lead_trial.member_id`, the member (holding the lead's mobile) whose
 * booking in the session with their 体验卡 the trial rides on: such a trial takes no seat of its own
 * (the booking holds it); its attendance, cancel and no-show are the booking's.
 */
export function paidTrials(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('lead_trial').addColumn('member_id', 'integer').execute();
    },
  };
}
