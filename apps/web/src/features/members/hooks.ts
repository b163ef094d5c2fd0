// The member screens' reads and writes (one member with cards: shared/reference.ts).
import {
  createMemberLoginCode,
  endMemberSessions,
  insertMember,
  memberList,
  memberReservationList,
  liftMemberSuspension,
  memberPolicyStatus,
  waiveLateCancel,
  queryMemberWaitlist,
  waiveNoShow,
  markAttendanceCall,
  updateMember,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

/** One page of the members, searched by name or mobile fragment. */
export function useMemberPage(page: number, pageSize: number, search: string) {
  return useQuery({
    queryKey: keys.memberList.page(page, pageSize, search),
    queryFn: () => call(memberList, { page, pageSize, param: search || null }),
    placeholderData: (p) => p,
  });
}

export type BookingScope = 'upcoming' | 'past';

/** One page of a member's upcoming or past bookings (reservations and pendings), with its paging state. */
export function useMemberBookings(memberId: number, scope: BookingScope) {
  const [paging, setPaging] = useState({ page: 1, pageSize: 10 });
  const q = useQuery({
    queryKey: keys.member.bookings(memberId, scope, paging.page, paging.pageSize),
    queryFn: () => call(memberReservationList, { mid: memberId, scope, ...paging }),
    enabled: memberId > 0,
    placeholderData: (p) => p,
  });
  return { q, paging, setPaging };
}

export type MemberFields = ReqOf<typeof insertMember>;

/** Saves a new member (id null) or changes one; answers the member's id. */
export function useSaveMember(id: number | null) {
  return useWrite(
    async (m: MemberFields) => {
      if (id) {
        await call(updateMember, { id, ...m });
        return id;
      }
      return (await call(insertMember, m)).id;
    },
    { success: '操作成功', changes: 'member' },
  );
}

/** A member's waits: the classes they wait for (with their place) and how recent waits ended. */
export function useMemberWaits(memberId: number) {
  return useQuery({
    queryKey: keys.member.waits(memberId),
    queryFn: () => call(queryMemberWaitlist, { mid: memberId }),
    enabled: memberId > 0,
  });
}

/** A member's no-shows and online-booking suspension. */
export function useMemberPolicyStatus(memberId: number) {
  return useQuery({
    queryKey: keys.member.policyStatus(memberId),
    queryFn: () => call(memberPolicyStatus, { mid: memberId }),
    enabled: memberId > 0,
  });
}

export function useWaiveNoShow() {
  return useWrite((pendingId: number, reason: string) => call(waiveNoShow, { pendingId, reason }), {
    success: '已免除扣费',
    changes: 'session',
  });
}

/** 补记到店: a booking of 预约即扣费 left unmarked did come after all (it stops being a no-show). */
export function useMarkCameAfterAll() {
  return useWrite((reservationId: number) => call(markAttendanceCall, { reservationId, attended: 1 }), {
    success: '已补记到店',
    changes: 'session',
  });
}

export function useWaiveLateCancel() {
  return useWrite((reservationId: number, reason: string) => call(waiveLateCancel, { reservationId, reason }), {
    success: '已免除扣费',
    changes: 'session',
  });
}

export function useLiftSuspension() {
  return useWrite((memberId: number) => call(liftMemberSuspension, { mid: memberId }), {
    success: '已解除暂停',
    changes: 'session',
  });
}

/** The desk gives a member a one-time login code for the members' page (no SMS needed). */
export function useMemberLoginCode() {
  return useWrite((memberId: number) => call(createMemberLoginCode, { memberId }));
}

/** Ends every session of the member on their phones (退出该会员的登录). */
export function useEndMemberSessions() {
  return useWrite((memberId: number) => call(endMemberSessions, { memberId }));
}
