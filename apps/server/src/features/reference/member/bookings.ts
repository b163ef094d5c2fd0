import type { MemberBookingRow, ParsedReqOf, memberReservationList } from '@studio/contract';
import { PendingStatus, ReservationStatus } from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { storeNow } from '../../../lib/time.ts';
import { memberBookingPage } from './bookings-repository.ts';
import { mustFindMember } from './service.ts';

function statusText(kind: string, status: number): MemberBookingRow['statusText'] {
  if (kind === 'pending') return status === PendingStatus.WAITING ? '待签到' : '已签到';
  return status === ReservationStatus.SIGNED_IN ? '已签到' : '已预约';
}

/**
 * One page of a member's bookings for the member-detail screen: live reservations and pending items
 * (sign-in mode) of sessions not deleted. `upcoming` = the session has not ended yet in the store's
 * time zone, soonest first; `past` = ended, latest first. 404 会员不存在 for a member of another store.
 */
export async function listMemberBookings(ctx: CallCtx, input: ParsedReqOf<typeof memberReservationList>) {
  await mustFindMember(ctx, input.mid);
  const { list, total } = await memberBookingPage(ctx.db, {
    storeId: ctx.store.id,
    memberId: input.mid,
    scope: input.scope,
    now: storeNow(ctx),
    page: input.page,
    pageSize: input.pageSize,
  });
  return {
    total,
    list: list.map((r) => {
      const kind = r.kind === 'pending' ? ('pending' as const) : ('reservation' as const);
      return {
        ...r,
        kind,
        studentCount: Number(r.studentCount),
        usedCount: Number(r.usedCount),
        status: Number(r.status),
        statusText: statusText(kind, Number(r.status)),
      };
    }),
  };
}
