// The booking policy's write (预约规则 on 预约设置); its read is shared/booking-policy.ts.
import { updateBookingPolicy, type BookingPolicy } from '@studio/contract';
import { call } from '../../api/client.ts';
import { useWrite } from '../../shared/use-write.ts';

export function useSaveBookingPolicy() {
  return useWrite((p: Partial<BookingPolicy>) => call(updateBookingPolicy, p), {
    success: '操作成功',
    changes: 'bookingPolicy',
  });
}
