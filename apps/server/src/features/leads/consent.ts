import { LEAD_CONSENT_WAY_LABEL, type LeadConsentWay } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { storeNow } from '../../lib/time.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import * as repo from './repository.ts';
import { requireMine } from './service.ts';

/**
 * A lead's marketing consent (issue 44, item 7): rows of `lead_consent`, never changed, the latest one
 * the lead's choice. Staff record it (到店, 电话) on their own leads (the manager: any); the sign-up
 * page's checkbox records 线上报名; a reply T or the unsubscribe link withdraws (features/marketing).
 */

const label = (granted: boolean) => (granted ? '同意接收营销短信' : '撤回营销短信同意');

/** Staff record a lead's consent given or withdrawn, and how. */
export async function setLeadConsent(ctx: CallCtx, input: { id: number; granted: boolean; way: 'visit' | 'phone' }) {
  const lead = await repo.requireLead(ctx.db, ctx.store.id, input.id);
  requireMine(ctx, lead);
  const at = storeNow(ctx);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await repo.insertLeadConsents(tx, [
      {
        storeId: ctx.store.id,
        leadId: lead.id,
        granted: input.granted ? 1 : 0,
        way: input.way,
        staffId: ctx.staff.id,
        at,
      },
    ]);
    audit(tx, {
      kind: 'lead',
      summary: `${label(input.granted)}（${LEAD_CONSENT_WAY_LABEL[input.way]}）`,
      target: `潜客 ${lead.name}`,
      targets: [{ type: 'lead', id: lead.id }],
    });
  });
  return null;
}

/**
 * Records the consent of leads (the sign-up's, a withdrawal's) inside the caller's write, with the
 * audit entry of each lead; `at` store-local.
 */
export async function recordLeadConsents(
  tx: Executor,
  storeId: number,
  leadIds: readonly number[],
  c: { granted: boolean; way: LeadConsentWay; at: string },
): Promise<number[]> {
  const ids = await repo.insertLeadConsents(
    tx,
    leadIds.map((leadId) => ({ storeId, leadId, granted: c.granted ? 1 : 0, way: c.way, staffId: null, at: c.at })),
  );
  for (const id of leadIds) {
    audit(tx, {
      kind: 'lead',
      summary: `${label(c.granted)}（${LEAD_CONSENT_WAY_LABEL[c.way]}）`,
      targets: [{ type: 'lead', id }],
    });
  }
  return ids;
}
