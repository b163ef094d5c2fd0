import {
  CardLifeProductMsg,
  CardMsg,
  onlineSaleProblem,
  RefMsg,
  type ParsedReqOf,
  type insertCardProduct,
} from '@studio/contract';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { clearCourseCards, insertCourseCards, liveCourseIds, requireTeacher } from '../reference/public.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { storeNow } from '../../lib/time.ts';
import { saleStartDay } from './activation.ts';
import {
  insertProduct,
  liveProducts,
  markProductDeleted,
  productCourseLinks,
  productHeld,
  requireProduct,
  updateProduct,
} from './repository.ts';

type ProductInput = ParsedReqOf<typeof insertCardProduct>;

/** The card products on sale (not deleted), each with the courses it may book. */
export async function listProducts(ctx: CallCtx) {
  const storeId = ctx.store.id;
  const [products, links] = await Promise.all([liveProducts(ctx.db, storeId), productCourseLinks(ctx.db, storeId)]);
  const today = storeNow(ctx).slice(0, 10);
  return products.map((p) => ({
    ...p,
    startsIfSoldToday: saleStartDay(p, today),
    courses: links.filter((l) => l.cardId === p.id).map((l) => ({ id: l.id, name: l.name })),
  }));
}

/** A card product of the store that is not deleted, or 404 卡种不存在. */
export const mustFindProduct = (ctx: CallCtx, id: number) => requireProduct(ctx.db, ctx.store.id, id);

async function checkCourses(ctx: CallCtx, ids: number[]) {
  const courseIds = [...new Set(ids)];
  const live = await liveCourseIds(ctx.db, ctx.store.id, courseIds);
  if (courseIds.some((id) => !live.has(id))) throw notFound('课程');
  return courseIds;
}

/**
 * The card-life fields as they will stand (`old`: the product's, for an update leaving some out):
 * 指定日期开卡 needs its date, a leave's most days cannot pass the total. A date left on a product
 * that no longer starts on a date is dropped, and so is its choice for a sale after that date.
 */
function checkLife(
  fields: Partial<Pick<ProductInput, 'activation' | 'activationDate' | 'leaveDaysMax' | 'leaveDaysTotal'>>,
  old?: {
    activation: string;
    activationDate: string | null;
    leaveDaysMax: number | null;
    leaveDaysTotal: number | null;
  },
) {
  const activation = fields.activation ?? old?.activation ?? 'sale';
  const date = fields.activationDate !== undefined ? fields.activationDate : (old?.activationDate ?? null);
  if (activation === 'date' && !date) throw badRequest(CardLifeProductMsg.activationDate);
  const max = fields.leaveDaysMax !== undefined ? fields.leaveDaysMax : (old?.leaveDaysMax ?? null);
  const total = fields.leaveDaysTotal !== undefined ? fields.leaveDaysTotal : (old?.leaveDaysTotal ?? null);
  if (max !== null && total !== null && max > total) throw badRequest(CardLifeProductMsg.leaveDaysOrder);
  return activation === 'date' ? {} : { activationDate: null, lateSaleStartsToday: 0 };
}

/**
 * A product marked 线上售卖 must be one members can buy (issue 42, item 11): a balance, a validity
 * (unless it never expires) and an online price, as they will stand (`old`: the product's, for an
 * update leaving 线上售卖 or its price out). 400 naming the field otherwise.
 */
function checkOnlineSale(
  fields: Pick<ProductInput, 'bigType' | 'cardType' | 'totalCount' | 'validDays' | 'onlineSale' | 'onlinePrice'>,
  old?: { onlineSale: number; onlinePrice: number },
) {
  if ((fields.onlineSale ?? old?.onlineSale ?? 0) !== 1) return;
  const problem = onlineSaleProblem({ ...fields, onlinePrice: fields.onlinePrice ?? old?.onlinePrice ?? 0 });
  if (problem) throw badRequest(problem.msg);
}

/**
 * 私教课包 (issue 43): the teacher or the level a pack is bound to, as they will stand (`old`: the
 * product's, for an update leaving them out): one of them at most, and the teacher one of the store's.
 */
async function checkPackTeacher(
  ctx: CallCtx,
  fields: Pick<ProductInput, 'teacherId' | 'teacherLevel'>,
  old?: { teacherId: number | null; teacherLevel: string | null },
) {
  const teacherId = fields.teacherId !== undefined ? fields.teacherId : (old?.teacherId ?? null);
  const level = fields.teacherLevel !== undefined ? fields.teacherLevel : (old?.teacherLevel ?? null);
  if (teacherId !== null && level !== null) throw badRequest(CardMsg.packTeacher);
  if (teacherId !== null && fields.teacherId !== undefined) await requireTeacher(ctx.db, ctx.store.id, teacherId);
}

/** Adds a card product and the courses it may book. */
export async function createProduct(ctx: CallCtx, input: ProductInput) {
  const { courseIds: ids, ...given } = input;
  const fields = { ...given, ...checkLife(given) };
  checkOnlineSale(fields);
  await checkPackTeacher(ctx, fields);
  const courseIds = await checkCourses(ctx, ids);
  const storeId = ctx.store.id;
  return inOwnTx(ctx.db, async (tx) => {
    const p = await insertProduct(tx, { storeId, ...fields, enabled: 1, deleted: 0 });
    await insertCourseCards(tx, storeId, courseIds, [p.id]);
    audit(tx, { kind: 'settings', target: `卡种 ${fields.cardName}`, targets: [{ type: 'product', id: p.id }] });
    return p;
  });
}

/**
 * Changes a card product and replaces the courses it may book. Its kind (count or money card)
 * cannot change once members hold it: their balances are in that unit.
 */
export async function editProduct(ctx: CallCtx, input: ProductInput & { id: number }) {
  const { id, courseIds: ids, ...given } = input;
  const old = await mustFindProduct(ctx, id);
  const fields = { ...given, ...checkLife(given, old) };
  checkOnlineSale(fields, old);
  await checkPackTeacher(ctx, fields, old);
  const courseIds = await checkCourses(ctx, ids);
  const storeId = ctx.store.id;
  if (old.bigType !== fields.bigType && (await productHeld(ctx.db, storeId, id))) {
    throw conflict(RefMsg.bigTypeLocked);
  }
  await inOwnTx(ctx.db, async (tx) => {
    await updateProduct(tx, storeId, id, fields);
    await clearCourseCards(tx, storeId, { cardId: id });
    await insertCourseCards(tx, storeId, courseIds, [id]);
    audit(tx, { kind: 'settings', target: `卡种 ${fields.cardName}`, targets: [{ type: 'product', id }] });
  });
  return null;
}

/** Stops selling a product (soft delete); the cards members already hold keep working. */
export async function removeProduct(ctx: CallCtx, id: number) {
  const product = await mustFindProduct(ctx, id);
  await markProductDeleted(ctx.db, ctx.store.id, id);
  audit(ctx.db, { kind: 'settings', target: `卡种 ${product.cardName}`, targets: [{ type: 'product', id }] });
  return null;
}
