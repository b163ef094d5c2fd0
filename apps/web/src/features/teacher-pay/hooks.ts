// The 课时费 screen's reads and writes: pay rules, the month's statement and adjustments, commission
// rates and the month's commission, closing and reopening months.
import {
  addTeacherPayAdjustment,
  closeSalesCommissionMonth,
  closeTeacherPayMonth,
  deleteTeacherPayRule,
  queryPayMonthList,
  querySalesCommission,
  querySalesCommissionRateList,
  queryTeacherPayRuleList,
  queryTeacherPayStatement,
  reopenSalesCommissionMonth,
  reopenTeacherPayMonth,
  updateSaleSeller,
  updateSalesCommissionRate,
  updateTeacherPayRule,
  type ReqOf,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError, call } from '../../api/client.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';
import type { CloseKind } from './types.ts';

const keep = { placeholderData: <T>(p: T | undefined) => p };

/** Every teacher's pay rules. */
export function usePayRules(enabled: boolean) {
  return useQuery({
    queryKey: keys.teacherPay.rules,
    queryFn: () => call(queryTeacherPayRuleList, {}),
    enabled,
  });
}

/** A month's statement (a teacher account gets its own whatever it asks). */
export function useStatement(month: string, teacherId: number | null) {
  return useQuery({
    queryKey: keys.teacherPay.statement(month, teacherId),
    queryFn: () => call(queryTeacherPayStatement, { month, teacherId }),
    ...keep,
  });
}

export function useCommission(month: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.teacherPay.commission(month),
    queryFn: () => call(querySalesCommission, { month }),
    enabled,
    ...keep,
  });
}

export function useCommissionRates(enabled: boolean) {
  return useQuery({
    queryKey: keys.teacherPay.rates,
    queryFn: () => call(querySalesCommissionRateList, {}),
    enabled,
  });
}

export function useClosedMonths() {
  return useQuery({ queryKey: keys.teacherPay.closed, queryFn: () => call(queryPayMonthList, {}) });
}

export type RuleFields = ReqOf<typeof updateTeacherPayRule>;

export function useSaveRule() {
  return useWrite((r: RuleFields) => call(updateTeacherPayRule, r), { success: '规则已保存', changes: 'teacherPay' });
}

export function useDeleteRule() {
  return useWrite((r: ReqOf<typeof deleteTeacherPayRule>) => call(deleteTeacherPayRule, r), {
    success: '规则已删除',
    changes: 'teacherPay',
  });
}

export function useAddAdjustment() {
  return useWrite((a: ReqOf<typeof addTeacherPayAdjustment>) => call(addTeacherPayAdjustment, a), {
    success: '调整已添加',
    changes: 'teacherPay',
  });
}

/**
 * Closes a month. Teacher pay: `confirmed` says the manager saw the classes without a rule; the
 * server refuses (409 naming them) when it finds some that were not confirmed, and `onUnruled` gets
 * its message to ask again.
 */
export function useCloseMonth(kind: CloseKind, onUnruled?: (msg: string, month: string) => void) {
  return useWrite<[month: string, confirmed?: boolean], null>(
    (month: string, confirmed?: boolean) =>
      kind === 'teacher'
        ? call(closeTeacherPayMonth, { month, confirmed: confirmed ?? false })
        : call(closeSalesCommissionMonth, { month }),
    {
      success: '已结算并关闭该月',
      changes: 'teacherPay',
      onError: (e, month) => {
        if (e instanceof ApiError && e.status === 409 && e.message.includes('没有课时费规则'))
          onUnruled?.(e.message, month);
      },
    },
  );
}

export function useReopenMonth(kind: CloseKind) {
  return useWrite(
    (month: string, reason: string) =>
      call(kind === 'teacher' ? reopenTeacherPayMonth : reopenSalesCommissionMonth, { month, reason }),
    { success: '已重新打开该月', changes: 'teacherPay' },
  );
}

export function useSaveRate() {
  return useWrite(
    (staffId: number, rate: number, perConversion: number) =>
      call(updateSalesCommissionRate, { staffId, rate, perConversion }),
    {
      success: '提成设置已保存',
      changes: 'teacherPay',
    },
  );
}

/** 更改销售员 of a sale or top-up (a manager): the commission counts the new seller from then on. */
export function useChangeSeller() {
  return useWrite((id: number, sellerId: number) => call(updateSaleSeller, { id, sellerId }), {
    success: '销售员已更改',
    changes: 'teacherPay',
  });
}
