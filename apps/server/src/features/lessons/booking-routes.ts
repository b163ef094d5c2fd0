import {
  addLessonMember,
  bookLesson,
  bookLessonSeries,
  cancelLesson,
  confirmLesson,
  memberBookLesson,
  memberCancelLesson,
  memberJoinLesson,
  moveLesson,
  OperateType,
  queryLessonBookingSetting,
  saveLessonBookingSetting,
} from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { defineFeature } from '../../lib/feature.ts';
import { localDateTime, toDateTime } from '../../lib/time.ts';
import { suspensionOf } from '../no-show/public.ts';
import { loadPolicy } from '../policy/public.ts';
import type { MemberRules } from '../timetable/public.ts';
import { loadLessonSetting, saveLessonSetting } from './booking-repository.ts';
import {
  addLessonMember as addMember,
  bookLesson as book,
  cancelLessonBooking,
  confirmLessonBooking,
  moveLessonBooking,
  type LessonBooking,
} from './booking-service.ts';
import { bookLessonSeries as bookSeries } from './series.ts';

/** One write transaction per call. */
const inTx = <T>(ctx: CallCtx, body: Parameters<typeof inWriteTx<T>>[2]) => inWriteTx(ctx.db, ctx.dialect, body);

/** What a member's own booking is held to: the store's policy and their suspension (no-shows). */
async function memberRules(tx: Tx, ctx: CallCtx): Promise<MemberRules> {
  const now = localDateTime(ctx.store.timezone);
  return {
    policy: await loadPolicy(tx, ctx.store.id),
    suspendedUntil: (await suspensionOf(tx, ctx.store.id, ctx.member.id, now)).until,
  };
}

/** Booking lessons (私教/小班): the desk's and the members' bookings, cancels, the teacher's confirmation, moves. */
export const lessonBookingFeature = defineFeature((r) => {
  r.handle(bookLesson, (input, ctx) =>
    inTx(ctx, async (tx) => {
      const b: LessonBooking = {
        courseId: input.courseId,
        teacherId: input.teacherId,
        startTime: toDateTime(input.date, input.time),
        venueId: input.venueId,
        members: input.members.map((m) => ({ memberId: m.mid, memberCardId: m.mcId })),
        outsideReason: input.outsideReason,
        operatorId: ctx.staff.id,
        operateType: OperateType.ADMIN_BOOKED,
      };
      const { id, status } = await book(tx, ctx.store, b, ctx.events);
      return { id, status };
    }),
  );
  r.handle(addLessonMember, (input, ctx) =>
    inTx(ctx, async (tx) => {
      const { id, kind } = await addMember(
        tx,
        ctx.store,
        {
          sessionId: input.id,
          memberId: input.mid,
          memberCardId: input.mcId,
          operatorId: ctx.staff.id,
          operateType: OperateType.ADMIN_BOOKED,
        },
        ctx.events,
      );
      return { id, kind };
    }),
  );
  r.handle(memberJoinLesson, (input, ctx) =>
    inTx(ctx, async (tx) =>
      addMember(
        tx,
        ctx.store,
        {
          sessionId: input.id,
          memberId: ctx.member.id,
          memberCardId: input.mcId,
          operatorId: null,
          operateType: OperateType.USER_BOOKED,
          member: await memberRules(tx, ctx),
        },
        ctx.events,
      ),
    ),
  );
  r.handle(memberBookLesson, (input, ctx) =>
    inTx(ctx, async (tx) => {
      const member = await memberRules(tx, ctx);
      const { id, status } = await book(
        tx,
        ctx.store,
        {
          courseId: input.courseId,
          teacherId: input.teacherId,
          startTime: toDateTime(input.date, input.time),
          members: [{ memberId: ctx.member.id, memberCardId: input.mcId }],
          operatorId: null,
          operateType: OperateType.USER_BOOKED,
          member,
        },
        ctx.events,
      );
      return { id, status };
    }),
  );
  r.handle(cancelLesson, (input, ctx) =>
    inTx(ctx, (tx) =>
      cancelLessonBooking(
        tx,
        ctx.store,
        {
          id: input.id,
          kind: input.kind,
          operatorId: ctx.staff.id,
          operateType: OperateType.ADMIN_CANCELLED,
        },
        ctx.events,
      ),
    ),
  );
  r.handle(memberCancelLesson, (input, ctx) =>
    inTx(ctx, (tx) =>
      cancelLessonBooking(
        tx,
        ctx.store,
        {
          id: input.id,
          kind: input.kind,
          operatorId: null,
          operateType: OperateType.USER_CANCELLED,
          memberId: ctx.member.id,
        },
        ctx.events,
      ),
    ),
  );
  r.handle(confirmLesson, (input, ctx) =>
    inTx(ctx, async (tx) => {
      await confirmLessonBooking(tx, ctx.store, input.id, ctx.events);
      return null;
    }),
  );
  r.handle(moveLesson, (input, ctx) =>
    inTx(ctx, async (tx) => {
      await moveLessonBooking(
        tx,
        ctx.store,
        { sessionId: input.id, startTime: toDateTime(input.date, input.time) },
        ctx.events,
      );
      return null;
    }),
  );
  r.handle(bookLessonSeries, (input, ctx) => bookSeries(ctx, input));
  r.handle(queryLessonBookingSetting, (_input, ctx) => loadLessonSetting(ctx.db, ctx.store.id));
  r.handle(
    saveLessonBookingSetting,
    async (input, ctx) => {
      await saveLessonSetting(ctx.db, ctx.store.id, input);
      audit(ctx.db, { kind: 'settings', target: '私教预约设置' });
      return null;
    },
    { tx: true },
  );
});
