import { amountText, BIG_TYPE_COUNT, type SessionInfo } from '@studio/contract';

/** A card's balance in its unit: whole classes for count cards (`8 次`), yuan with 2 decimals otherwise. */
export function balanceText(c: { bigType: number; totalCount: number; usedCount: number }): string {
  return amountText(c.bigType, c.totalCount - c.usedCount);
}

/** Fen to a yuan text with 2 decimals. */
export const yuan = (fen: number) => (fen / 100).toFixed(2);

/** A yuan amount typed by staff (up to 2 decimals) to integer fen. */
export const toFen = (y: number) => Math.round(y * 100);

/** The unit of a card kind: 次 for count cards, 元 for money cards. */
export const unitOf = (bigType: number) => (bigType === BIG_TYPE_COUNT ? '次' : '元');

/** An amount of a card in its unit: a count, or fen shown as yuan (the contract's one rule). */
export { amountText };

export function genderLimitText(g: number): string {
  if (g === 2) return '不限';
  return g === 1 ? '仅限男' : '仅限女';
}

export function ageLimitText(
  s: Pick<SessionInfo, 'ageLimit' | 'syear' | 'smonth' | 'sday' | 'eyear' | 'emonth' | 'eday'>,
) {
  if (!s.ageLimit) return '不限';
  if (s.ageLimit === 1) {
    const part = (y: number | null, m: number | null) => (y == null && m == null ? '不限' : `${y ?? 0}岁${m ?? 0}个月`);
    return `${part(s.syear, s.smonth)} 至 ${part(s.eyear, s.emonth)}`;
  }
  const d = (y: number | null, m: number | null, dd: number | null) =>
    y ? `${y}-${String(m || 1).padStart(2, '0')}-${String(dd || 1).padStart(2, '0')}` : '不限';
  return `出生日期 ${d(s.syear, s.smonth, s.sday)} 至 ${d(s.eyear, s.emonth, s.eday)}`;
}

/** A session's time: `YYYY-MM-DD HH:mm - HH:mm`. */
export function timeRange(start: string, end: string): string {
  return `${start.slice(0, 16)} - ${end.slice(11, 16)}`;
}

/**
 * A store wall-clock time (`YYYY-MM-DD HH:mm[:ss]`) as milliseconds, read as UTC: a difference of
 * two counts the store clock's minutes, whatever the browser's zone and its daylight saving.
 */
const wallClockMs = (t: string) => Date.parse(`${t.slice(0, 10)}T${(t.slice(11, 19) || '00:00').padEnd(8, ':00')}Z`);

/** Minutes from `start` to `end`, both store wall-clock times. */
export function minutesBetween(start: string, end: string): number {
  return Math.trunc((wallClockMs(end) - wallClockMs(start)) / 60_000);
}

/** The kinds of a booking-history entry. */
export const OPERATE_TYPES: Record<number, string> = {
  1: '用户预约',
  2: '管理员代约',
  3: '用户取消',
  4: '管理员取消',
  5: '迟到取消',
  6: '爽约',
  7: '免除扣费',
  8: '前台签到',
  9: '会员扫码签到',
  10: '到店',
  11: '撤销到店',
  12: '候补递补',
};

export function deductModeText(signInMode: boolean): string {
  return signInMode ? '签到后扣费：预约时不扣卡，会员到店签到后扣除' : '预约即扣费：预约时直接扣除会员卡';
}
