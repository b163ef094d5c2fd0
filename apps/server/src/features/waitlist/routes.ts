import { addWaitlist, cancelWaitlist, queryMemberWaitlist, queryWaitlist } from '@studio/contract';
import { onEngineEvent } from '../../lib/events.ts';
import { defineFeature } from '../../lib/feature.ts';
import { joinWaitlist, leaveWaitlist, listWaitlist, memberWaits, onWaitlistEvent } from './service.ts';

/**
 * The waitlist of full sessions (候补): the desk's calls, and promotion in the transaction of every
 * change that frees seats (it listens to the engine's events).
 */
export const waitlistFeature = defineFeature((r) => {
  onEngineEvent(onWaitlistEvent);
  r.handle(queryWaitlist, (input, ctx) => listWaitlist(ctx, input.tid));
  r.handle(addWaitlist, (input, ctx) => joinWaitlist(ctx, input, { staffId: ctx.staff.id }));
  r.handle(cancelWaitlist, (input, ctx) => leaveWaitlist(ctx, input.id, { staffId: ctx.staff.id }));
  r.handle(queryMemberWaitlist, (input, ctx) => memberWaits(ctx, input.mid));
});
