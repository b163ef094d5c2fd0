import {
  createPayOrder,
  memberCreateOrder,
  memberQueryOrder,
  memberQueryOrders,
  memberQueryProducts,
  queryPayConnection,
  queryPayOrder,
  queryPayOrderList,
  queryPayReconcile,
  queryPaySetting,
  refundMemberCard,
  refundPayOrder,
  runPayReconcile,
  updatePaySetting,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { withCard } from '../../lib/wire-names.ts';
import { refundCard } from '../cards/public.ts';
import {
  closeOpenTopups,
  createDeskOrder,
  createMemberOrder,
  listMemberOrders,
  listStoreOrders,
  productsForMembers,
  queryMemberOrder,
  queryStoreOrder,
} from './orders.ts';
import { queryReconcile, runReconcile } from './reconcile.ts';
import { refundOrder } from './refunds.ts';
import { queryPaySettings, savePaySettings, testPayConnection } from './settings.ts';

/** Online payment: the store's provider settings, members' purchases and their orders. */
export const paymentFeature = defineFeature((r) => {
  r.handle(queryPaySetting, (_input, ctx) => queryPaySettings(ctx));
  r.handle(updatePaySetting, (input, ctx) => savePaySettings(ctx, input));
  r.handle(queryPayConnection, (input, ctx) => testPayConnection(ctx, input.provider));
  r.handle(memberQueryProducts, (_input, ctx) => productsForMembers(ctx));
  r.handle(memberCreateOrder, (input, ctx) => createMemberOrder(ctx, withCard(input)));
  r.handle(memberQueryOrder, (input, ctx) => queryMemberOrder(ctx, input.orderNo));
  r.handle(memberQueryOrders, (input, ctx) => listMemberOrders(ctx, input.page));
  r.handle(createPayOrder, (input, ctx) => createDeskOrder(ctx, withCard(input)));
  r.handle(queryPayOrder, (input, ctx) => queryStoreOrder(ctx, input.orderNo));
  r.handle(queryPayOrderList, (input, ctx) => listStoreOrders(ctx, input));
  r.handle(refundPayOrder, (input, ctx) => refundOrder(ctx, input));
  // The desk's 退卡 (reference's refundCard), after the card's top-up orders still 待支付 are closed.
  r.handle(refundMemberCard, async (input, ctx) => {
    if (input.topupId === undefined) await closeOpenTopups(ctx, input.id);
    return refundCard(ctx, input);
  });
  r.handle(queryPayReconcile, (input, ctx) => queryReconcile(ctx, input));
  r.handle(runPayReconcile, (input, ctx) => runReconcile(ctx, input));
});
