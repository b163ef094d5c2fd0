import {
  CONSENT_LABEL,
  CONSENT_WAY_LABEL,
  ERASURE_DUE_DAYS,
  PRIVACY_NOTICE_VERSION,
  PrivacyMsg,
  type ConsentKind,
  type ErasureStatus,
  type ParsedReqOf,
  type ResOf,
  type memberMyData,
  type memberMyPrivacy,
  type updateErasureRequest,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { lockMember } from '../../db/locks.ts';
import { audit } from '../../lib/audit.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { addDays, storeNow } from '../../lib/time.ts';
import { cardsForPrepaidLimits, remainingValue } from '../cards/public.ts';
import { requireMember } from '../reference/public.ts';
import { memberDataSections } from './data-repository.ts';
import { deleteDeclarations } from './health-repository.ts';
import {
  cardIdsOf,
  consentsOf,
  currentConsents,
  decideErasureRequest,
  eraseMember,
  erasureRequest,
  erasureRequests,
  insertConsent,
  insertErasureRequest,
  pendingErasureOf,
  upcomingBookingCount,
} from './repository.ts';

/** Everything the store holds about a member, table by table (their download). */
export async function myData(
  ex: Executor,
  store: { id: number; timezone: string },
  memberId: number,
): Promise<ResOf<typeof memberMyData>> {
  const m = await requireMember(ex, store.id, memberId);
  const cardIds = await cardIdsOf(ex, store.id, memberId);
  const sections = await memberDataSections(ex, { storeId: store.id, memberId, mobile: m.mobile, cardIds });
  return { generatedAt: storeNow({ store }), sections };
}

/** The member's consents and their pending request to delete the account. */
export async function myPrivacy(ctx: CallCtx): Promise<ResOf<typeof memberMyPrivacy>> {
  const history = await consentsOf(ctx.db, ctx.store.id, ctx.member.id);
  const current = currentConsents(history);
  const notice = current.find((c) => c.kind === 'privacy');
  const erasure = (await pendingErasureOf(ctx.db, ctx.store.id, ctx.member.id)) ?? null;
  return {
    noticeVersion: PRIVACY_NOTICE_VERSION,
    needsNotice: !notice?.granted || notice.version !== PRIVACY_NOTICE_VERSION,
    current,
    history,
    erasure: erasure && { ...erasure, id: Number(erasure.id) },
  };
}

/** A consent given or withdrawn by the member on their phone (the privacy notice's: its version). */
export async function setConsent(ctx: CallCtx, kind: ConsentKind, granted: boolean) {
  await insertConsent(ctx.db, {
    storeId: ctx.store.id,
    memberId: ctx.member.id,
    kind,
    version: kind === 'privacy' ? PRIVACY_NOTICE_VERSION : '1',
    granted,
    way: 'phone',
    at: storeNow(ctx),
  });
  // Health information is kept only with its consent: withdrawn, the declarations go.
  if (kind === 'health' && !granted) await deleteDeclarations(ctx.db, ctx.store.id, ctx.member.id);
  audit(ctx.db, {
    kind: 'member',
    target: `${granted ? '同意' : '撤回'}：${CONSENT_LABEL[kind]}`,
    targets: [{ type: 'member', id: ctx.member.id }],
  });
  return null;
}

/**
 * Members' marketing consent given or withdrawn other than on their own page (a reply T to a
 * marketing text, its unsubscribe link), inside the caller's write, each with its audit entry.
 */
export async function recordMemberMarketing(
  tx: Executor,
  storeId: number,
  memberIds: readonly number[],
  c: { granted: boolean; way: 'sms_reply' | 'link'; at: string },
) {
  for (const memberId of memberIds) {
    await insertConsent(tx, {
      storeId,
      memberId,
      kind: 'marketing',
      version: '1',
      granted: c.granted,
      way: c.way,
      at: c.at,
    });
    audit(tx, {
      kind: 'member',
      target: `${c.granted ? '同意' : '撤回'}：${CONSENT_LABEL.marketing}（${CONSENT_WAY_LABEL[c.way]}）`,
      targets: [{ type: 'member', id: memberId }],
    });
  }
}

/** The member asks to delete their account: one pending request, answered within the law's days. */
export async function askErasure(ctx: CallCtx, reason: string | null) {
  const now = storeNow(ctx);
  const dueDate = addDays(now.slice(0, 10), ERASURE_DUE_DAYS);
  const id = await insertErasureRequest(ctx.db, {
    storeId: ctx.store.id,
    memberId: ctx.member.id,
    reason: reason?.trim() || null,
    requestedAt: now,
    dueDate,
  });
  if (id === null) throw conflict(PrivacyMsg.pending);
  audit(ctx.db, { kind: 'member', target: '申请删除账号', targets: [{ type: 'member', id: ctx.member.id }] });
  return { id, dueDate };
}

export async function withdrawErasure(ctx: CallCtx) {
  const pending = await pendingErasureOf(ctx.db, ctx.store.id, ctx.member.id);
  const done =
    pending &&
    (await decideErasureRequest(ctx.db, ctx.store.id, Number(pending.id), {
      status: 'withdrawn',
      decidedAt: storeNow(ctx),
      decidedBy: null,
      note: null,
    }));
  if (!done) throw conflict(PrivacyMsg.noPending);
  audit(ctx.db, { kind: 'member', target: '撤回删除账号申请', targets: [{ type: 'member', id: ctx.member.id }] });
  return null;
}

export const erasureList = (ctx: CallCtx, status: ErasureStatus | null) =>
  erasureRequests(ctx.db, ctx.store.id, status);

/**
 * The manager's decision (in the call's transaction). Approved: refused while the member still holds
 * prepaid value (refund first) or sessions to come (cancel first); then their identity is erased
 * (`eraseMember`) and the request is done. Rejected: with the manager's note.
 */
export function decideErasure(ctx: CallCtx, input: ParsedReqOf<typeof updateErasureRequest>) {
  return inOwnTx(ctx.db, (tx) => decide(tx, ctx, input));
}

async function decide(tx: Tx, ctx: CallCtx, input: ParsedReqOf<typeof updateErasureRequest>) {
  const storeId = ctx.store.id;
  const req = await erasureRequest(tx, storeId, input.id);
  if (!req) throw notFound('删除申请');
  const memberId = Number(req.memberId);
  await lockMember(tx, memberId);
  if (req.status !== 'pending') throw conflict(PrivacyMsg.decided);
  const now = storeNow(ctx);
  const note = input.note?.trim() || null;
  if (input.approve) {
    const held = (await cardsForPrepaidLimits(tx, storeId, memberId)).filter(
      (c) => remainingValue(c, now.slice(0, 10)) > 0,
    );
    if (held.length) throw conflict(PrivacyMsg.holdsCards(held.map((c) => c.cardName).join('、')));
    const upcoming = await upcomingBookingCount(tx, storeId, memberId, now);
    if (upcoming) throw conflict(PrivacyMsg.holdsBookings(upcoming));
    const m = await requireMember(tx, storeId, memberId);
    await eraseMember(tx, {
      storeId,
      memberId,
      name: m.name,
      mobile: m.mobile,
      cardIds: await cardIdsOf(tx, storeId, memberId),
      erasedName: PrivacyMsg.erasedName,
      at: now,
    });
  }
  if (
    !(await decideErasureRequest(tx, storeId, input.id, {
      status: input.approve ? 'done' : 'rejected',
      decidedAt: now,
      decidedBy: ctx.staff.id,
      note,
    }))
  ) {
    throw conflict(PrivacyMsg.decided);
  }
  audit(tx, {
    kind: 'member',
    target: input.approve ? `删除会员#${memberId}的个人信息` : `拒绝会员#${memberId}的删除申请：${note}`,
    targets: [{ type: 'member', id: memberId }],
  });
  return null;
}

/** 查看完整手机号: the member's mobile whole, the view an entry of 操作日志 (who looked at whose number). */
export async function revealMobile(ctx: CallCtx, memberId: number) {
  const m = await requireMember(ctx.db, ctx.store.id, memberId);
  audit(ctx.db, {
    kind: 'privacy',
    summary: '查看完整手机号',
    target: m.name,
    targets: [{ type: 'member', id: m.id }],
  });
  return { mobile: m.mobile };
}
