import { SellerMsg } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import type { CallCtx } from '../../lib/context.ts';
import { findStaffOfStore, listStaffOfStore } from './repository.ts';

/**
 * The 销售员 of a sale, a top-up or a 扫码收款 (issue 42, item 12): any staff member of the store
 * whose post there is enabled; 404 for anyone else (another store's staff, an unknown id), 400 for
 * a disabled post.
 */
export async function requireSeller(ex: Executor, storeId: number, sellerId: number) {
  const seller = await findStaffOfStore(ex, storeId, sellerId);
  if (!seller) throw notFound('销售员');
  if (!Number(seller.enabled)) throw badRequest(SellerMsg.disabled);
  return seller;
}

/** Who may be named 销售员: the store's staff whose post is enabled, in id order. */
export async function sellerOptions(ctx: CallCtx) {
  const staff = await listStaffOfStore(ctx.db, ctx.store.id);
  return staff.filter((s) => Number(s.enabled)).map((s) => ({ id: s.id, name: s.name }));
}
