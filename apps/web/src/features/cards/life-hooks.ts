// A card's life (issue 29): leave, its approval, the store's setting (the refund quote: shared/refund-quote.tsx).
import {
  addCardLeave,
  approveCardLeave,
  cardLeaveList,
  cardLeavePreview,
  endCardLeave,
  queryCardLifeSetting,
  refuseCardLeave,
  updateCardLifeSetting,
  type CardLeaveRow,
  type CardLifeSetting,
  type LeaveStatus,
} from '@studio/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

export type { CardLeaveRow };

/** What a leave would do (days, new expiry, bookings it cancels, why it is refused), once both dates are picked. */
export function useLeavePreview(mcId: number, range: { fromDate: string; toDate: string } | null) {
  return useQuery({
    queryKey: keys.member.leavePreview(mcId, range?.fromDate, range?.toDate),
    queryFn: () => call(cardLeavePreview, { mcId, ...range! }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
}

/** A card's leaves (`mcId`), or the store's in one status (`status`: e.g. 待审批). */
export function useCardLeaves(o: { mcId?: number; status?: LeaveStatus }, page = 1) {
  return useQuery({
    queryKey: [...keys.member.leaves(o.mcId ?? null, o.status), page],
    queryFn: () => call(cardLeaveList, { ...o, page }),
  });
}

export function useAddLeave() {
  return useWrite(
    (v: { mcId: number; fromDate: string; toDate: string; reason: string; cancelBookings: boolean }) =>
      call(addCardLeave, v),
    { success: '请假已登记', changes: 'cardLeave' },
  );
}

export function useEndLeave() {
  return useWrite((id: number, date: string) => call(endCardLeave, { id, date }), {
    success: '请假已结束',
    changes: 'cardLeave',
  });
}

export function useApproveLeave() {
  return useWrite((id: number, cancelBookings: boolean) => call(approveCardLeave, { id, cancelBookings }), {
    success: '已批准',
    changes: 'cardLeave',
  });
}

export function useRefuseLeave() {
  return useWrite((id: number, remark: string) => call(refuseCardLeave, { id, remark }), {
    success: '已拒绝',
    changes: 'cardLeave',
  });
}

export function useCardLifeSetting() {
  return useQuery({ queryKey: keys.cardLifeSetting, queryFn: () => call(queryCardLifeSetting, {}) });
}

export function useSaveCardLifeSetting() {
  return useWrite((v: CardLifeSetting) => call(updateCardLifeSetting, v), {
    success: '保存成功',
    changes: 'storeSetting',
  });
}
