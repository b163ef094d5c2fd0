import { queryAuditLog } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { queryAudit } from './service.ts';

/** 操作日志: the store's audit entries. */
export const auditFeature = defineFeature((r) => {
  r.handle(queryAuditLog, (input, ctx) => queryAudit(ctx, input));
});
