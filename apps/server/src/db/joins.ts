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

/** The product of the member cards a query reads as `mc`: `.$call(joinCardProduct())`. */
export function joinCardProduct<A extends string = 'p'>(alias: A = 'p' as A) {
  return <D extends { mc: unknown }, TB extends keyof D & string, O>(qb: SelectQueryBuilder<D, TB | 'mc', O>) =>
    (qb as unknown as SelectQueryBuilder<Database & { mc: Database['memberCard'] }, 'mc', O>).innerJoin(
      `cardProduct as ${alias}` as 'cardProduct as p',
      `${alias}.id` as 'p.id',
      'mc.cardId',
    ) as unknown as SelectQueryBuilder<D & Record<A, Product>, TB | 'mc' | A, O>;
}

/** As joinCardProduct for a card that may be absent (`mc` left-joined): the product's columns null then. */
export function leftJoinCardProduct<A extends string = 'p'>(alias: A = 'p' as A) {
  return <D extends { mc: unknown }, TB extends keyof D & string, O>(qb: SelectQueryBuilder<D, TB | 'mc', O>) =>
    (qb as unknown as SelectQueryBuilder<Database & { mc: Database['memberCard'] }, 'mc', O>).leftJoin(
      `cardProduct as ${alias}` as 'cardProduct as p',
      `${alias}.id` as 'p.id',
      'mc.cardId',
    ) as unknown as SelectQueryBuilder<D & Record<A, Nullable<Product>>, TB | 'mc' | A, O>;
}
