// One session's reads and writes (the drawer and its modals, the add modal).
import {
  addWaitlist,
  cancelWaitlist,
  queryWaitlist,
  addGroupPending,
  addMemberReservation,
  cancelPendingCall,
  cancelReservationCall,
  cancelTimetable,
  cancelTimetableOnline,
  createTimetableMeeting,
  insertTimetable,
  markAttendanceCall,
  markLeadTrial,
  Msg,
  queryLeadTrialList,
  queryPendingList,
  queryReservationList,
  queryTimetableHistory,
  queryTimetableInfo,
  queryTimetableOnline,
  retryTimetableMeeting,
  signInPendingCall,
  updateTimetable,
  type PendingItem,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client.ts';
import { useStore } from '../../../shared/profile.ts';
import { keys } from '../../../shared/query-keys.ts';
import { useWrite, type WriteOptions } from '../../../shared/use-write.ts';
import { onSession } from '../../../api/wire.ts';

export function useSessionInfo(id: number) {
  return useQuery({ queryKey: keys.sessions.info(id), queryFn: () => call(queryTimetableInfo, { id }) });
}

/** One page of a session's bookings (in sign-in mode: the signed-in ones). */
export function useSessionBookings(sessionId: number, page: number) {
  return useQuery({
    queryKey: keys.sessions.bookings(sessionId, page),
    queryFn: () => call(queryReservationList, { ...onSession(sessionId), page }),
    placeholderData: (p) => p,
  });
}

export function useSessionHistory(sessionId: number, page: number) {
  return useQuery({
    queryKey: keys.sessions.history(sessionId, page),
    queryFn: () => call(queryTimetableHistory, { ...onSession(sessionId), page }),
    placeholderData: (p) => p,
  });
}

export function useSessionPendings(sessionId: number) {
  return useQuery({
    queryKey: keys.sessions.pendings(sessionId),
    queryFn: () => call(queryPendingList, onSession(sessionId)),
  });
}

/** The session's waitlist in order, and whether promotion still happens (asked when `enabled`). */
export function useSessionWaitlist(sessionId: number, enabled = true) {
  return useQuery({
    queryKey: keys.sessions.waitlist(sessionId),
    queryFn: () => call(queryWaitlist, onSession(sessionId)),
    enabled,
  });
}

/** The store's booking policy (whether the waitlist is on and its cutoff), as 预约规则 saves it. */
/** The desk puts a member with a card on a full session's waitlist. */
export function useJoinWaitlist(sessionId: number) {
  return useSessionWrite(
    (v: { memberId: number; cardId: number; studentCount: number }) =>
      call(addWaitlist, { ...onSession(sessionId), mid: v.memberId, mcId: v.cardId, studentCount: v.studentCount }),
    '已加入候补',
  );
}

export function useLeaveWaitlist() {
  return useSessionWrite((id: number) => call(cancelWaitlist, { id }), '已移出候补');
}

/** The session's online room (and its last failure), asked every `pollMs` until it is there. */
export function useOnlineRoom(sessionId: number, enabled: boolean, pollMs: number) {
  return useQuery({
    queryKey: keys.sessions.online(sessionId),
    queryFn: () => call(queryTimetableOnline, { id: sessionId }, { silent: true }),
    enabled,
    refetchInterval: (q) => (q.state.data?.meetingInfo ? false : pollMs),
  });
}

/** A session's fields as the add and edit forms hold them. */
export interface SessionFields {
  teacherId: number;
  date: string;
  time: string;
  capacity: number;
  venueId: number | null;
  materialId: number | null;
}

/** A write of the schedule: it changes the calendar, the open session and members' balances. */
export function useSessionWrite<A extends unknown[], R>(fn: (...args: A) => Promise<R>, success?: string) {
  const opts: WriteOptions<A> = { success, changes: 'session' };
  return useWrite(fn, opts);
}

export function useAddSession() {
  const store = useStore();
  return useSessionWrite(
    (s: SessionFields & { courseId: number; online: boolean }) =>
      call(insertTimetable, {
        courseId: s.courseId,
        teacherId: s.teacherId,
        reservableCount: s.capacity,
        date: s.date,
        time: s.time,
        storeId: store.id,
        isOnline: s.online ? 1 : 0,
        areaId: s.venueId,
        bookId: s.materialId,
      }),
    Msg.courseSaved,
  );
}

export function useUpdateSession(id: number) {
  return useSessionWrite(
    (s: SessionFields) =>
      call(updateTimetable, {
        id,
        teacherId: s.teacherId,
        date: s.date,
        time: s.time,
        count: s.capacity,
        areaId: s.venueId,
        bookId: s.materialId,
      }),
    Msg.sessionUpdated,
  );
}

/** Deletes a session; `confirmEnded` when it has ended and staff confirmed (the server insists). */
export function useDeleteSession(id: number, confirmEnded = false) {
  return useSessionWrite(() => call(cancelTimetable, { id, confirmEnded }), Msg.deleted);
}

export interface BookingFields {
  memberId: number;
  cardId: number;
  studentCount: number;
  remark: string;
}

/**
 * Mode 0 books with a card (deducted now); mode 1 books a pending seat (1 person, no card);
 * signing in a pending booking deducts its card.
 */
export function useBookMember(sessionId: number, signInMode: boolean, pendingId: number | undefined) {
  return useSessionWrite(
    (b: BookingFields) => {
      if (pendingId) return call(signInPendingCall, { pendingId, mcId: b.cardId, remark: b.remark });
      if (signInMode)
        return call(addGroupPending, {
          mid: b.memberId,
          ...onSession(sessionId),
          mcId: b.cardId,
          studentCount: 1,
          remark: b.remark,
        });
      return call(addMemberReservation, {
        mcId: b.cardId,
        ...onSession(sessionId),
        studentCount: b.studentCount,
        remark: b.remark,
      });
    },
    // The spec's list of success toasts has no sign-in of its own: 操作成功.
    pendingId ? Msg.ok : Msg.booked,
  );
}

/** Cancels a booking with its refund; `confirmEnded` when its session has ended and staff confirmed. */
export function useCancelBooking(bookingId: number, confirmEnded = false) {
  return useSessionWrite(() => call(cancelReservationCall, { id: bookingId, confirmEnded }), Msg.bookingCancelled);
}

/** 到店 (came) or 撤销到店 for a booking (预约即扣费): the one attendance fact, nothing charged. */
/** The leads' trial classes (体验课) booked into the session. */
export function useSessionTrials(sessionId: number) {
  return useQuery({
    queryKey: keys.sessions.trials(sessionId),
    queryFn: () => call(queryLeadTrialList, { sessionId }),
  });
}

/** A lead's trial marked 到店 (the lead becomes 已体验). */
export function useMarkTrial(sessionId: number) {
  return useWrite((id: number) => call(markLeadTrial, { id, sessionId }), { changes: 'leadTrial' });
}

export function useMarkAttendance() {
  return useSessionWrite((bookingId: number, came: boolean) =>
    call(markAttendanceCall, { reservationId: bookingId, attended: came ? 1 : 0 }),
  );
}

/**
 * Signs a pending in with the card it was booked with (a role that may not look up members' cards:
 * the teacher at their class). The caller checks the pending names a card.
 */
export function useSignInWithBookedCard() {
  return useSessionWrite(
    (p: PendingItem) => call(signInPendingCall, { pendingId: p.pending.id, mcId: p.mcId!, remark: p.remark }),
    Msg.ok,
  );
}

export function useCancelPending() {
  return useSessionWrite((pendingId: number) => call(cancelPendingCall, { pendingId }), Msg.bookingCancelled);
}

export function useCreateOnlineRoom(sessionId: number, onDemand: boolean) {
  return useSessionWrite(
    () => call(createTimetableMeeting, { id: sessionId, type: onDemand ? 1 : 2 }),
    Msg.onlineCreated,
  );
}

/** 立即重试: makes an on-demand room whose creation failed, now (the server retries on its own too). */
export function useRetryOnlineRoom(sessionId: number) {
  return useSessionWrite(() => call(retryTimetableMeeting, { id: sessionId }), Msg.onlineCreated);
}

export function useCancelOnlineRoom(sessionId: number) {
  return useSessionWrite(() => call(cancelTimetableOnline, { id: sessionId }), Msg.onlineCancelled);
}
