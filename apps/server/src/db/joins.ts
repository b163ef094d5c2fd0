import type { Nullable, SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Joins along the schema's keys that many features' reads share, written once. A member card
 * (`mc`) reaches its product (`card_product`, joined as `p` unless the query already uses `p`)
 * only here: every read that names a card's kind, name or rules joins it through these.
 *
 * Kysely cannot type a join on a builder generic in its tables: the one cast, checked at each
 * caller by the columns it then selects.
 */
type Product = Database['cardProduct'];

type Cards = SelectQueryBuilder<Database & { mc: Database['memberCard'] }, 'mc', unknown>;

/** The one join of `mc` to its product as `alias`, inner or left (the two below type its result). */
function productJoin(qb: unknown, left: boolean, alias: string): unknown {
  const q = qb as Cards;
  const table = `cardProduct as ${alias}` as 'cardProduct as p';
  const key = `${alias}.id` as 'p.id';
  return left ? q.leftJoin(table, key, 'mc.cardId') : q.innerJoin(table, key, 'mc.cardId');
}

/** The product of the member cards a query reads as `mc`: `.$call(joinCardProduct())`. */
export function joinCardProduct<A extends string = 'p'>(alias: A = 'p' as A) {
  return <D extends { mc: unknown }, TB extends keyof D & string, O>(qb: SelectQueryBuilder<D, TB | 'mc', O>) =>
    productJoin(qb, false, alias) as SelectQueryBuilder<D & Record<A, Product>, TB | 'mc' | A, O>;
}

/** As joinCardProduct for a card that may be absent (`mc` left-joined): the product's columns null then. */
export function leftJoinCardProduct<A extends string = 'p'>(alias: A = 'p' as A) {
  return <D extends { mc: unknown }, TB extends keyof D & string, O>(qb: SelectQueryBuilder<D, TB | 'mc', O>) =>
    productJoin(qb, true, alias) as SelectQueryBuilder<D & Record<A, Nullable<Product>>, TB | 'mc' | A, O>;
}
