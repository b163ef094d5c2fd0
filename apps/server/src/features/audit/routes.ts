import { queryAuditLog, undoBulkChange } from '@studio/contract';
import { writeSystemEntry } from '../../lib/audit.ts';
import type { Executor } from '../../db/index.ts';
import { defineFeature } from '../../lib/feature.ts';
import { waitlistPromoted } from '../waitlist/public.ts';
import { queryAudit } from './service.ts';
import { undoBulk } from './undo.ts';

/** The audit entry of a promotion from the waitlist (operator 系统). */
async function promotionEntry(
  tx: Executor,
  e: { storeId: number; sessionId: number; memberId: number; waitId: number },
) {
  await writeSystemEntry(tx, e.storeId, {
    name: '系统',
    call: 'engine/waitlist-promotion',
    kind: 'booking',
    summary: '候补递补：有空位，排在最前的会员获得名额',
    targets: [
      { type: 'member', id: e.memberId },
      { type: 'session', id: e.sessionId },
      { type: 'wait', id: e.waitId },
    ],
  });
}

/** 操作日志: the store's audit entries, and the undo of a bulk change from its entry. */
export const auditFeature = defineFeature((r) => {
  // A promotion from the waitlist is the system's doing: its own entry, in the transaction that freed the seat.
  r.on(waitlistPromoted, promotionEntry);
  r.handle(queryAuditLog, (input, ctx) => queryAudit(ctx, input));
  r.handle(undoBulkChange, (input, ctx) => undoBulk(ctx, input.auditId, input.dryRun));
});
