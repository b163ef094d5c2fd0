import { GENDER_ALL, Msg } from '@studio/contract';
import type { AgeLimitColumns } from '../../db/schema.ts';

/** Member gender: 1 male, 2 female, 0 unknown. Session genderLimit: 2 all, 1 male, otherwise female. */
export function genderRefusal(genderLimit: number, memberGender: number): string | null {
  if (genderLimit === GENDER_ALL) return null;
  const wanted = genderLimit === 1 ? 1 : 2;
  return memberGender === wanted ? null : Msg.genderLimited;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Whole months between a birthday and a date (`YYYY-MM-DD`), counting a month only once its day is reached. */
export function ageInMonths(birthday: string, at: string): number {
  const [by, bm, bd] = birthday.slice(0, 10).split('-').map(Number);
  const [ay, am, ad] = at.slice(0, 10).split('-').map(Number);
  return (ay - by) * 12 + (am - bm) - (ad < bd ? 1 : 0);
}

/**
 * Checks a session's age limit against a member's birthday at the session's date.
 * - ageLimit 0: no limit.
 * - ageLimit 1 (age range): syear/smonth is the minimum age (years + months), eyear/emonth the
 *   maximum age (years + months), both inclusive, counted in whole months at the session date.
 *   A bound whose year and month are both empty is open.
 * - ageLimit 2 (birth-date range): the birthday must fall between syear-smonth-sday and
 *   eyear-emonth-eday inclusive; an empty month or day means 1 for the start and 12 / 31 for the end.
 * A member without a birthday cannot pass a limit.
 */
export function ageRefusal(limit: AgeLimitColumns, birthday: string | null, sessionDate: string): string | null {
  if (!limit.ageLimit) return null;
  if (!birthday) return Msg.ageLimited;
  if (limit.ageLimit === 1) {
    const age = ageInMonths(birthday, sessionDate);
    const hasMin = limit.syear != null || limit.smonth != null;
    const hasMax = limit.eyear != null || limit.emonth != null;
    const min = (limit.syear ?? 0) * 12 + (limit.smonth ?? 0);
    const max = (limit.eyear ?? 0) * 12 + (limit.emonth ?? 0);
    if (hasMin && age < min) return Msg.ageLimited;
    if (hasMax && age > max) return Msg.ageLimited;
    return null;
  }
  const b = birthday.slice(0, 10);
  if (limit.syear) {
    const from = `${limit.syear}-${pad(limit.smonth || 1)}-${pad(limit.sday || 1)}`;
    if (b < from) return Msg.ageLimited;
  }
  if (limit.eyear) {
    const to = `${limit.eyear}-${pad(limit.emonth || 12)}-${pad(limit.eday || 31)}`;
    if (b > to) return Msg.ageLimited;
  }
  return null;
}
