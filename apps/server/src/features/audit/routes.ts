import { queryAuditLog, undoBulkChange } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { withSession } from '../../lib/wire-names.ts';
import { queryAudit } from './service.ts';
import { undoBulk } from './undo.ts';

/** 操作日志: the store's audit entries, and the undo of a bulk change from its entry. */
export const auditFeature = defineFeature((r) => {
  r.handle(queryAuditLog, (input, ctx) => queryAudit(ctx, withSession(input)));
  r.handle(undoBulkChange, (input, ctx) => undoBulk(ctx, input.auditId, input.dryRun));
});
