import {
  addCardLeave,
  approveCardLeave,
  cardLeaveList,
  cardLeavePreview,
  endCardLeave,
  memberCardLeaves,
  memberRequestCardLeave,
  queryCardLifeSetting,
  refuseCardLeave,
  updateCardLifeSetting,
} from '@studio/contract';
import type { CallCtx } from '../../../lib/context.ts';
import { defineFeature } from '../../../lib/feature.ts';
import { withCard } from '../../../lib/wire-names.ts';
import {
  addLeave,
  approveLeave,
  endLeave,
  listLeaves,
  memberLeaves,
  previewLeave,
  refuseLeave,
  requestLeave,
  type LeaveScope,
} from './leave-service.ts';
import { cardLifeSetting, saveCardLifeSetting } from './setting-service.ts';

const scope = (ctx: CallCtx): LeaveScope => ({
  db: ctx.db,
  dialect: ctx.dialect,
  store: ctx.store,
  events: ctx.events,
});

/**
 * A card's life (issue 29): leave at the desk and on the phone, its approval, ending it early, and
 * the store's setting (cooling-off days, how members' requests are approved). Activation and the
 * refund quote live with the cards (features/cards: activation.ts, refund-quote.ts).
 */
export const cardLifeFeature = defineFeature((r) => {
  r.handle(cardLeavePreview, (input, ctx) => previewLeave(scope(ctx), withCard(input)));
  r.handle(addCardLeave, (input, ctx) => addLeave(scope(ctx), ctx.staff.id, withCard(input)));
  r.handle(endCardLeave, (input, ctx) => endLeave(scope(ctx), ctx.staff.id, input));
  r.handle(approveCardLeave, (input, ctx) => approveLeave(scope(ctx), ctx.staff.id, input));
  r.handle(refuseCardLeave, (input, ctx) => refuseLeave(scope(ctx), ctx.staff.id, input));
  r.handle(cardLeaveList, (input, ctx) => listLeaves(scope(ctx), withCard(input)));
  r.handle(queryCardLifeSetting, (_input, ctx) => cardLifeSetting(ctx));
  r.handle(updateCardLifeSetting, (input, ctx) => saveCardLifeSetting(ctx, input), { tx: true });
  r.handle(memberRequestCardLeave, (input, ctx) => requestLeave(scope(ctx), ctx.member.id, withCard(input)));
  r.handle(memberCardLeaves, (input, ctx) => memberLeaves(scope(ctx), ctx.member.id, input.mcId));
});
