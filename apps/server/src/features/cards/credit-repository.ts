import { BIG_TYPE_MONEY } from '@studio/contract';
import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/index.ts';
import { addDays } from '../../lib/time.ts';
import { joinCardProduct } from '../../db/joins.ts';

/** 转介绍奖励's card queries: the card a credit goes on, and a started card's expiry moved by days. */

export type CreditKind = 'lessons' | 'days' | 'money';

/**
 * The member's own card a credit of `kind` goes on: not refunded, not expired at `now`, of the kind
 * (次卡: a count card charging per class; 期限卡: a count card charging nothing per class, started
 * (it has an expiry); 储值卡: a money card). The one lasting longest wins (never expiring first), then
 * the newest. Undefined when the member holds none.
 */
export async function cardForCredit(ex: Executor, storeId: number, memberId: number, kind: CreditKind, now: string) {
  let q = ex
    .selectFrom('memberCard as mc')
    .$call(joinCardProduct())
    .select(['mc.id', 'p.cardName', 'mc.expireTime'])
    .where('mc.storeId', '=', storeId)
    .where('mc.memberId', '=', memberId)
    .where('mc.refundedAt', 'is', null)
    .where((eb) => eb.or([eb('mc.expireTime', 'is', null), eb('mc.expireTime', '>=', now)]));
  if (kind === 'money') q = q.where('p.bigType', '=', BIG_TYPE_MONEY);
  else {
    q = q.where('p.bigType', '!=', BIG_TYPE_MONEY).where('p.perCount', kind === 'lessons' ? '>' : '=', 0);
    if (kind === 'days') q = q.where('mc.expireTime', 'is not', null);
  }
  return q
    .orderBy(sql`case when mc.expire_time is null then 0 else 1 end`)
    .orderBy('mc.expireTime', 'desc')
    .orderBy('mc.id', 'desc')
    .executeTakeFirst();
}

export /** Moves a started card's expiry (and its validity) by `days`, guarded on the expiry read; false when changed meanwhile or refunded. */
async function moveExpiry(tx: Tx, storeId: number, id: number, days: number): Promise<boolean> {
  const c = await tx
    .selectFrom('memberCard')
    .select(['expireTime', 'validDays'])
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('refundedAt', 'is', null)
    .executeTakeFirst();
  if (!c?.expireTime) return false;
  const moved = `${addDays(c.expireTime.slice(0, 10), days)}${c.expireTime.slice(10)}`;
  const res = await tx
    .updateTable('memberCard')
    .set({ expireTime: moved, validDays: c.validDays === null ? null : c.validDays + days })
    .where('storeId', '=', storeId)
    .where('id', '=', id)
    .where('expireTime', '=', c.expireTime)
    .where('refundedAt', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
