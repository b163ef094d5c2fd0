// 潜客's reads and writes (issue 44): the lists, a lead, 我的待跟进, the setting and the funnel.
import {
  cancelLeadTrial,
  insertLeadTrial,
  insertLeadTrialLesson,
  queryTimetableByDate,
  insertLead,
  insertLeadFollowUp,
  queryLeadFunnel,
  queryLeadFunnelList,
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
  queryMarketingPreview,
  queryMarketingSendList,
  queryMarketingSetting,
  sendMarketing,
  updateMarketingSetting,
  grantReferralReward,
  queryReferralRewardList,
  queryReferralSetting,
  undoReferralReward,
  updateReferralSetting,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

export type LeadFilter = ReqOf<typeof queryLeadList>;

/** One page of the leads a filter holds. */
export function useLeadPage(f: LeadFilter) {
  return useQuery({
    queryKey: keys.leads.of('list', f),
    queryFn: () => call(queryLeadList, f),
    placeholderData: (p) => p,
  });
}

/** A lead with its follow-ups (id 0: none open). */
export function useLeadInfo(id: number) {
  return useQuery({
    queryKey: keys.leads.of('info', { id }),
    queryFn: () => call(queryLeadInfo, { id }),
    enabled: id > 0,
  });
}

/** 我的待跟进. */
export function useLeadTodo(enabled = true) {
  return useQuery({ queryKey: keys.leads.of('todo', {}), queryFn: () => call(queryLeadTodoList, {}), enabled });
}

/** The leads' setting: pool return days, the store's sources and the built-in ones. */
export function useLeadSetting() {
  return useQuery({ queryKey: keys.leads.of('setting', {}), queryFn: () => call(queryLeadSetting, {}) });
}

/** Every source a lead may have: the built-in ones, then the store's. */
export function useLeadSources(): string[] {
  const s = useLeadSetting().data;
  return s ? [...s.builtInSources, ...s.sources] : [];
}

export type FunnelRange = ReqOf<typeof queryLeadFunnel>;

export function useLeadFunnel(range: FunnelRange) {
  return useQuery({
    queryKey: keys.leads.of('funnel', range),
    queryFn: () => call(queryLeadFunnel, range),
    placeholderData: (p) => p,
  });
}

export type FunnelListReq = ReqOf<typeof queryLeadFunnelList>;

/** The leads behind one number of the funnel (null: none chosen). */
export function useLeadFunnelList(req: FunnelListReq | null) {
  return useQuery({
    queryKey: keys.leads.of('funnel-list', req ?? {}),
    queryFn: () => call(queryLeadFunnelList, req!),
    enabled: req !== null,
    placeholderData: (p) => p,
  });
}

const lead = { changes: 'lead' as const };

export const useAddLead = () =>
  useWrite((v: ReqOf<typeof insertLead>) => call(insertLead, v), { ...lead, success: '已添加' });
export const useEditLead = () =>
  useWrite((v: ReqOf<typeof updateLead>) => call(updateLead, v), { ...lead, success: '已保存' });
export const useFollowUp = () =>
  useWrite((v: ReqOf<typeof insertLeadFollowUp>) => call(insertLeadFollowUp, v), { ...lead, success: '已记录跟进' });
export const useLeadStage = () =>
  useWrite((v: ReqOf<typeof updateLeadStage>) => call(updateLeadStage, v), { ...lead, success: '阶段已修改' });
export const useAssignLeads = () =>
  useWrite((v: ReqOf<typeof updateLeadOwner>) => call(updateLeadOwner, v), { ...lead, success: '已分配' });
export const useTakeLead = () => useWrite((id: number) => call(takeLead, { id }), { ...lead, success: '已领取' });
export const useSaveLeadSetting = () =>
  useWrite((v: ReqOf<typeof updateLeadSetting>) => call(updateLeadSetting, v), { ...lead, success: '已保存' });

// 转介绍奖励 (issue 44, item 5): the setting and the rewards; granting or taking one back changes a card.

export function useReferralSetting() {
  return useQuery({ queryKey: keys.leads.of('referral-setting', {}), queryFn: () => call(queryReferralSetting, {}) });
}

export type ReferralRewardFilter = ReqOf<typeof queryReferralRewardList>;

export function useReferralRewards(f: ReferralRewardFilter) {
  return useQuery({
    queryKey: keys.leads.of('referral-rewards', f),
    queryFn: () => call(queryReferralRewardList, f),
    placeholderData: (p) => p,
  });
}

export const useSaveReferralSetting = () =>
  useWrite((v: ReqOf<typeof updateReferralSetting>) => call(updateReferralSetting, v), {
    ...lead,
    success: '已保存',
  });
export const useGrantReferralReward = () =>
  useWrite((id: number) => call(grantReferralReward, { id }), { changes: 'memberCard', success: '奖励已发放' });
export const useUndoReferralReward = () =>
  useWrite((id: number) => call(undoReferralReward, { id }), { changes: 'memberCard', success: '奖励已撤销' });
// ---- 体验课 ----

/**
 * The group classes of `date` a trial may be booked into: not ended at `now`, with a seat left
 * (private lessons are booked through their own screen).
 */
export function useTrialSessions(date: string, now: string) {
  return useQuery({
    queryKey: keys.calendar.trialSessions(date),
    queryFn: () => call(queryTimetableByDate, { fromDate: date, toDate: date, areaId: null, teacherId: null }),
    select: (days) =>
      days.flatMap((d) => d.list).filter((s) => s.lesson === null && s.toTime > now && s.realCount < s.reservableCount),
  });
}

const trial = { changes: 'leadTrial' as const };

export const useBookTrial = () =>
  useWrite((v: ReqOf<typeof insertLeadTrial>) => call(insertLeadTrial, v), { ...trial, success: '已约体验课' });
/** 私教体验课: a new 1对1 lesson at one of the teacher's free start times, the lead holding its seat. */
export const useBookLessonTrial = () =>
  useWrite((v: ReqOf<typeof insertLeadTrialLesson>) => call(insertLeadTrialLesson, v), {
    ...trial,
    success: '已约私教体验课',
  });
export const useCancelTrial = () =>
  useWrite((id: number) => call(cancelLeadTrial, { id }), { ...trial, success: '已取消体验课' });

// ---- 营销短信 (issue 44, item 7): a lead's consent; the manager's send ----
export const useLeadConsent = () =>
  useWrite((v: ReqOf<typeof updateLeadConsent>) => call(updateLeadConsent, v), { ...lead, success: '已登记' });

export type MarketingAudience = ReqOf<typeof queryMarketingPreview>;

/** How many a text would reach and how many are left out (null: nobody chosen yet). */
export function useMarketingPreview(a: MarketingAudience | null) {
  return useQuery({
    queryKey: keys.leads.of('marketing-preview', a ?? {}),
    queryFn: () => call(queryMarketingPreview, a!),
    enabled: a !== null,
    placeholderData: (p) => p,
  });
}

export function useMarketingSetting() {
  return useQuery({ queryKey: keys.leads.of('marketing-setting', {}), queryFn: () => call(queryMarketingSetting, {}) });
}

export const useSaveMarketingSetting = () =>
  useWrite((v: ReqOf<typeof updateMarketingSetting>) => call(updateMarketingSetting, v), {
    ...lead,
    success: '已保存',
  });

export const useSendMarketing = () => useWrite((v: ReqOf<typeof sendMarketing>) => call(sendMarketing, v), { ...lead });

/** 发送记录: the store's sends, newest first, with their texts' state (a send refreshes it). */
export function useMarketingSends(page: number) {
  return useQuery({
    queryKey: keys.leads.of('marketing-sends', { page }),
    queryFn: () => call(queryMarketingSendList, { page }),
    placeholderData: (p) => p,
  });
}
