import { Msg, OperateType } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { AppError, conflict } from '../../lib/errors.ts';
import { addMinutes, toDateTime } from '../../lib/time.ts';
import { cardUnusableReason } from '../card/rules.ts';
import { addPending, bookWithCard, createSession, getDeductionMode, touchStore } from '../timetable/engine.ts';
import { assertNoTeacherClash } from './conflicts.ts';
import { arrangeSlots, shortTime } from './plan.ts';
import { requireArea, requireCards, requireCourse, requireTeacher, type BookingCard } from './refs.ts';

export interface ArrangeCourseInput {
  cid: number;
  areaId: number | null;
  students: number;
  tid: number;
  startDate: string;
  arrangeTimes: number;
  courseTimes: { weekday: number; arrangeTime?: string | null }[];
  mcIds: number[];
  isOnline: 0 | 1;
}

/** Rewords a refused booking so it names the session and the member; keeps its status. */
export function naming(e: unknown, when: string, member: string): unknown {
  if (!(e instanceof AppError)) return e;
  return new AppError(e.status, Msg.arrangeFailed(when, member, e.message), e.code, e.data);
}

/**
 * Books one fixed student into a new session through the engine: with the card in deduction mode
 * 0, as a pending in mode 1 (the card must still be able to pay for the class at its start).
 */
export async function bookFixedStudent(
  tx: Tx,
  ctx: CallCtx,
  session: { id: number; startTime: string; allowedCardIds: readonly number[] },
  card: BookingCard,
  mode: 0 | 1,
): Promise<void> {
  const when = shortTime(session.startTime);
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
    });
  } catch (e) {
    throw naming(e, when, card.memberName);
  }
}

/**
 * Batch scheduling: from `startDate`, a session on every ticked weekday at its time until
 * `arrangeTimes` exist (capacity `students`, duration the course's), each with every fixed
 * student (`mcIds`, one seat each) booked through the engine. One transaction: any refusal
 * (teacher clash: 409 listing the dates; a booking: names date and member) leaves nothing.
 */
export async function arrangeCourse(
  ctx: CallCtx,
  input: ArrangeCourseInput,
): Promise<{ count: number; ids: number[] }> {
  const storeId = ctx.store.id;
  const times = input.courseTimes.map((t) => ({ weekday: t.weekday, arrangeTime: t.arrangeTime ?? '' }));
  const slots = arrangeSlots(input.startDate, times, input.arrangeTimes);
  return ctx.db.transaction().execute(async (tx) => {
    await touchStore(tx, storeId);
    const course = await requireCourse(tx, storeId, input.cid);
    await requireTeacher(tx, storeId, input.tid);
    await requireArea(tx, storeId, input.areaId);
    const cards = await requireCards(tx, storeId, input.mcIds);
    const fixed = input.mcIds.map((id) => cards.get(id)!);
    const members = new Set<number>();
    for (const c of fixed) {
      if (members.has(c.memberId)) throw conflict(Msg.sameMemberTwice(c.memberName));
      members.add(c.memberId);
    }
    const planned = slots.map((s) => {
      const startTime = toDateTime(s.date, s.time);
      return { teacherId: input.tid, startTime, endTime: addMinutes(startTime, course.duration) };
    });
    await assertNoTeacherClash(tx, storeId, planned);
    const mode = await getDeductionMode(tx, storeId);
    const ids: number[] = [];
    for (const p of planned) {
      const { id } = await createSession(tx, ctx.store, {
        courseId: course.id,
        teacherId: input.tid,
        areaId: input.areaId,
        bookId: null,
        startTime: p.startTime,
        endTime: p.endTime,
        reservableCount: input.students,
        isOnline: input.isOnline,
      });
      for (const card of fixed) {
        await bookFixedStudent(tx, ctx, { id, startTime: p.startTime, allowedCardIds: course.cardIds }, card, mode);
      }
      ids.push(id);
    }
    return { count: ids.length, ids };
  });
}
