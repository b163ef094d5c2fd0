import { isWriteCall, type CallDef } from '@studio/contract';
import { inWriteTx } from '../../lib/write-queue.ts';
import type { AuditScope } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import type { Handler } from '../../lib/feature.ts';

/** A call's summary in a few words: its reference summary up to the first explanation. */
function summaryOf(call: CallDef): string {
  const text = (call.summary ?? call.path).replace(/^会员端：/, '');
  return text.split(/[（：(]/)[0].trim() || text;
}

/** What a write call's entries say by default, worked out once per call when the routes are built. */
export interface AuditMeta {
  path: string;
  summary: string;
}

/** A call's audit defaults; undefined for reads and log-ins (they leave no entry). */
export function auditMetaOf(call: CallDef): AuditMeta | undefined {
  if (!isWriteCall(call)) return undefined;
  return { path: call.path, summary: summaryOf(call) };
}

/**
 * The audit scope of one write call: who makes it (staff, member, or 系统 for the first-run setup)
 * and what its entry says unless the service notes more. A dry run has none.
 */
export function auditScopeFor(meta: AuditMeta, ctx: CallCtx, input: unknown): AuditScope | undefined {
  if (input && typeof input === 'object' && (input as { dryRun?: unknown }).dryRun === true) return undefined;
  const actor: AuditScope['actor'] = ctx.member
    ? { kind: 'member', memberId: ctx.member.id, name: ctx.member.name }
    : ctx.staff
      ? { kind: 'staff', staffId: ctx.staff.id, name: ctx.staff.name }
      : { kind: 'system', name: '系统' };
  return {
    actor,
    call: meta.path,
    storeId: ctx.store?.id ?? ctx.staff?.posts[0]?.storeId,
    // The kind and the targets are the service's to say (audit(tx, ...) where it changes them).
    defaults: { summary: meta.summary },
    note: {},
    written: 0,
  };
}

/**
 * Runs a write call's handler. Its entry is written inside the write's own transaction (inWriteTx);
 * a call that answered without opening one (nothing to change, a provider call) gets its entry alone.
 */
export async function auditedCall(
  ctx: CallCtx,
  scope: AuditScope,
  input: unknown,
  handler: Handler<CallDef>,
): Promise<Awaited<ReturnType<Handler<CallDef>>>> {
  const answer = await handler(input as never, ctx);
  if (scope.written === 0 && scope.storeId !== undefined) {
    await inWriteTx(ctx.db, ctx.dialect, async () => undefined);
  }
  return answer;
}
