import {
  insertMember,
  memberCardsForCourse,
  memberInfo,
  memberList,
  memberReservationList,
  memberSearch,
  updateMember,
} from '@studio/contract';
import type { Registry } from '../../../lib/feature.ts';
import { listMemberBookings } from './bookings.ts';
import { cardsForCourse, createMember, editMember, listMembers, memberWithCards, searchMembers } from './service.ts';

/** Member look-ups and edits. */
export function registerMember(r: Registry): void {
  r.handle(memberSearch, (input, ctx) => searchMembers(ctx, input.param));
  r.handle(memberCardsForCourse, (input, ctx) => cardsForCourse(ctx, input.mid, input.courseId));
  r.handle(memberList, (input, ctx) => listMembers(ctx, input));
  r.handle(memberInfo, (input, ctx) => memberWithCards(ctx, input.id));
  r.handle(insertMember, (input, ctx) => createMember(ctx, input), { tx: true });
  r.handle(updateMember, (input, ctx) => editMember(ctx, input), { tx: true });
  r.handle(memberReservationList, (input, ctx) => listMemberBookings(ctx, input));
}
