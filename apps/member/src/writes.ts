import {
  memberBook,
  memberBookLesson,
  memberCancelLesson,
  memberCancelBooking,
  memberJoinLesson,
  memberCancelPending,
  memberJoinWaitlist,
  memberLeaveWaitlist,
  memberLogin,
  memberLogout,
  memberSendCode,
  memberSignIn,
  type ReqOf,
} from '@studio/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from './api.ts';
import { afterWrite, type WriteKind } from './invalidations.ts';

/** A write that changes what the page shows: after it succeeds, what `kind` changes is refetched. */
function useWrite<A, R>(fn: (args: A) => Promise<R>, kind: WriteKind) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => afterWrite(qc, kind) });
}

/** 预约 a class with a card. */
export const useBook = () => useWrite((req: ReqOf<typeof memberBook>) => call(memberBook, req), 'book');

/** 约私教: a lesson of a type with a teacher at a free start, paid by a card. */
export const useBookLesson = () =>
  useWrite((req: ReqOf<typeof memberBookLesson>) => call(memberBookLesson, req), 'book');

/** 加入小班: a 小班 already booked that still has room, paid by a card. */
export const useJoinLesson = () =>
  useWrite((req: ReqOf<typeof memberJoinLesson>) => call(memberJoinLesson, req), 'book');

/**
 * 取消私教: a lesson booking, or its held seat in 签到后扣费 (`pending`), refunded before its type's
 * cutoff, kept after it; answers whether refunded.
 */
export const useCancelLesson = () =>
  useWrite(
    async ({ id, pending }: { id: number; pending: boolean }) =>
      (await call(memberCancelLesson, { id, kind: pending ? 'pending' : 'reservation' })).refunded,
    'cancel',
  );

/** 排队候补 for a full class. */
export const useJoinWaitlist = () =>
  useWrite((req: ReqOf<typeof memberJoinWaitlist>) => call(memberJoinWaitlist, req), 'joinWaitlist');

/** What the member gives up: a booking, a held seat (pending) or a place in the queue. */
export type Mine = { kind: 'booked' | 'pending' | 'waiting'; id: number };

/** 取消预约 (a booking or a held seat) or 退出候补, by what it is. */
export const useCancel = () =>
  useWrite(async ({ kind, id }: Mine) => {
    if (kind === 'waiting') await call(memberLeaveWaitlist, { id });
    else if (kind === 'pending') await call(memberCancelPending, { pendingId: id });
    else await call(memberCancelBooking, { id });
  }, 'cancel');

/** 签到 with the token of the desk's QR code. */
export const useCheckIn = () => useWrite((req: ReqOf<typeof memberSignIn>) => call(memberSignIn, req), 'checkIn');

/** Asks for a one-time code by SMS (with the answer to the check when the server asked for one). */
export const useSendCode = () =>
  useMutation({ mutationFn: (req: ReqOf<typeof memberSendCode>) => call(memberSendCode, req) });

/** Signs in with the mobile and a one-time code; answers who signed in. */
export const useLogin = () => useMutation({ mutationFn: (req: ReqOf<typeof memberLogin>) => call(memberLogin, req) });

/** Signs out; `onDone` runs once the session has ended. */
export const useLogout = (onDone: () => void) =>
  useMutation({ mutationFn: () => call(memberLogout, {}), onSuccess: onDone });
