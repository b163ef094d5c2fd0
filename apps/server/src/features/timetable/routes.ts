import { ownTeacherFilter } from '../reference/public.ts';
import {
  addGroupPending,
  addMemberReservation,
  cancelPendingCall,
  cancelReservationCall,
  cancelTimetable,
  exportTimetableReservation,
  insertTimetable,
  markAttendanceCall,
  queryPendingList,
  queryReservationList,
  queryTimetableByDate,
  queryTimetableHistory,
  queryTimetableInfo,
  signInPendingCall,
  updateTimetable,
} from '@studio/contract';
import { auditExport } from '../../lib/audit.ts';
import { defineFeature } from '../../lib/feature.ts';
import { venueAndMaterial, withCard, withSession, withVenue } from '../../lib/wire-names.ts';
import { cardBookingsDropped } from '../cards/public.ts';
import { markAttendance } from './attendance.ts';
import { cancelDroppedBookings } from './booking-engine.ts';
import { calendar } from './calendar.ts';
import { bookingList, historyList, pendingList, sessionExport, sessionInfo } from './list-service.ts';
import * as service from './service.ts';

/** Registers the timetable calls. */
export const timetableFeature = defineFeature((r) => {
  // A card's leave or transfer gives up bookings: cancelled with the change, before anyone announces it.
  r.on(cardBookingsDropped, cancelDroppedBookings, 'write');
  r.handle(insertTimetable, async (input, ctx) => {
    await service.addSession(ctx, venueAndMaterial(input));
    return null;
  });
  r.handle(updateTimetable, async (input, ctx) => {
    await service.editSession(ctx, venueAndMaterial(input));
    return null;
  });
  r.handle(cancelTimetable, async (input, ctx) => {
    await service.removeSession(ctx, input.id, input.confirmEnded === true);
    return null;
  });
  // A teacher's calendar holds their own sessions only.
  r.handle(queryTimetableByDate, (input, ctx) =>
    calendar(
      ctx.db,
      ctx.store.id,
      { ...withVenue(input), teacherId: ownTeacherFilter(ctx.post) ?? input.teacherId },
      { cache: ctx.config.calendarCache },
    ),
  );
  r.handle(queryTimetableInfo, (input, ctx) => sessionInfo(ctx.db, ctx.store.id, input.id, ctx.store.timezone));
  r.handle(markAttendanceCall, (input, ctx) => markAttendance(ctx, input));
  r.handle(addMemberReservation, async (input, ctx) => {
    await service.bookCard(ctx, withCard(withSession(input)));
    return null;
  });
  r.handle(queryReservationList, (input, ctx) => bookingList(ctx.db, ctx.store.id, input.tid, input.page));
  r.handle(cancelReservationCall, async (input, ctx) => {
    await service.cancelBooking(ctx, input.id, input.confirmEnded === true);
    return null;
  });
  r.handle(queryPendingList, (input, ctx) => pendingList(ctx.db, ctx.store.id, input.tid));
  r.handle(addGroupPending, async (input, ctx) => {
    await service.bookPending(ctx, withCard(withSession(input)));
    return null;
  });
  r.handle(cancelPendingCall, async (input, ctx) => {
    await service.cancelWaiting(ctx, input.pendingId);
    return null;
  });
  r.handle(signInPendingCall, async (input, ctx) => {
    await service.signIn(ctx, withCard(input));
    return null;
  });
  r.handle(queryTimetableHistory, (input, ctx) => historyList(ctx.db, ctx.store.id, input.tid, input.page));
  r.handle(exportTimetableReservation, async (input, ctx) => {
    const rows = await sessionExport(ctx.db, ctx.store.id, input.id, ctx.store.timezone);
    auditExport(ctx.db, '一节课的预约名单', [{ type: 'session', id: input.id }]);
    return rows;
  });
});
