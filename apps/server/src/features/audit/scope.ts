import { isWriteCall, type AuditKind, type CallDef } from '@studio/contract';
import { inWriteTx } from '../../db/write-queue.ts';
import type { AuditScope, AuditTarget, AuditTargetType } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import type { Handler } from '../../lib/feature.ts';

/** The kind of a call's entries, from its path (first rule that matches). */
const KIND_RULES: [RegExp, AuditKind][] = [
  [/\/batch\/(arrange|add|cancel)|\/copy\/timetable|\/undo\/bulk/, 'bulk'],
  [/\/(staff|auth\/change\/password)/, 'staff'],
  [/reservation|pending|waitlist|sign\/in/, 'booking'],
  [/member\/card|waive/, 'card'],
  [/setting|funcs|logo|module\/status|policy|digest|member\/page|card\/product|setup|checkin\/code/, 'settings'],
  [/member/, 'member'],
  [/timetable|meeting/, 'session'],
];

export const auditKindOf = (path: string): AuditKind => KIND_RULES.find(([re]) => re.test(path))?.[1] ?? 'reference';

/** A call's summary in a few words: its reference summary up to the first explanation. */
function summaryOf(call: CallDef): string {
  const text = (call.summary ?? call.path).replace(/^会员端：/, '');
  return text.split(/[（：(]/)[0].trim() || text;
}

/** What a payload's `id` names, by path. */
const ID_RULES: [RegExp, AuditTargetType][] = [
  [/\/(cancel\/reservation|waive\/late\/cancel)$/, 'booking'],
  [/staff/, 'staff'],
  [/member\/card/, 'card'],
  [/\/update\/member$/, 'member'],
  [/timetable\/(reservable|meeting|online)|\/cancel\/timetable$|\/(create|retry)\/timetable\/meeting/, 'session'],
];

const FIELD_TYPES: Record<string, AuditTargetType> = {
  tid: 'session',
  mid: 'member',
  memberId: 'member',
  mcId: 'card',
  reservationId: 'booking',
};

/** The targets a payload names (a session, a member, a card...), before the service adds its own. */
function payloadTargets(idType: AuditTargetType | undefined, input: unknown): AuditTarget[] {
  if (!input || typeof input !== 'object') return [];
  const body = input as Record<string, unknown>;
  const out: AuditTarget[] = [];
  for (const [field, type] of Object.entries(FIELD_TYPES)) {
    const v = body[field];
    if (typeof v === 'number') out.push({ type, id: v });
  }
  if (idType && typeof body.id === 'number') out.push({ type: idType, id: body.id });
  return out;
}

/** What a write call's entries say by default, worked out once per call when the routes are built. */
export interface AuditMeta {
  path: string;
  kind: AuditKind;
  summary: string;
  /** What the payload's `id` names. */
  idType?: AuditTargetType;
}

/** A call's audit defaults; undefined for reads and log-ins (they leave no entry). */
export function auditMetaOf(call: CallDef): AuditMeta | undefined {
  if (!isWriteCall(call)) return undefined;
  return {
    path: call.path,
    kind: auditKindOf(call.path),
    summary: summaryOf(call),
    idType: ID_RULES.find(([re]) => re.test(call.path))?.[1],
  };
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
    defaults: { kind: meta.kind, summary: meta.summary, targets: payloadTargets(meta.idType, input) },
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
