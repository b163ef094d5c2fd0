import { z } from 'zod';
import './zod-zh.ts';
import { MAX_COUNT, MAX_NAME, MAX_TEXT } from './constants.ts';

const INT_MAX = 2_147_483_647;

/** A positive integer id. */
export const zId = (error?: string) =>
  z
    .number(error ? { error } : undefined)
    .int(error ? { error } : undefined)
    .min(1, error ? { error } : undefined)
    .max(INT_MAX);

/** An optional reference: omitted, null or 0 all mean "none" and come out as null. */
export const zOptId = () =>
  z
    .number()
    .int()
    .min(0)
    .max(INT_MAX)
    .nullish()
    .transform((v) => (v ? v : null));

/** A non-negative count. */
export const zCount = (error?: string, max = MAX_COUNT) =>
  z
    .number(error ? { error } : undefined)
    .int(error ? { error } : undefined)
    .min(0, error ? { error } : undefined)
    .max(max);

function isRealDate(s: string): boolean {
  const [y, m, d] = s.split('-').map(Number);
  if (y < 1900 || y > 2200) return false;
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/** `YYYY-MM-DD`, a real calendar date. */
export const zDate = (error?: string) =>
  z
    .string(error ? { error } : undefined)
    .regex(/^\d{4}-\d{2}-\d{2}$/, error ? { error } : '日期格式应为 YYYY-MM-DD')
    .refine(isRealDate, error ? { error } : { error: '日期不存在' });

/** `HH:mm`. */
export const zTime = (error?: string) =>
  z.string(error ? { error } : undefined).regex(/^([01]\d|2[0-3]):[0-5]\d$/, error ? { error } : '时间格式应为 HH:mm');

/** `YYYY-MM-DD HH:mm:ss` or a bare date. */
export const zDateTime = () =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}( ([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?)?$/, '时间格式应为 YYYY-MM-DD HH:mm:ss')
    .refine((s) => isRealDate(s.slice(0, 10)), { error: '日期不存在' });

export const zName = (error?: string) =>
  z
    .string(error ? { error } : undefined)
    .trim()
    .min(1, error ? { error } : '名称不能为空')
    .max(MAX_NAME, `名称不能超过${MAX_NAME}个字符`);

export const zText = (max = MAX_TEXT) => z.string().max(max, `内容不能超过${max}个字符`);

/** A mobile as written in a file (spaces, dashes, +86 dropped); check it with `zMobile`. */
export const readWrittenMobile = (s: string): string => s.replace(/[\s-]/g, '').replace(/^(\+?86)(?=1\d{10}$)/, '');

export const zMobile = () =>
  z
    .string()
    .trim()
    .regex(/^1\d{10}$/, '请输入正确的11位手机号');

/**
 * 138****5678: a mobile as a person who does not need it sees it (a receipt, a list for the desk,
 * every answer to a teacher). A string too short to be a mobile, or already masked, stays as it is.
 */
export function maskMobile(mobile: string): string {
  return mobile.length >= 7 && !mobile.includes('*') ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : mobile;
}

export const zPage = () => z.number().int().min(1).max(100_000).default(1);

/** 0/1 flag. */
export const zFlag = () => z.union([z.literal(0), z.literal(1)]);

/** Empty payload: `{}` (extra keys ignored). */
export const zEmpty = z.object({}).loose();

/** A list answer that pages. */
export const zPaged = <T extends z.ZodType>(row: T) => z.object({ list: z.array(row), total: z.number().int() });

/** Gender and age limits of a course or session as answered (spec section 3). */
export const zLimitFields = z.object({
  genderLimit: z.number(),
  ageLimit: z.number(),
  syear: z.number().nullable(),
  smonth: z.number().nullable(),
  sday: z.number().nullable(),
  eyear: z.number().nullable(),
  emonth: z.number().nullable(),
  eday: z.number().nullable(),
});
