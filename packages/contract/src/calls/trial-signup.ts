// 体验课报名 (issue 44, items 1 and 5): a stranger signs up for a trial class on the store's public
// page (no login), behind the members' door (per-address and per-store allowances, proof-of-work
// past them, one answer whatever the mobile); a member's referral link (推荐好友) carries their
// code (server: features/leads/trial-signup.ts, the door in features/member-channel/member-auth.ts).
import { z } from 'zod';
import { zEmpty, zMobile } from '../common.ts';
import { defineCall, fails } from '../define.ts';
import { MEMBER_API, MemberMsg, zStoreId } from './member-channel.ts';

/** The allowances of the sign-up door (the address's are the code door's numbers, `LOGIN_CODE`). */
export const TRIAL_SIGNUP = {
  /** One sign-up of a mobile a minute, this many a day. */
  gapMs: 60_000,
  perDay: 5,
  /** A store's sign-ups an hour without a solved challenge (past it every sign-up needs one). */
  storeFreePerHour: 30,
} as const;

export const TrialMsg = {
  name: '请填写您的姓名',
  nameLong: '姓名不能超过32个字符',
  /** zMobile's words, for the page's own check. */
  mobile: '请输入正确的11位手机号',
  interest: '请选择或填写想体验的课程',
  interestLong: '想体验的课程不能超过200个字符',
  timesLong: '方便的时间不能超过100个字符',
  /** The page's thank-you, to every accepted sign-up (new mobile, known lead or member alike). */
  thanks: '门店会尽快联系您安排体验课',
  /** Past the allowances: the page shows the proof-of-work check. */
  needChallenge: '请先完成安全验证再提交报名',
  tooSoon: '已收到您的报名，请60秒后再提交',
  tooMany: '今天提交报名的次数已用完，请明天再试或直接联系门店',
} as const;

export const memberTrialForm = defineCall({
  path: `${MEMBER_API}/query/trial/form`,
  kind: 'read',
  auth: 'public',
  publicStore: true,
  req: z.object({ storeId: zStoreId() }),
  res: z.object({
    storeName: z.string(),
    /** The store's courses (group and private lessons' kinds) to choose from; free text is also accepted. */
    interests: z.array(z.string()),
  }),
  summary: '会员端：体验课报名页（无需登录）：门店名称和可选的课程',
  example: { storeId: 1 },
  errors: fails.notFound('门店'),
});

const optText = (max: number, msg: string) =>
  z
    .preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().max(max, msg).nullish())
    .transform((v) => (v ? v : null));

export const memberTrialSignup = defineCall({
  path: `${MEMBER_API}/insert/trial/signup`,
  kind: 'write',
  auth: 'public',
  req: z.object({
    storeId: zStoreId(),
    name: z.string({ error: TrialMsg.name }).trim().min(1, TrialMsg.name).max(32, TrialMsg.nameLong),
    mobile: zMobile(),
    interests: z.string({ error: TrialMsg.interest }).trim().min(1, TrialMsg.interest).max(200, TrialMsg.interestLong),
    preferredTimes: optText(100, TrialMsg.timesLong),
    /** 同意接收营销短信 (unticked by default): recorded as the lead's consent, 线上报名. */
    marketing: z.boolean().default(false),
    /** A member's referral code (推荐好友 link); an unknown one is ignored. */
    ref: z.string().trim().max(64).nullish(),
    /** The solved challenge (base64 JSON); needed past the address's or the store's free allowance. */
    altcha: z.string().trim().max(2000, MemberMsg.badChallenge).optional(),
  }),
  res: z.null(),
  summary:
    '会员端：体验课报名（无需登录）：成为门店的潜客（来源线上报名；通过会员推荐链接为转介绍并记下推荐人），手机号已有潜客时合并；任何格式正确的手机号都回答相同。同一网络地址每小时5次、每天20次，门店每小时30次以内免验证，超过后须附上安全验证的解答',
  example: { storeId: 1, name: '王小姐', mobile: '13800000001', interests: '瑜伽', preferredTimes: '周末上午' },
  errors: [
    ...fails.notFound('门店'),
    { status: 400, msg: MemberMsg.badChallenge },
    { status: 429, msg: TrialMsg.needChallenge },
    { status: 429, msg: TrialMsg.tooSoon },
    { status: 429, msg: TrialMsg.tooMany },
  ],
});

export const memberReferral = defineCall({
  path: `${MEMBER_API}/query/referral`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: z.object({
    /** The member's referral code: stable, not their id, unguessable. */
    code: z.string(),
    /** The store's 体验课报名 page carrying the code (for the QR code). */
    url: z.string(),
  }),
  summary: '会员端：我的推荐链接（推荐好友报名体验课，好友成为转介绍潜客并记下推荐人）',
  example: {},
});

export const trialSignupCalls = [memberTrialForm, memberTrialSignup, memberReferral] as const;
