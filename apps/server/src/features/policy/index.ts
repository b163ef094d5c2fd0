import {
  liftMemberSuspension,
  memberPolicyStatus,
  queryBookingPolicy,
  updateBookingPolicy,
  waiveNoShow,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { liftSuspension, memberStatus, waiveNoShowCharge } from './no-show.ts';
import { loadPolicy, savePolicy } from './service.ts';

/** Registers the booking policy's calls. */
export const policyFeature = defineFeature((r) => {
  r.handle(queryBookingPolicy, (_input, ctx) => loadPolicy(ctx.db, ctx.store.id));
  r.handle(updateBookingPolicy, async (input, ctx) => {
    await savePolicy(ctx.db, ctx.store.id, input);
    return null;
  });
  r.handle(waiveNoShow, (input, ctx) => waiveNoShowCharge(ctx, input.pendingId, input.reason));
  r.handle(memberPolicyStatus, (input, ctx) => memberStatus(ctx, input.mid));
  r.handle(liftMemberSuspension, (input, ctx) => liftSuspension(ctx, input.mid));
});
