// The 今日 screen's reads and writes.
import {
  confirmLesson,
  markAttendanceCall,
  memberCardsForCourse,
  queryPendingList,
  queryToday,
  signInPendingCall,
  type RosterEntry,
} from '@studio/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { useCan } from '../../shared/profile.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';
import { onSession } from '../../api/wire.ts';

/** How often the day refreshes itself, so bookings made elsewhere (desk, members) appear without reload. */
export const TODAY_REFRESH_MS = 15_000;

/** One day's classes with their rosters (today when `date` is null), refreshed every 15 seconds. */
export function useToday(date: string | null) {
  return useQuery({
    queryKey: keys.today.of(date),
    queryFn: () => call(queryToday, { date }),
    refetchInterval: TODAY_REFRESH_MS,
    placeholderData: (p) => p,
  });
}

type Card = Awaited<ReturnType<typeof call<typeof memberCardsForCourse>>>[number];
/**
 * What one sign-in came to: done, or the cards to choose from (several usable, or none usable), or
 * (cards null) a pending naming no card for a role that may not look members' cards up.
 */
export type SignInOutcome = { done: true } | { done: false; cards: Card[] | null };

/**
 * Signs in waiting pendings of a class: each with the member's only usable card for the course.
 * Members with no usable card, or several, are answered with their cards for the desk to decide.
 * A teacher (who may not look up members' cards) signs each in with the card its booking named.
 */
export function useSignIn(sessionId: number, courseId: number) {
  const qc = useQueryClient();
  const canChooseCard = useCan(memberCardsForCourse);
  const bookedCard = async (entry: RosterEntry): Promise<number | null> => {
    const pendings = await qc.fetchQuery({
      queryKey: keys.sessions.pendings(sessionId),
      queryFn: () => call(queryPendingList, onSession(sessionId)),
      staleTime: 0,
    });
    return pendings.find((p) => p.pending.id === entry.id)?.mcId ?? null;
  };
  const signOne = async (entry: RosterEntry, mcId?: number): Promise<SignInOutcome> => {
    if (!mcId && !canChooseCard) {
      const booked = entry.mcId ?? (await bookedCard(entry));
      if (!booked) return { done: false, cards: null };
      mcId = booked;
    }
    if (!mcId) {
      const cards = await qc.fetchQuery({
        queryKey: keys.member.cardsForCourse(entry.memberId, courseId),
        queryFn: () => call(memberCardsForCourse, { mid: entry.memberId, courseId }),
        staleTime: 0,
      });
      const usable = cards.filter((c) => c.usable);
      if (usable.length !== 1) return { done: false, cards };
      mcId = usable[0].id;
    }
    await call(signInPendingCall, { pendingId: entry.id, mcId, remark: entry.remark });
    return { done: true };
  };
  const one = useWrite(signOne, { changes: 'session' });
  const all = useWrite(
    async (entries: RosterEntry[]) => {
      let signed = 0;
      const left: RosterEntry[] = [];
      const noCard: RosterEntry[] = [];
      for (const e of entries) {
        const r = await signOne(e);
        if (r.done) signed++;
        else (r.cards ? left : noCard).push(e);
      }
      return { signed, left, noCard };
    },
    { changes: 'session' },
  );
  return { one, all };
}

/**
 * 到店 / 撤销到店 for bookings of 预约即扣费 (the one attendance fact; nothing charged): one booking,
 * or a whole class at once (全部到店: the ones left unticked are not marked).
 */
export function useAttendance() {
  const mark = (entry: RosterEntry, came: boolean) =>
    call(markAttendanceCall, { reservationId: entry.id, attended: came ? 1 : 0 });
  const one = useWrite(mark, { changes: 'session' });
  const all = useWrite(
    async (entries: RosterEntry[]) => {
      for (const e of entries) await mark(e, true);
      return entries.length;
    },
    { changes: 'session' },
  );
  return { one, all };
}

/** The teacher (or the desk) confirms a lesson waiting for them (待确认). */
export function useConfirmLesson() {
  return useWrite((id: number) => call(confirmLesson, { id }), { success: '已确认预约', changes: 'session' });
}
