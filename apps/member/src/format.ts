import { amountText, PhaseMsg, type MemberSession } from '@studio/contract';

const WEEK = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

/** A `YYYY-MM-DD` date as a UTC instant, for calendar arithmetic that no device time zone can shift. */
function utcOf(date: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

export function addDays(date: string, n: number): string {
  const t = utcOf(date);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

/** Monday of the week holding `date`. */
export function mondayOf(date: string): string {
  const wd = utcOf(date).getUTCDay();
  return addDays(date, wd === 0 ? -6 : 1 - wd);
}

export function weekdayOf(date: string): string {
  return WEEK[utcOf(date).getUTCDay()];
}

/** 11/23 */
export const monthDay = (date: string) => `${Number(date.slice(5, 7))}/${Number(date.slice(8, 10))}`;
/** 10:00 of `YYYY-MM-DD HH:mm:ss`. */
export const hm = (dt: string) => dt.slice(11, 16);
/** 11月23日 周一 10:00 */
export const whenText = (from: string, to?: string) =>
  `${Number(from.slice(5, 7))}月${Number(from.slice(8, 10))}日 ${weekdayOf(from.slice(0, 10))} ${hm(from)}${to ? `-${hm(to)}` : ''}`;

/** A card's balance or a charge: 8 次 / 120.00 元. */
export const amount = (bigType: number, n: number) => amountText(bigType, n);

/** What the member holds in a class, in words. */
export function mineText(s: MemberSession): { text: string; color: string } | null {
  if (!s.mine) return null;
  if (s.mine.kind === 'booked') return { text: '已预约', color: 'primary' };
  if (s.mine.kind === 'signed') return { text: '已签到', color: 'success' };
  if (s.mine.kind === 'pending') return { text: '待签到', color: 'warning' };
  return { text: `候补第${s.mine.position}位`, color: 'default' };
}

/**
 * A class closed to booking, in words for the timetable (已结束, 进行中, 已截止预约, 12月3日 10:00
 * 开放预约), or null while its booking window is open.
 */
export function phaseText(s: Pick<MemberSession, 'phase' | 'opensAt'>): string | null {
  if (s.phase === 'notOpen') return s.opensAt ? PhaseMsg.opensAt(s.opensAt) : null;
  return s.phase === 'open' ? null : PhaseMsg[s.phase];
}
