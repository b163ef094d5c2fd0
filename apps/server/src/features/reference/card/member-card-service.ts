import { audit, changedFields } from '../../../lib/audit.ts';
import { amountText, CARD_TYPE_NO_EXPIRY, CardMsg, RefMsg, type Payment } from '@studio/contract';
import type { Tx } from '../../../db/index.ts';
import type { CallCtx } from '../../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../../lib/errors.ts';
import { addDays } from '../../../lib/time.ts';
import { mustFindMember } from '../member/service.ts';
import { storeNow } from '../shared.ts';
import { mustFindProduct } from './product-service.ts';
import { inOwnTx } from '../../../db/write-queue.ts';

/** A date `YYYY-MM-DD` as the last second of that day, store-local. */
const endOfDay = (date: string) => `${date} 23:59:59`;

/** A member card of the store, or 404 会员卡不存在. */
export async function mustFindMemberCard(ctx: CallCtx, id: number) {
  const c = await ctx.db
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select([
      'mc.id',
      'mc.cardId',
      'mc.memberId',
      'mc.totalCount',
      'mc.usedCount',
      'mc.refundedAt',
      'mc.frozen',
      'mc.expireTime',
      'p.bigType',
    ])
    .where('mc.storeId', '=', ctx.store.id)
    .where('mc.id', '=', id)
    .executeTakeFirst();
  if (!c) throw notFound('会员卡');
  return { ...c, totalCount: Number(c.totalCount), usedCount: Number(c.usedCount) };
}

const cardTarget = (c: { id: number }) => ({ type: 'card' as const, id: c.id });
const memberTarget = (c: { memberId: number }) => ({ type: 'member' as const, id: c.memberId });

/** A card of the store that has not been refunded: 409 该卡已退卡 otherwise. */
async function mustFindOpenCard(ctx: CallCtx, id: number) {
  const c = await mustFindMemberCard(ctx, id);
  if (c.refundedAt) throw conflict(CardMsg.refunded);
  return c;
}

/** Records money the desk took (sale, top-up) or paid back (refund) with its ledger entry. */
/** A card ledger entry of a card's sale, top-up or refund (not a booking's: see the booking trail); answers its id. */
export async function addLedgerEntry(
  tx: Tx,
  ctx: CallCtx,
  e: { memberCardId: number; kind: string; amount: number; remark: string | null; now: string },
): Promise<number> {
  const row = await tx
    .insertInto('cardLedger')
    .values({
      storeId: ctx.store.id,
      memberCardId: e.memberCardId,
      kind: e.kind,
      amount: e.amount,
      operatorId: ctx.staff.id,
      remark: e.remark,
      createdAt: e.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function recordPayment(
  tx: Tx,
  ctx: CallCtx,
  p: Payment & { memberCardId: number; ledgerId: number; kind: 'sale' | 'topup' | 'refund'; refundOf?: number },
) {
  return tx
    .insertInto('cardPayment')
    .values({
      storeId: ctx.store.id,
      memberCardId: p.memberCardId,
      ledgerId: p.ledgerId,
      kind: p.kind,
      amount: p.amount,
      method: p.method,
      staffId: ctx.staff.id,
      remark: p.remark,
      createdAt: storeNow(ctx),
      refundOf: p.refundOf ?? null,
    })
    .execute();
}

/**
 * Issues a card product to a member with `totalCount` (count, or fen for money cards), valid
 * through the end of `expireTime` (never for products that do not expire). Writes ledger `issue`.
 */
export async function issueCard(
  ctx: CallCtx,
  input: { mid: number; cardId: number; totalCount: number; expireTime: string | null; payment?: Payment },
) {
  await mustFindMember(ctx, input.mid);
  const product = await mustFindProduct(ctx, input.cardId);
  const now = storeNow(ctx);
  let expireTime: string | null = null;
  if (product.cardType !== CARD_TYPE_NO_EXPIRY) {
    if (input.expireTime) expireTime = endOfDay(input.expireTime);
    else if (product.validDays) expireTime = endOfDay(addDays(now.slice(0, 10), product.validDays));
    else throw badRequest(RefMsg.expireRequired);
  }
  const storeId = ctx.store.id;
  return inOwnTx(ctx.db, async (tx) => {
    const card = await tx
      .insertInto('memberCard')
      .values({
        storeId,
        memberId: input.mid,
        cardId: input.cardId,
        totalCount: input.totalCount,
        usedCount: 0,
        startTime: now,
        expireTime,
        frozen: 0,
        createdAt: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ledgerId = await addLedgerEntry(tx, ctx, {
      memberCardId: card.id,
      kind: 'issue',
      amount: input.totalCount,
      remark: input.payment?.remark ?? null,
      now: now,
    });
    if (input.payment) {
      await recordPayment(tx, ctx, { ...input.payment, memberCardId: card.id, ledgerId, kind: 'sale' });
    }
    return card;
  });
}

/** Freezes (1) or unfreezes (0) a member card. */
export async function setCardFrozen(ctx: CallCtx, id: number, frozen: 0 | 1) {
  const c = await mustFindOpenCard(ctx, id);
  const state = (f: number) => ({ frozen: f ? '冻结' : '正常' });
  audit(ctx.db, {
    summary: frozen ? '冻结会员卡' : '解冻会员卡',
    targets: [cardTarget(c), memberTarget(c)],
    ...changedFields(state(c.frozen), state(frozen), { frozen: '状态' }),
  });
  await ctx.db
    .updateTable('memberCard')
    .set({ frozen })
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .execute();
  return null;
}

/**
 * Adds `amount` to a card's total (in the database, not read-then-write, and only while the card
 * is not refunded), writes ledger `topup` and, when given, the money taken for it.
 */
export async function topUpCard(ctx: CallCtx, id: number, amount: number, payment?: Payment) {
  const c = await mustFindOpenCard(ctx, id);
  const storeId = ctx.store.id;
  await inOwnTx(ctx.db, async (tx) => {
    audit(tx, {
      summary: `会员卡充值 ${amountText(c.bigType, amount)}`,
      targets: [cardTarget(c), memberTarget(c)],
      ...changedFields(
        { total: amountText(c.bigType, c.totalCount) },
        { total: amountText(c.bigType, c.totalCount + amount) },
        { total: '总额度' },
      ),
    });
    const res = await tx
      .updateTable('memberCard')
      .set((eb) => ({ totalCount: eb('totalCount', '+', amount) }))
      .where('storeId', '=', storeId)
      .where('id', '=', id)
      .where('refundedAt', 'is', null)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw conflict(CardMsg.refunded);
    const ledgerId = await addLedgerEntry(tx, ctx, {
      memberCardId: id,
      kind: 'topup',
      amount,
      remark: payment?.remark ?? null,
      now: storeNow(ctx),
    });
    if (payment) await recordPayment(tx, ctx, { ...payment, memberCardId: id, ledgerId, kind: 'topup' });
  });
  return null;
}

/** Moves a card's expiry to the end of the given day. */
export async function setCardExpiry(ctx: CallCtx, id: number, date: string) {
  const c = await mustFindOpenCard(ctx, id);
  audit(ctx.db, {
    summary: '修改会员卡到期日期',
    targets: [cardTarget(c), memberTarget(c)],
    ...changedFields({ expire: c.expireTime?.slice(0, 10) ?? null }, { expire: date }, { expire: '到期日期' }),
  });
  await ctx.db
    .updateTable('memberCard')
    .set({ expireTime: endOfDay(date) })
    .where('storeId', '=', ctx.store.id)
    .where('id', '=', id)
    .execute();
  return null;
}

/**
 * Every balance change of a card, newest first, with the operator's name, the money taken or paid
 * back with it (sale, top-up, refund) and, for a top-up, whether it has been paid back.
 */
export async function cardLedger(ctx: CallCtx, id: number) {
  await mustFindMemberCard(ctx, id);
  const rows = await ctx.db
    .selectFrom('cardLedger as l')
    .leftJoin('staff as s', 's.id', 'l.operatorId')
    .leftJoin('cardPayment as p', 'p.ledgerId', 'l.id')
    .leftJoin('cardPayment as back', 'back.refundOf', 'l.id')
    .leftJoin('timetable as t', 't.id', 'l.timetableId')
    .leftJoin('course as c', 'c.id', 't.courseId')
    .select([
      'c.name as courseName',
      't.startTime as sessionStart',
      'l.id',
      'l.kind',
      'l.amount',
      'l.reservationId',
      'l.timetableId',
      's.name as operator',
      'l.remark',
      'l.createdAt',
      'p.amount as paidAmount',
      'p.method as paidMethod',
      'back.id as refundId',
    ])
    .where('l.storeId', '=', ctx.store.id)
    .where('l.memberCardId', '=', id)
    .orderBy('l.id', 'desc')
    .execute();
  return rows.map(({ paidAmount, paidMethod, refundId, courseName, sessionStart, ...r }) => ({
    ...r,
    session: courseName != null && sessionStart != null ? { courseName, startTime: sessionStart } : null,
    amount: Number(r.amount),
    payment: paidMethod == null ? null : { amount: Number(paidAmount), method: paidMethod },
    refunded: refundId != null,
  }));
}
