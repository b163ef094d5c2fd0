import {
  cancelLeadTrial,
  insertLeadTrial,
  insertLeadTrialLesson,
  markLeadTrial,
  queryLeadTrialList,
  insertLead,
  insertLeadFollowUp,
  queryLeadFunnel,
  queryLeadFunnelList,
  memberReferral,
  memberTrialForm,
  memberTrialSignup,
  queryLeadInfo,
  queryLeadList,
  queryLeadSetting,
  queryLeadTodoList,
  takeLead,
  updateLead,
  updateLeadOwner,
  updateLeadSetting,
  updateLeadStage,
  updateLeadConsent,
  grantReferralReward,
  queryReferralRewardList,
  queryReferralSetting,
  undoReferralReward,
  updateReferralSetting,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { requireStoreById } from '../../lib/store-scope.ts';
import { cardSold } from '../cards/public.ts';
import type { Tx } from '../../db/index.ts';
import {
  bookingCancelled,
  bookingMade,
  memberAttended,
  sessionDeleted,
  sessionsDeletedInBulk,
} from '../timetable/public.ts';
import * as paid from './paid-trials.ts';
import { convertOnSale } from './conversion.ts';
import * as reward from './referral-reward.ts';
import { setLeadConsent } from './consent.ts';
import * as s from './service.ts';
import { myReferral, signUpForTrial, trialForm } from './trial-signup.ts';
import {
  bookLessonTrial,
  bookTrial,
  cancelTrial,
  cancelTrialsOfSessions,
  markTrial,
  onSessionDeleted,
  sessionTrials,
} from './trials.ts';

/** 潜客: leads, the pool, follow-ups and stages, the setting; a card sale converts its lead. */
export const leadsFeature = defineFeature((r) => {
  r.handle(queryLeadList, (input, ctx) => s.leadList(ctx, input));
  r.handle(queryLeadInfo, (input, ctx) => s.leadInfo(ctx, input.id));
  r.handle(insertLead, (input, ctx) => s.addLead(ctx, input));
  r.handle(updateLead, (input, ctx) => s.editLead(ctx, input));
  r.handle(insertLeadFollowUp, (input, ctx) => s.addFollowUp(ctx, input));
  r.handle(updateLeadStage, (input, ctx) => s.changeStage(ctx, input));
  r.handle(updateLeadConsent, (input, ctx) => setLeadConsent(ctx, input));
  r.handle(updateLeadOwner, (input, ctx) => s.assignLeads(ctx, input));
  r.handle(takeLead, (input, ctx) => s.takeLead(ctx, input.id));
  r.handle(queryLeadTodoList, (_input, ctx) => s.todoList(ctx));
  r.handle(queryLeadFunnel, (input, ctx) => s.leadFunnel(ctx, input));
  r.handle(queryLeadFunnelList, (input, ctx) => s.leadFunnelList(ctx, input));
  // 体验课: a lead's seat in a class without a card.
  r.handle(insertLeadTrial, (input, ctx) => bookTrial(ctx, input));
  r.handle(insertLeadTrialLesson, (input, ctx) => bookLessonTrial(ctx, input));
  r.handle(cancelLeadTrial, (input, ctx) => cancelTrial(ctx, input.id));
  r.handle(markLeadTrial, (input, ctx) => markTrial(ctx, input));
  r.handle(queryLeadTrialList, (input, ctx) => sessionTrials(ctx, input.sessionId));
  r.handle(queryLeadSetting, (_input, ctx) => s.leadSetting(ctx));
  r.handle(updateLeadSetting, (input, ctx) => s.saveLeadSetting(ctx, input), { tx: true });
  // 体验课报名 (public, behind the members' door) and a member's referral link.
  r.handle(memberTrialForm, async ({ storeId }, ctx) => trialForm(ctx.db, await requireStoreById(ctx.db, storeId)));
  r.handle(memberTrialSignup, async ({ storeId, ...input }, ctx) =>
    signUpForTrial(ctx, await requireStoreById(ctx.db, storeId), { storeId, ...input }),
  );
  r.handle(memberReferral, async (_input, ctx) => myReferral(ctx, ctx.member.id));
  // A sale converts its lead in the sale's transaction (the write stage).
  r.on(cardSold, convertOnSale, 'write');
  // 转介绍奖励: the setting, the list, granting one left pending, taking one back; a friend's first
  // class rewards the referrer in the attendance's transaction (a first card: in convertOnSale).
  r.handle(queryReferralSetting, (_input, ctx) => reward.referralSetting(ctx));
  r.handle(updateReferralSetting, (input, ctx) => reward.saveReferralSetting(ctx, input), { tx: true });
  r.handle(queryReferralRewardList, (input, ctx) => reward.referralRewardList(ctx, input));
  r.handle(grantReferralReward, (input, ctx) => reward.grantReward(ctx, input.id));
  r.handle(undoReferralReward, (input, ctx) => reward.undoReward(ctx, input.id));
  r.on(memberAttended, (tx, e) => reward.rewardReferral(tx, e, 'class'), 'write');
  // Paid trials (体验卡): a lead's member booking with it is the lead's trial; its attendance and cancel are the trial's.
  r.on(bookingMade, paid.onBookingMade, 'write');
  r.on(bookingCancelled, paid.onBookingCancelled, 'write');
  r.on(memberAttended, paid.onMemberAttended, 'write');
  // A deleted class cancels its trials and frees their seats in the delete's transaction.
  r.on(sessionDeleted, onSessionDeleted, 'write');
  r.on(sessionsDeletedInBulk, (tx, e) => cancelTrialsOfSessions(tx as Tx, e.storeId, e.sessionIds, e.now), 'write');
});
