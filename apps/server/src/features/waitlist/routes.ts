import { addWaitlist, cancelWaitlist, queryMemberWaitlist, queryWaitlist } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { withCard, withSession } from '../../lib/wire-names.ts';
import { bookingCancelled, sessionChanged, sessionDeleted } from '../timetable/public.ts';
import {
  endWaitsOfDeleted,
  joinWaitlist,
  leaveWaitlist,
  listWaitlist,
  memberWaits,
  promoteFreedSeats,
} from './service.ts';

/**
 * The waitlist of full sessions (候补): the desk's calls, and promotion in the transaction of every
 * change that frees seats (it listens to the engine's events).
 */
export const waitlistFeature = defineFeature((r) => {
  // At the write stage: a freed seat goes to the waiting before any listener tells of the change.
  r.on(bookingCancelled, promoteFreedSeats, 'write');
  r.on(sessionChanged, promoteFreedSeats, 'write');
  r.on(sessionDeleted, endWaitsOfDeleted, 'write');
  r.handle(queryWaitlist, (input, ctx) => listWaitlist(ctx, input.tid));
  r.handle(addWaitlist, (input, ctx) => joinWaitlist(ctx, withCard(withSession(input)), { staffId: ctx.staff.id }));
  r.handle(cancelWaitlist, (input, ctx) => leaveWaitlist(ctx, input.id, { staffId: ctx.staff.id }));
  r.handle(queryMemberWaitlist, (input, ctx) => memberWaits(ctx, input.mid));
});
