import { Msg, OperateType } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import { cardUnusableReason } from '../card/rules.ts';
import { addPending, bookWithCard } from '../timetable/public.ts';
import { shortTime } from './plan.ts';
import type { BookingCard } from './refs.ts';

/** Rewords a refused booking so it names the session's time and the member; keeps its status. */
export function naming(e: unknown, when: string, member: string): unknown {
  if (!(e instanceof AppError)) return e;
  return new AppError(e.status, Msg.arrangeFailed(when, member, e.message), e.code, e.data);
}

/**
 * Books one member card into an existing session through the engine: with the card in deduction
 * mode 0, as a pending in mode 1 (the card must still be able to pay for the class at its start).
 * A refusal names the session's time and the member.
 */
export async function bookFixedStudent(
  tx: Tx,
  ctx: CallCtx,
  session: { id: number; startTime: string; allowedCardIds: readonly number[] },
  card: BookingCard,
  mode: 0 | 1,
): Promise<void> {
  try {
    if (mode === 0) {
      await bookWithCard(tx, ctx.store, {
        timetableId: session.id,
        memberCardId: card.id,
        memberId: card.memberId,
        studentCount: 1,
        remark: null,
        operatorId: ctx.staff.id,
        operateType: OperateType.ADMIN_BOOKED,
      });
      return;
    }
    const reason = cardUnusableReason({
      card,
      product: card,
      memberId: card.memberId,
      allowedCardIds: session.allowedCardIds,
      at: session.startTime,
      studentCount: 1,
    });
    if (reason) throw conflict(reason);
    await addPending(tx, ctx.store, {
      timetableId: session.id,
      memberId: card.memberId,
      studentCount: 1,
      remark: null,
      operatorId: ctx.staff.id,
      memberCardId: card.id,
    });
  } catch (e) {
    throw naming(e, shortTime(session.startTime), card.memberName);
  }
}
