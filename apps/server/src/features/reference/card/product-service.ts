import { RefMsg, type ParsedReqOf, type insertCardProduct } from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { conflict, notFound } from '../../../lib/errors.ts';
import { liveCourseIds } from '../course/queries.ts';
import { inOwnTx } from '../../../db/write-queue.ts';

type ProductInput = ParsedReqOf<typeof insertCardProduct>;

/** The card products on sale (not deleted), each with the courses it may book. */
export async function listProducts(ctx: CallCtx) {
  const storeId = ctx.store.id;
  const [products, links] = await Promise.all([
    ctx.db
      .selectFrom('cardProduct')
      .select(['id', 'cardName', 'bigType', 'cardType', 'perCount', 'price', 'totalCount', 'validDays', 'enabled'])
      .where('storeId', '=', storeId)
      .where('deleted', '=', 0)
      .orderBy('id')
      .execute(),
    ctx.db
      .selectFrom('courseCard as cc')
      .innerJoin('course as c', 'c.id', 'cc.courseId')
      .select(['cc.cardId', 'c.id', 'c.name'])
      .where('cc.storeId', '=', storeId)
      .where('c.deleted', '=', 0)
      .orderBy('c.id')
      .execute(),
  ]);
  return products.map((p) => ({
    ...p,
    courses: links.filter((l) => l.cardId === p.id).map((l) => ({ id: l.id, name: l.name })),
  }));
}

/** A card product of the store that is not deleted, or 404 卡种不存在. */
export async function mustFindProduct(ctx: CallCtx, id: number) {
  const p = await ctx.db
    .selectFrom('cardProduct')
    .select(['id', 'bigType', 'cardType', 'perCount', 'validDays', 'deleted'])
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!p || p.deleted) throw notFound('卡种');
  return p;
}

async function checkCourses(ctx: CallCtx, ids: number[]) {
  const courseIds = [...new Set(ids)];
  const live = await liveCourseIds(ctx.db, ctx.store.id, courseIds);
  if (courseIds.some((id) => !live.has(id))) throw notFound('课程');
  return courseIds;
}

/** Adds a card product and the courses it may book. */
export async function createProduct(ctx: CallCtx, input: ProductInput) {
  const { courseIds: ids, ...fields } = input;
  const courseIds = await checkCourses(ctx, ids);
  const storeId = ctx.store.id;
  return inOwnTx(ctx.db, async (tx) => {
    const p = await tx
      .insertInto('cardProduct')
      .values({ storeId, ...fields, enabled: 1, deleted: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (courseIds.length) {
      await tx
        .insertInto('courseCard')
        .values(courseIds.map((courseId) => ({ storeId, courseId, cardId: p.id })))
        .execute();
    }
    return p;
  });
}

/**
 * Changes a card product and replaces the courses it may book. Its kind (count or money card)
 * cannot change once members hold it: their balances are in that unit.
 */
export async function editProduct(ctx: CallCtx, input: ProductInput & { id: number }) {
  const { id, courseIds: ids, ...fields } = input;
  const old = await mustFindProduct(ctx, id);
  const courseIds = await checkCourses(ctx, ids);
  const storeId = ctx.store.id;
  if (old.bigType !== fields.bigType) {
    const held = await ctx.db
      .selectFrom('memberCard')
      .select('id')
      .where('storeId', '=', storeId)
      .where('cardId', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (held) throw conflict(RefMsg.bigTypeLocked);
  }
  await inOwnTx(ctx.db, async (tx) => {
    await tx.updateTable('cardProduct').set(fields).where('storeId', '=', storeId).where('id', '=', id).execute();
    await tx.deleteFrom('courseCard').where('storeId', '=', storeId).where('cardId', '=', id).execute();
    if (courseIds.length) {
      await tx
        .insertInto('courseCard')
        .values(courseIds.map((courseId) => ({ storeId, courseId, cardId: id })))
        .execute();
    }
  });
  return null;
}

/** Stops selling a product (soft delete); the cards members already hold keep working. */
export async function removeProduct(ctx: CallCtx, id: number) {
  await mustFindProduct(ctx, id);
  await ctx.db
    .updateTable('cardProduct')
    .set({ deleted: 1, enabled: 0 })
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .execute();
  return null;
}
