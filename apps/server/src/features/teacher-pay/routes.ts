import {
  addTeacherPayAdjustment,
  createSellerLink,
  closeSalesCommissionMonth,
  closeTeacherPayMonth,
  deleteTeacherPayRule,
  queryPayMonthList,
  querySellerLink,
  querySalesCommission,
  querySalesCommissionRateList,
  queryTeacherPayRuleList,
  queryTeacherPayStatement,
  reopenSalesCommissionMonth,
  reopenTeacherPayMonth,
  updateSaleSeller,
  updateSalesCommissionRate,
  updateTeacherPayRule,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { sessionMoving } from '../timetable/public.ts';
import { refuseClosedSessionChange } from './session-guard.ts';
import {
  addAdjustment,
  changeSaleSeller,
  closedMonths,
  closeMonth,
  commission,
  rateList,
  removeRule,
  reopenMonth,
  ruleList,
  saveRate,
  saveRule,
  statement,
} from './service.ts';
import { createSellerLinkOf, querySellerLinkOf } from './seller-link.ts';

/** 课时费 and 销售提成: pay rules, monthly statements, adjustments, commission rates, closing months. */
export const teacherPayFeature = defineFeature((r) => {
  // At the guard stage: a closed month's session keeps its teacher and time, refused before any listener writes.
  r.on(sessionMoving, refuseClosedSessionChange, 'guard');
  r.handle(querySellerLink, (input, ctx) => querySellerLinkOf(ctx, input));
  r.handle(createSellerLink, (input, ctx) => createSellerLinkOf(ctx, input));
  r.handle(queryTeacherPayRuleList, (input, ctx) => ruleList(ctx, input.teacherId));
  r.handle(updateTeacherPayRule, (input, ctx) => saveRule(ctx, input));
  r.handle(deleteTeacherPayRule, (input, ctx) => removeRule(ctx, input));
  r.handle(queryTeacherPayStatement, (input, ctx) => statement(ctx, input.month, input.teacherId));
  r.handle(addTeacherPayAdjustment, (input, ctx) => addAdjustment(ctx, input));
  r.handle(closeTeacherPayMonth, (input, ctx) => closeMonth(ctx, 'teacher', input.month, input.confirmed));
  r.handle(reopenTeacherPayMonth, (input, ctx) => reopenMonth(ctx, 'teacher', input.month, input.reason));
  r.handle(querySalesCommissionRateList, (_input, ctx) => rateList(ctx));
  r.handle(updateSalesCommissionRate, (input, ctx) => saveRate(ctx, input));
  r.handle(querySalesCommission, (input, ctx) => commission(ctx, input.month));
  r.handle(closeSalesCommissionMonth, (input, ctx) => closeMonth(ctx, 'commission', input.month));
  r.handle(reopenSalesCommissionMonth, (input, ctx) => reopenMonth(ctx, 'commission', input.month, input.reason));
  r.handle(updateSaleSeller, (input, ctx) => changeSaleSeller(ctx, input));
  r.handle(queryPayMonthList, (_input, ctx) => closedMonths(ctx));
});
