import crypto from 'node:crypto';
import { SellerLinkMsg, type ParsedReqOf, type querySellerLink } from '@studio/contract';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { publicBaseOf } from '../messaging/public.ts';
import { insertLink, linkOf, staffOfStore } from './seller-link-repository.ts';

/**
 * 推广链接 (issue 30, item 4): a staff member's own address of the members' page. A member who opens
 * it keeps the code on the phone; the orders they make online then name the seller, and count as
 * that staff member's sales for the commission. Made once per staff member and store (an unguessable
 * code), the same ever after; a disabled staff member's code no longer names anyone.
 */

const newCode = () => Array.from(crypto.randomBytes(8), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');

type LinkInput = ParsedReqOf<typeof querySellerLink>;

/** Whose link: the desk's own; the manager's choice of the store's staff. */
async function whoseLink(ctx: CallCtx, input: LinkInput) {
  const staffId = ctx.post.role === 'manager' && input.staffId ? input.staffId : ctx.staff.id;
  if (!(await staffOfStore(ctx.db, ctx.store.id, staffId))) throw notFound('员工');
  return staffId;
}

async function answer(ctx: CallCtx, staffId: number, code: string | undefined) {
  const { base } = await publicBaseOf(ctx);
  return { staffId, code: code ?? null, url: code ? `${base}/m/?store=${ctx.store.id}&seller=${code}` : null };
}

export async function querySellerLinkOf(ctx: CallCtx, input: LinkInput) {
  const staffId = await whoseLink(ctx, input);
  return answer(ctx, staffId, await linkOf(ctx.db, ctx.store.id, staffId));
}

export async function createSellerLinkOf(ctx: CallCtx, input: LinkInput) {
  const storeId = ctx.store.id;
  const staffId = await whoseLink(ctx, input);
  const code = await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (!(await insertLink(tx, { storeId, staffId, code: newCode(), createdAt: localDateTime(ctx.store.timezone) }))) {
      throw conflict(SellerLinkMsg.made);
    }
    audit(tx, { kind: 'staff', summary: '生成推广链接', targets: [{ type: 'staff', id: staffId }] });
    return (await linkOf(tx, storeId, staffId))!;
  });
  return answer(ctx, staffId, code);
}
