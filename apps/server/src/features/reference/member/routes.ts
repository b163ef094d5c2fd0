import { insertMember, memberList, memberReservationList, memberSearch, updateMember } from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { listMemberBookings } from './bookings.ts';
import { createMember, editMember, listMembers, searchMembers } from './service.ts';

/** Member look-ups and edits. */
export function registerMember(r: Registry): void {
  r.handle(memberSearch, (input, ctx) => searchMembers(ctx, input.param));
  r.handle(memberList, (input, ctx) => listMembers(ctx, input));
  r.handle(insertMember, (input, ctx) => createMember(ctx, input), { tx: true });
  r.handle(updateMember, (input, ctx) => editMember(ctx, input), { tx: true });
  r.handle(memberReservationList, (input, ctx) => listMemberBookings(ctx, input));
}
