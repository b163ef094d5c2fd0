import { refuseOverPrepaidLimits, remainingOfCard } from '../prepaid-limits.ts';
import {
  amountText,
  BIG_TYPE_MONEY,
  CardMsg,
  TransferMsg,
  type transferMemberCard,
  type ParsedReqOf,
} from '@studio/contract';
import type { Executor } from '../../../db/index.ts';
import { lockCards, lockSessions } from '../../../db/locks.ts';
import { inWriteTx } from '../../../lib/write-queue.ts';
import { audit } from '../../../lib/audit.ts';
import type { CallCtx } from '../../../lib/context.ts';
import type { WithCard } from '../../../lib/wire-names.ts';
import { badRequest, conflict } from '../../../lib/errors.ts';
import { localDateTime } from '../../../lib/time.ts';
import { bookingsOfCardBetween } from '../life/repository.ts';
import { cancelCardBookings } from '../life/bookings.ts';
import { deleteSharesOfCards } from '../share/repository.ts';
import { moveCard } from './repository.ts';
import { requireMember } from '../../reference/public.ts';
import { addLedgerNote } from '../member-card-service.ts';
import { insertPayment, requireMemberCard } from '../repository.ts';

/**
 * 转卡 (issue 29, item 5): the desk moves a card to another member of the store. The card's bookings
 * of classes not ended stay with the old holder (`keep`: already paid; pendings, which are charged at
 * sign-in, cannot stay) or are cancelled with their refund through the engine's one cancel
 * (`cancel`). One guarded UPDATE moves the card (held by the old holder, not refunded: a second
 * transfer at once finds it moved); a booking that read the card before pays nothing after (the
 * card's charge is guarded by its holder, timetable/booking-repository.ts). Ledger note, fee
 * received (kind `fee`), one audit entry naming both members and the card.
 */

/** The card's bookings of classes not ended by `now` (those a transfer keeps or cancels). */
const futureOf = (ex: Executor, storeId: number, memberCardId: number, now: string) =>
  bookingsOfCardBetween(ex, storeId, memberCardId, { from: '0000-01-01 00:00:00', to: '9999-12-31 23:59:59', now });

export async function transferPreview(ctx: CallCtx, memberCardId: number) {
  const card = await requireMemberCard(ctx.db, ctx.store.id, memberCardId);
  const holder = await requireMember(ctx.db, ctx.store.id, card.memberId);
  const found = await futureOf(ctx.db, ctx.store.id, card.id, localDateTime(ctx.store.timezone));
  return {
    holder: { id: holder.id, name: holder.name, mobile: holder.mobile },
    bookings: found.filter((b) => b.kind === 'reservation').length,
    pendings: found.filter((b) => b.kind === 'pending').length,
  };
}

export async function transferCard(
  ctx: CallCtx,
  input: WithCard<ParsedReqOf<typeof transferMemberCard>>,
): Promise<null> {
  const storeId = ctx.store.id;
  const card = await requireMemberCard(ctx.db, storeId, input.memberCardId);
  if (card.refundedAt) throw conflict(CardMsg.refunded);
  if (card.frozen) throw conflict(TransferMsg.frozen);
  if (input.toMid === card.memberId) throw badRequest(TransferMsg.sameHolder);
  const [from, to] = await Promise.all([
    requireMember(ctx.db, storeId, card.memberId),
    requireMember(ctx.db, storeId, input.toMid),
  ]);
  const now = localDateTime(ctx.store.timezone);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const found = await futureOf(tx, storeId, card.id, now);
    const pendings = found.filter((b) => b.kind === 'pending').length;
    if (input.futureBookings === 'keep' && pendings) throw conflict(TransferMsg.keepPendings(pendings));
    // Lock order: the bookings' sessions, then the card; what changed meanwhile refuses (the read is stale).
    await lockSessions(
      tx,
      found.map((b) => b.sessionId),
    );
    // The new holder's prepaid total gains what remains on the card (their row locked before the card's).
    await refuseOverPrepaidLimits(tx, storeId, now, {
      memberId: to.id,
      ask: null,
      added: await remainingOfCard(tx, storeId, from.id, card.id, now),
    });
    await lockCards(tx, [card.id]);
    // Kept bookings may grow meanwhile (they stay with the old holder anyway), not pendings; cancelled ones may not.
    const again = await futureOf(tx, storeId, card.id, now);
    const changed =
      input.futureBookings === 'cancel'
        ? again.map((b) => `${b.kind}${b.id}`).join() !== found.map((b) => `${b.kind}${b.id}`).join()
        : again.some((b) => b.kind === 'pending');
    if (changed) throw conflict(CardMsg.changed);
    if (input.futureBookings === 'cancel') {
      await cancelCardBookings(tx, ctx.store, found, { staffId: ctx.staff.id, member: false }, ctx.events);
    }
    if (!(await moveCard(tx, storeId, card.id, from.id, to.id, now))) throw conflict(CardMsg.changed);
    // The old holder's list (多人共享) does not go with the card.
    const unshared = (await deleteSharesOfCards(tx, storeId, [card.id])) ? '，共享成员已清除' : '';
    const kept = input.futureBookings === 'keep' && found.length ? `，${found.length}节未上课程保留给${from.name}` : '';
    const cancelled = input.futureBookings === 'cancel' && found.length ? `，取消未上课程${found.length}节并退回` : '';
    const fee = input.fee > 0 ? `，收手续费${amountText(BIG_TYPE_MONEY, input.fee)}` : '';
    const remark = `转卡：${from.name}（${from.mobile}）→ ${to.name}（${to.mobile}）${fee}${kept}${cancelled}${unshared}${input.remark ? `，${input.remark}` : ''}`;
    const ledgerId = await addLedgerNote(tx, {
      storeId,
      memberCardId: card.id,
      kind: 'transfer',
      operatorId: ctx.staff.id,
      remark,
      now,
    });
    if (input.fee > 0) {
      await insertPayment(tx, {
        storeId,
        memberCardId: card.id,
        ledgerId,
        kind: 'fee',
        amount: input.fee,
        method: input.method!,
        staffId: ctx.staff.id,
        remark: '转卡手续费',
        createdAt: now,
        refundOf: null,
      });
    }
    audit(tx, {
      kind: 'card',
      summary: remark,
      target: card.cardName,
      targets: [
        { type: 'member', id: from.id },
        { type: 'member', id: to.id },
        { type: 'card', id: card.id },
      ],
    });
  });
  return null;
}
