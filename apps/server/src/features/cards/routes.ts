import {
  cardProductList,
  cardRefundQuote,
  deleteCardProduct,
  insertCardProduct,
  insertMemberCard,
  memberCardLedger,
  memberCardsForCourse,
  memberInfo,
  memberPayments,
  queryCardsOverPrepaidLimit,
  queryPrepaidLimitSetting,
  topupMemberCard,
  updatePrepaidLimitSetting,
  updateCardProduct,
  updateMemberCardExpire,
  updateMemberCardStatus,
} from '@studio/contract';
import { defineFeature, type Registry } from '../../lib/feature.ts';
import { cardLedger, issueCard, setCardExpiry, setCardFrozen, topUpCard } from './member-card-service.ts';
import { cardsForCourse, memberWithCards } from './member-view.ts';
import { memberPaymentList, refundQuoteOf } from './payment-service.ts';
import { cardsOverLimits, loadPrepaidRule, savePrepaidRule } from './prepaid-limits.ts';
import { createProduct, editProduct, listProducts, removeProduct } from './product-service.ts';

/** Card products and the cards members hold. */
export function registerCard(r: Registry): void {
  r.handle(cardProductList, (_input, ctx) => listProducts(ctx));
  r.handle(insertCardProduct, (input, ctx) => createProduct(ctx, input));
  r.handle(updateCardProduct, (input, ctx) => editProduct(ctx, input));
  r.handle(deleteCardProduct, (input, ctx) => removeProduct(ctx, input.id), { tx: true });
  r.handle(insertMemberCard, (input, ctx) => issueCard(ctx, input));
  r.handle(updateMemberCardStatus, (input, ctx) => setCardFrozen(ctx, input.id, input.frozen), { tx: true });
  r.handle(topupMemberCard, (input, ctx) => topUpCard(ctx, input.id, input.amount, input.payment, input.sellerId));
  r.handle(updateMemberCardExpire, (input, ctx) => setCardExpiry(ctx, input.id, input.expireTime), { tx: true });
  r.handle(memberCardLedger, (input, ctx) => cardLedger(ctx, input.id));
  r.handle(queryPrepaidLimitSetting, (_input, ctx) => loadPrepaidRule(ctx.db, ctx.store.id));
  r.handle(updatePrepaidLimitSetting, (input, ctx) => savePrepaidRule(ctx, input), { tx: true });
  r.handle(queryCardsOverPrepaidLimit, (_input, ctx) => cardsOverLimits(ctx));
  // refundMemberCard (退卡) is handled by online payment: it closes the card's open top-up orders first.
  r.handle(cardRefundQuote, (input, ctx) => refundQuoteOf(ctx, input.mcId));
  r.handle(memberPayments, (input, ctx) => memberPaymentList(ctx, input.mid));
  r.handle(memberInfo, (input, ctx) => memberWithCards(ctx, input.id));
  r.handle(memberCardsForCourse, (input, ctx) => cardsForCourse(ctx, input.mid, input.courseId));
}

/** 会员卡: the card products and the members' cards at the desk (their life, sharing and transfer register their own calls). */
export const cardsFeature = defineFeature(registerCard);
