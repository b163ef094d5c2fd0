import { liftMemberSuspension, memberPolicyStatus, waiveLateCancel, waiveNoShow } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { liftSuspension, memberStatus, waiveLateCancelCharge, waiveNoShowCharge } from './service.ts';

/** No-shows (爽约) and late cancels (迟到取消): the desk's waivers, a member's no-shows and suspension, and its lift. */
export const noShowFeature = defineFeature((r) => {
  r.handle(waiveNoShow, (input, ctx) => waiveNoShowCharge(ctx, input.pendingId, input.reason));
  r.handle(waiveLateCancel, (input, ctx) => waiveLateCancelCharge(ctx, input.reservationId, input.reason));
  r.handle(memberPolicyStatus, (input, ctx) => memberStatus(ctx, input.mid));
  r.handle(liftMemberSuspension, (input, ctx) => liftSuspension(ctx, input.mid));
});
