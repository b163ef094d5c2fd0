// The booking policy's read and write (预约规则 on 预约设置).
import { queryBookingPolicy, updateBookingPolicy, type BookingPolicy } from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

export function useBookingPolicy() {
  return useQuery({ queryKey: keys.bookingPolicy, queryFn: () => call(queryBookingPolicy, {}) });
}

export function useSaveBookingPolicy() {
  return useWrite((p: Partial<BookingPolicy>) => call(updateBookingPolicy, p), {
    success: '操作成功',
    changes: 'bookingPolicy',
  });
}
