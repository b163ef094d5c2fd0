import {
  memberCardsForLesson,
  memberCardsForSession,
  memberLessonSlots,
  memberLessonTypes,
  memberOpenLessons,
  memberChallenge,
  memberMe,
  memberMyBookings,
  memberMyCards,
  memberPublicTimetable,
  memberStore,
  memberTimetable,
  type MemberIdentity,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from './api.ts';
import { keys } from './query-keys.ts';
import { onSession } from './wire.ts';

/** The store of the page; its failure (an unknown store) is the page's message. */
export function useStoreInfo(storeId: number | null) {
  return useQuery({
    queryKey: keys.store(storeId ?? 0),
    queryFn: ({ signal }) => call(memberStore, { storeId: storeId! }, { signal }),
    enabled: storeId !== null,
    staleTime: Infinity,
  });
}

/**
 * Who is signed in for this store: the member, null when nobody is (or the session is another
 * store's), undefined while asking. Set by sign-in and sign-out, never stale on its own.
 */
export function useMe(storeId: number | null): MemberIdentity | null | undefined {
  return useQuery({
    queryKey: keys.me(storeId ?? 0),
    queryFn: () =>
      call(memberMe, {})
        .then((who) => (who.store.id === storeId ? who : null))
        .catch(() => null),
    enabled: storeId !== null,
    staleTime: Infinity,
  }).data;
}

/** The weeks from `fromDate` to `toDate` by day: the member's own view when signed in, else the store's. */
export function useTimetable(storeId: number, signedIn: boolean, fromDate: string, toDate: string) {
  return useQuery({
    queryKey: signedIn ? keys.timetable.mine(fromDate, toDate) : keys.timetable.public(storeId, fromDate, toDate),
    queryFn: ({ signal }) =>
      signedIn
        ? call(memberTimetable, { fromDate, toDate }, { signal })
        : call(memberPublicTimetable, { storeId, fromDate, toDate }, { signal }),
  });
}

/** 我的预约, one tab and page (a failure is a toast). */
export function useMyBookings(state: 'upcoming' | 'past', page: number) {
  return useQuery({
    queryKey: keys.bookings.page(state, page),
    queryFn: ({ signal }) => call(memberMyBookings, { state, page }, { signal }),
    meta: { errorToast: true },
  });
}

/** 我的会员卡 with their recent ledger (a failure is a toast). */
export function useMyCards() {
  return useQuery({
    queryKey: keys.cards.mine,
    queryFn: ({ signal }) => call(memberMyCards, {}, { signal }),
    meta: { errorToast: true },
  });
}

/** My cards for a class, each usable or why not; asked only when `enabled` (a failure is a toast). */
export function useCardsForSession(sessionId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: keys.cards.forSession(sessionId ?? 0),
    queryFn: ({ signal }) => call(memberCardsForSession, onSession(sessionId!), { signal }),
    enabled: enabled && sessionId !== undefined,
    meta: { errorToast: true },
  });
}

/** 约私教: the store's lesson types with their teachers and prices (a failure is a toast). */
export function useLessonTypes(enabled = true) {
  return useQuery({
    queryKey: keys.lessons.types,
    queryFn: ({ signal }) => call(memberLessonTypes, {}, { signal }),
    enabled,
    meta: { errorToast: true },
  });
}

/** A day's free start times of a lesson type, by teacher (null: 任意老师). */
export function useLessonSlots(courseId: number, teacherId: number | null, date: string) {
  return useQuery({
    queryKey: keys.lessons.slots(courseId, teacherId, date),
    queryFn: ({ signal }) => call(memberLessonSlots, { courseId, teacherId, date }, { signal }),
  });
}

/** A day's 小班 of a type already booked that still have room to join (null teacher: 任意老师); none unless `enabled`. */
export function useOpenLessons(courseId: number, teacherId: number | null, date: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.lessons.open(courseId, teacherId, date),
    queryFn: ({ signal }) => call(memberOpenLessons, { courseId, teacherId, date }, { signal }),
    enabled,
  });
}

/** My cards for a lesson of the type with the teacher at `startTime`, each usable or why not. */
export function useCardsForLesson(courseId: number, teacherId: number, startTime: string) {
  return useQuery({
    queryKey: keys.cards.forLesson(courseId, teacherId, startTime),
    queryFn: ({ signal }) =>
      call(
        memberCardsForLesson,
        { courseId, teacherId, date: startTime.slice(0, 10), time: startTime.slice(11, 16) },
        { signal },
      ),
    meta: { errorToast: true },
  });
}

let challenges = 0;
/**
 * A fresh proof-of-work challenge for each check shown: its own key per mount, never refetched
 * (the widget is solving it) and dropped once the check is gone (an answer serves one request).
 */
export function useChallenge() {
  const [nonce] = useState(() => ++challenges);
  return useQuery({
    queryKey: keys.challenge(nonce),
    queryFn: ({ signal }) => call(memberChallenge, {}, { signal }),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}
