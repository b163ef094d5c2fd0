// The members' channel (/member/api): members sign in with their mobile and a one-time code and
// book, cancel, queue and check in themselves (server: features/member-channel). A member session
// is its own cookie; a staff cookie is never accepted here, a member's never on /store/api.
import { z } from 'zod';
import { zDate, zEmpty, zId, zMobile, zPage, zPaged, zText } from '../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { CARD_RULE_MSGS, MEMBER_RULE_MSGS, Msg } from '../messages.ts';
import { PolicyMsg, zBookingPolicy } from './policy.ts';
import { TimetableMsg, zStudentCount } from './timetable.ts';
import { WaitMsg } from './waitlist.ts';

export const MEMBER_API = '/member/api';

/** The members' channel's own messages (the engine's rules answer with their usual ones). */
export const MemberMsg = {
  noProvider: '本店暂未开通短信验证码，请到前台领取登录验证码',
  /** The answer to every well-formed code request, whether or not a text went out (nothing enumerated). */
  codeSent: '验证码已发送',
  tooSoon: '验证码已发送，请60秒后再试',
  tooMany: '今天获取验证码的次数已用完，请明天再试或到前台领取',
  /** One answer for every wrong login: unknown mobile, no live code, wrong code, tries used up. */
  badCode: '验证码不正确或已失效',
  /** Past an address's free allowance of code requests: the page shows the proof-of-work check. */
  needChallenge: '请先完成安全验证再获取验证码',
  badChallenge: '安全验证未通过或已过期，请重新验证',
  /** The store's daily cap of texts is used up. */
  smsCapReached: '本店今天的短信验证码已发完，请到前台领取登录验证码',
  /** Too many wrong logins from one address. */
  loginLocked: '登录尝试过于频繁，请15分钟后再试',
  badToken: '签到码无效，请扫描前台最新的签到二维码',
  noClassToCheckIn: '现在没有可以签到的课程（开课前30分钟到下课前可以签到）',
  alreadyCheckedIn: '已经签到过了',
  checkedIn: '签到成功',
  /** The store asks for a health declaration before class (健康声明) and the member's is missing or too old. */
  healthRequired: '上课前请先填写健康声明：在「我的 → 健康声明」填写后再预约',
} as const;

/** The SMS provider setting's messages. */
export const SmsMsg = {
  sendFailed: '短信发送失败，请稍后再试或到前台领取验证码',
  secretRequired: '请填写密钥',
  provider: '请选择短信服务商',
  keyId: '请填写密钥 ID',
  signName: '请填写短信签名',
  templateId: '请填写短信模板 ID',
  appId: '请填写短信应用 ID（SdkAppId）',
  endpoint: '服务地址须以 http:// 或 https:// 开头',
  dailyCap: '每天最多发送条数须为1到100000之间的整数',
} as const;

/** The store's daily cap of texts: the default, and the largest a manager may set. */
export const SMS_DAILY_CAP_DEFAULT = 500;
export const SMS_DAILY_CAP_MAX = 100_000;

const zShort = (msg: string) => z.string({ error: msg }).trim().max(100, '内容不能超过100个字符');

/**
 * The store's SMS provider for login codes: Tencent Cloud SMS (TC3 signature) or Aliyun SMS (RPC
 * signature). `endpoint` overrides the provider's address (a local stand-in, a proxy).
 */
export const zSmsSetting = z
  .object({
    provider: z.enum(['none', 'tencent', 'aliyun'], { error: SmsMsg.provider }),
    keyId: zShort(SmsMsg.keyId),
    signName: zShort(SmsMsg.signName),
    templateId: zShort(SmsMsg.templateId),
    /** Tencent: SmsSdkAppId. */
    appId: zShort(SmsMsg.appId),
    /** Tencent: ap-guangzhou by default; Aliyun: cn-hangzhou. */
    region: zShort('请填写地域'),
    /**
     * The template of the notice a member gets when promoted from the waitlist (empty: no SMS).
     * Tencent: parameters {1} course, {2} start (MM-DD HH:mm); Aliyun: variables ${course}, ${time}.
     */
    promotionTemplateId: zShort('请填写候补递补通知模板 ID').default(''),
    /** At most this many texts a day (the store's local day), login codes and notices together. */
    dailyCap: z
      .number({ error: SmsMsg.dailyCap })
      .int(SmsMsg.dailyCap)
      .min(1, SmsMsg.dailyCap)
      .max(SMS_DAILY_CAP_MAX, SmsMsg.dailyCap)
      .default(SMS_DAILY_CAP_DEFAULT),
    endpoint: z
      .string()
      .trim()
      .max(200)
      .regex(/^(https?:\/\/\S+)?$/, SmsMsg.endpoint),
  })
  .superRefine((v, ctx) => {
    if (v.provider === 'none') return;
    if (!v.keyId) ctx.addIssue({ code: 'custom', path: ['keyId'], message: SmsMsg.keyId });
    if (!v.signName) ctx.addIssue({ code: 'custom', path: ['signName'], message: SmsMsg.signName });
    if (!v.templateId) ctx.addIssue({ code: 'custom', path: ['templateId'], message: SmsMsg.templateId });
    if (v.provider === 'tencent' && !v.appId) ctx.addIssue({ code: 'custom', path: ['appId'], message: SmsMsg.appId });
  });
export type SmsSetting = z.infer<typeof zSmsSetting>;

export const querySmsSetting = defineCall({
  path: `${STORE_API}/query/sms/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zEmpty,
  res: z.object({
    provider: z.enum(['none', 'tencent', 'aliyun']),
    keyId: z.string(),
    signName: z.string(),
    templateId: z.string(),
    appId: z.string(),
    region: z.string(),
    promotionTemplateId: z.string(),
    endpoint: z.string(),
    dailyCap: z.number(),
    /** Whether a secret is stored (it is never answered). */
    secretSet: z.boolean(),
    /** Texts sent today (store time) against the daily cap, and whether the cap is reached. */
    sentToday: z.number(),
    capReached: z.boolean(),
  }),
  summary: '短信验证码服务的设置（不返回密钥）',
  example: {},
});

export const updateSmsSetting = defineCall({
  path: `${STORE_API}/update/sms/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.intersection(zSmsSetting, z.object({ secret: z.string().trim().max(200, '密钥过长').optional() })),
  res: z.null(),
  summary: '保存短信验证码服务（腾讯云或阿里云）；密钥留空则保留原来的',
  example: {
    provider: 'tencent',
    keyId: 'AKIDexample',
    secret: 'example-secret',
    signName: '悦动健身',
    templateId: '1234567',
    appId: '1400000000',
    region: '',
    endpoint: '',
  },
  errors: [...fails.badRequest(SmsMsg.secretRequired, SmsMsg.keyId, SmsMsg.signName, SmsMsg.templateId, SmsMsg.appId)],
});

/**
 * Login codes: 6 digits, 10 minutes, 5 wrong tries (a texted code: in all; a code the desk gave: per
 * address, so a stranger cannot end it); one text a minute and 10 a day per mobile, whoever's it is.
 * One address may ask for `freePerHour` texts an hour and `freePerDay` a day; past that each request
 * carries a solved proof-of-work challenge (`challengeMaxNumber`: a phone needs about a second).
 * Wrong logins: `loginPerAddress` per address in `loginWindowMs`.
 */
export const LOGIN_CODE = {
  digits: 6,
  ttlMs: 10 * 60_000,
  maxTries: 5,
  gapMs: 60_000,
  perDay: 10,
  freePerHour: 5,
  freePerDay: 20,
  challengeMaxNumber: 100_000,
  challengeTtlMs: 10 * 60_000,
  loginPerAddress: 30,
  loginWindowMs: 15 * 60_000,
} as const;
/** Member sessions end after this long without use. */
export const MEMBER_SESSION_IDLE_MS = 30 * 24 * 3600_000;
/** Self check-in: from this many minutes before a class starts until it ends. */
export const CHECKIN_BEFORE_MINUTES = 30;

export const zStoreId = () => zId('请选择门店');
const zCode = () =>
  z
    .string({ error: '请输入验证码' })
    .trim()
    .regex(/^\d{6}$/, '请输入6位数字验证码');

export const zMemberIdentity = z.object({
  member: z.object({ id: z.number(), name: z.string(), mobile: z.string() }),
  store: z.object({ id: z.number(), name: z.string() }),
});
export type MemberIdentity = z.infer<typeof zMemberIdentity>;

export const memberStore = defineCall({
  path: `${MEMBER_API}/query/store`,
  kind: 'read',
  auth: 'public',
  publicStore: true,
  req: z.object({ storeId: zStoreId() }),
  res: z.object({
    storeId: z.number(),
    storeName: z.string(),
    /** The store's time zone (IANA): the page reads "today" and "now" on the store's clock, never the phone's. */
    timezone: z.string(),
    /** The store's logo as a path on this server, or null. */
    logo: z.string().nullable(),
    deductionMode: z.number(),
    policy: zBookingPolicy,
  }),
  summary: '会员端：门店信息（无需登录）',
  example: { storeId: 1 },
  errors: fails.notFound('门店'),
});

/** An ALTCHA proof-of-work challenge (protocol v1): find `number` with SHA-256(salt + number) = challenge. */
export const zAltchaChallenge = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number(),
  salt: z.string(),
  signature: z.string(),
});

export const memberChallenge = defineCall({
  path: `${MEMBER_API}/auth/challenge`,
  kind: 'write',
  auth: 'public',
  audit: false,
  req: zEmpty,
  res: zAltchaChallenge,
  summary: '会员端：获取安全验证（ALTCHA 工作量证明，手机约1秒算完），超过免验证次数后获取验证码时需附上解答',
  example: {},
});

export const memberSendCode = defineCall({
  path: `${MEMBER_API}/auth/code`,
  kind: 'write',
  auth: 'public',
  audit: false,
  req: z.object({
    storeId: zStoreId(),
    mobile: zMobile(),
    /** The solved challenge as the widget gives it (base64 JSON); needed past the address's free allowance. */
    altcha: z.string().trim().max(2000, MemberMsg.badChallenge).optional(),
  }),
  res: z.null(),
  summary:
    '会员端：用门店的短信服务发送登录验证码；任何格式正确的手机号都回答相同（是否本店会员不透露）。同一网络地址每小时5次、每天20次以内免验证，超过后须附上安全验证的解答',
  example: { storeId: 1, mobile: '13800138000' },
  errors: [
    ...fails.notFound('门店'),
    { status: 400, msg: MemberMsg.badChallenge },
    { status: 409, msg: MemberMsg.noProvider },
    { status: 429, msg: MemberMsg.needChallenge },
    { status: 429, msg: MemberMsg.tooSoon },
    { status: 429, msg: MemberMsg.tooMany },
    { status: 429, msg: MemberMsg.smsCapReached },
  ],
});

export const memberLogin = defineCall({
  path: `${MEMBER_API}/auth/login`,
  kind: 'write',
  auth: 'public',
  audit: false,
  req: z.object({ storeId: zStoreId(), mobile: zMobile(), code: zCode() }),
  res: zMemberIdentity,
  summary: '会员端：手机号和验证码登录，成功后设置会员会话 Cookie',
  example: { storeId: 1, mobile: '13800138000', code: '123456' },
  errors: [
    ...fails.notFound('门店'),
    { status: 401, msg: MemberMsg.badCode },
    { status: 429, msg: MemberMsg.loginLocked },
  ],
});

export const memberMe = defineCall({
  path: `${MEMBER_API}/auth/me`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: zMemberIdentity,
  summary: '会员端：当前登录的会员',
  example: {},
});

export const memberLogout = defineCall({
  path: `${MEMBER_API}/auth/logout`,
  kind: 'write',
  auth: 'public',
  audit: false,
  req: zEmpty,
  res: z.null(),
  summary: '会员端：退出登录',
  example: {},
});

/** What the member holds in a session, if anything. */
export const zMine = z
  .object({
    kind: z.enum(['booked', 'signed', 'pending', 'waiting']),
    /** Reservation, pending or wait id. */
    id: z.number(),
    /** Place in the queue (waiting only). */
    position: z.number().nullable(),
    /** What cancelling it now costs, in the member's words (a booking or pending not yet started); else null. */
    cancelCost: z.string().nullable(),
  })
  .nullable();

/**
 * Where a class stands for members' bookings, seats aside: `open` (inside the booking window),
 * `notOpen` (the window opens at `opensAt`), `closed` (the window closed before the start),
 * `running` (started, not ended) or `ended`.
 */
export const zMemberPhase = z.enum(['open', 'notOpen', 'closed', 'running', 'ended']);
export type MemberPhase = z.infer<typeof zMemberPhase>;

/** What the members' timetable says of a class that is not open for booking (a phase other than open). */
export const PhaseMsg = {
  ended: '已结束',
  running: '进行中',
  closed: '已截止预约',
  /** The sheet's reason for an ended class, and for a running one. */
  endedReason: '课程已结束',
  runningReason: '课程正在进行，不能再预约',
  /** 12月3日 10:00 开放预约, of a store-local `YYYY-MM-DD HH:mm:ss` (String: the web's copy is tried with a number). */
  opensAt: (at: string) =>
    `${Number(String(at).slice(5, 7))}月${Number(String(at).slice(8, 10))}日 ${String(at).slice(11, 16)} 开放预约`,
} as const;

export const zMemberSession = z.object({
  id: z.number(),
  fromTime: z.string(),
  toTime: z.string(),
  courseName: z.string(),
  color: z.string(),
  teacherName: z.string(),
  areaName: z.string().nullable(),
  isOnline: z.boolean(),
  realCount: z.number(),
  reservableCount: z.number(),
  waitCount: z.number(),
  mine: zMine,
  bookable: z.boolean(),
  /** Why not bookable now (ended, running, closed, not open yet, suspended, full), when false. */
  reason: z.string().nullable(),
  phase: zMemberPhase,
  /** When the booking window opens (store-local `YYYY-MM-DD HH:mm:ss`), for phase `notOpen`; else null. */
  opensAt: z.string().nullable(),
  /** Whether a full class can be queued for now. */
  waitlistOpen: z.boolean(),
});
export type MemberSession = z.infer<typeof zMemberSession>;

export const memberTimetable = defineCall({
  path: `${MEMBER_API}/query/timetable`,
  kind: 'read',
  auth: 'member',
  req: z.object({ fromDate: zDate('请选择开始日期'), toDate: zDate('请选择结束日期') }),
  res: z.array(z.object({ date: z.string(), sessions: z.array(zMemberSession) })),
  summary: '会员端：课表（按日期，含我的预约状态）',
  example: { fromDate: '2026-11-23', toDate: '2026-11-29' },
  errors: fails.badRequest('结束日期不能早于开始日期', '日期范围不能超过14天'),
});

/** Public timetable of the landing page: the same sessions without the member's state. */
export const memberPublicTimetable = defineCall({
  path: `${MEMBER_API}/query/public/timetable`,
  kind: 'read',
  auth: 'public',
  publicStore: true,
  req: z.object({ storeId: zStoreId(), fromDate: zDate('请选择开始日期'), toDate: zDate('请选择结束日期') }),
  res: z.array(z.object({ date: z.string(), sessions: z.array(zMemberSession) })),
  summary: '会员端：门店课表（无需登录，不含个人状态）',
  example: { storeId: 1, fromDate: '2026-11-23', toDate: '2026-11-29' },
  errors: [...fails.notFound('门店'), ...fails.badRequest('结束日期不能早于开始日期', '日期范围不能超过14天')],
});

export const zMyCard = z.object({
  id: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  /** Count cards: classes left; money cards: fen left. */
  balance: z.number(),
  totalCount: z.number(),
  expireTime: z.string().nullable(),
  frozen: z.boolean(),
  expired: z.boolean(),
  /** A card's life (issue 29): when it starts (null: 首次上课开卡 not started: 未开卡), the latest day it starts. */
  activateTime: z.string().nullable(),
  activateBy: z.string().nullable(),
  /** Its approved leaves (请假中 while today is inside one), and whether its product allows leave. */
  leaves: z.array(z.object({ fromDate: z.string(), toDate: z.string() })),
  leaveAllowed: z.boolean(),
  /** 多人共享: the holder's name of a card shared with the member (they book on it, nothing more); null for their own. */
  sharedBy: z.string().nullable(),
});

export const memberCardsForSession = defineCall({
  path: `${MEMBER_API}/query/cards/for/session`,
  kind: 'read',
  auth: 'member',
  req: z.object({ tid: zId() }),
  res: z.array(
    zMyCard.extend({
      usable: z.boolean(),
      reason: z.string().nullable(),
      /** What one student costs with this card (count or fen). */
      perCount: z.number(),
    }),
  ),
  summary: '会员端：我的会员卡能否用于这节课（不能用时说明原因）',
  example: { tid: 1 },
  errors: fails.notFound('课程'),
});

/** What the store's policy refuses a member's own booking or wait with (staff are not held to it). */
const MEMBER_POLICY_MSGS = [
  PolicyMsg.suspended('{日期}'),
  PolicyMsg.notOpenYet('{天数}'),
  PolicyMsg.closed('{分钟}'),
  PolicyMsg.tooManyOpen('{节数}'),
];

/** What refuses a member's booking, and their joining a queue (the same rule set): policy, card, member. */
const MEMBER_BOOKING_REFUSALS = [
  ...MEMBER_POLICY_MSGS,
  ...CARD_RULE_MSGS,
  Msg.cardCommitted,
  ...MEMBER_RULE_MSGS,
  MemberMsg.healthRequired,
];

export const memberBook = defineCall({
  path: `${MEMBER_API}/add/reservation`,
  kind: 'write',
  auth: 'member',
  req: z.object({
    tid: zId(),
    mcId: zId('请选择会员卡'),
    studentCount: zStudentCount().default(1),
    remark: zText(200).nullable().optional(),
  }),
  res: z.object({ kind: z.enum(['booked', 'pending']), id: z.number() }),
  summary: '会员端：预约（预约即扣费时扣除；签到后扣费时占位，签到时扣）',
  example: { tid: 1, mcId: 1, studentCount: 1 },
  errors: [
    ...fails.badRequest(Msg.oneStudentInSignInMode),
    ...fails.notFound('课程', '会员卡'),
    ...fails.conflict(...MEMBER_BOOKING_REFUSALS, Msg.sessionFull),
  ],
});

export const memberCancelBooking = defineCall({
  path: `${MEMBER_API}/cancel/reservation`,
  kind: 'write',
  auth: 'member',
  req: z.object({ id: zId() }),
  res: z.null(),
  summary: '会员端：取消我的预约（按门店的取消规则）',
  example: { id: 1 },
  errors: [
    ...fails.notFound('预约'),
    ...fails.conflict(Msg.alreadyCancelled, TimetableMsg.startedNoCancel, PolicyMsg.lateCancelRefused('{分钟}')),
  ],
});

export const memberCancelPending = defineCall({
  path: `${MEMBER_API}/cancel/pending`,
  kind: 'write',
  auth: 'member',
  req: z.object({ pendingId: zId() }),
  res: z.null(),
  summary: '会员端：取消我的待签到预约（按门店的取消规则：超过免费取消时间不能取消，或取消并按一次上课扣费）',
  example: { pendingId: 1 },
  errors: [
    ...fails.notFound('预约'),
    ...fails.conflict(Msg.pendingNotWaiting, TimetableMsg.startedNoCancel, PolicyMsg.lateCancelRefused('{分钟}')),
  ],
});

export const memberJoinWaitlist = defineCall({
  path: `${MEMBER_API}/add/waitlist`,
  kind: 'write',
  auth: 'member',
  req: z.object({ tid: zId(), mcId: zId('请选择会员卡'), studentCount: zStudentCount().default(1) }),
  res: z.object({ id: z.number(), position: z.number() }),
  summary: '会员端：课程已满时排队候补（在开放预约的时间内）',
  example: { tid: 1, mcId: 1, studentCount: 1 },
  errors: [
    ...fails.badRequest(Msg.oneStudentInSignInMode),
    ...fails.notFound('课程', '会员卡'),
    ...fails.conflict(
      ...MEMBER_BOOKING_REFUSALS,
      WaitMsg.off,
      WaitMsg.notFull,
      WaitMsg.already,
      WaitMsg.closed,
      WaitMsg.started,
    ),
  ],
});

export const memberLeaveWaitlist = defineCall({
  path: `${MEMBER_API}/cancel/waitlist`,
  kind: 'write',
  auth: 'member',
  req: z.object({ id: zId() }),
  res: z.null(),
  summary: '会员端：退出候补',
  example: { id: 1 },
  errors: [...fails.notFound('候补'), ...fails.conflict(WaitMsg.notWaiting)],
});

export const zMyBooking = z.object({
  kind: z.enum(['booked', 'signed', 'pending', 'waiting', 'cancelled', 'noShow', 'ended']),
  /** Reservation, pending or wait id (by kind). */
  id: z.number(),
  session: z.object({
    id: z.number(),
    fromTime: z.string(),
    toTime: z.string(),
    courseName: z.string(),
    teacherName: z.string(),
    areaName: z.string().nullable(),
    isOnline: z.boolean(),
  }),
  card: z.object({ id: z.number(), cardName: z.string(), bigType: z.number() }).nullable(),
  studentCount: z.number(),
  /** What it took from the card and keeps (count or fen): 0 once refunded. */
  amount: z.number(),
  /** In words: 已预约, 已签到, 待签到, 候补第2位, 已取消, 迟到取消，已扣除 / 已退回, 爽约, 候补未成功. */
  state: z.string(),
  attended: z.boolean(),
  /** What cancelling it now costs, in the member's words (a live booking or pending not yet started); else null. */
  cancelCost: z.string().nullable(),
  /** The online room's join link, for a booked online class. */
  joinUrl: z.string().nullable(),
  /** A lesson (私教/小班, cancelled through memberCancelLesson): pending 待确认 until its teacher confirms, or confirmed; null for a group class. */
  lesson: z.enum(['pending', 'confirmed']).nullable().default(null),
});
export type MyBooking = z.infer<typeof zMyBooking>;

export const memberMyBookings = defineCall({
  path: `${MEMBER_API}/query/my/reservations`,
  kind: 'read',
  auth: 'member',
  req: z.object({ state: z.enum(['upcoming', 'past'], { error: '请选择查询类型' }), page: zPage() }),
  res: zPaged(zMyBooking),
  summary: '会员端：我的预约（待上课或已结束，每页10条）',
  example: { state: 'upcoming', page: 1 },
});

export const memberMyCards = defineCall({
  path: `${MEMBER_API}/query/my/cards`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: z.array(
    zMyCard.extend({
      /** The latest deductions, refunds and top-ups of the card; amount is the balance's change (− used, + given back). */
      recent: z.array(z.object({ time: z.string(), kind: z.string(), amount: z.number(), note: z.string() })),
      /** The card's contract (电子合同): 待签约, 已签约, or none (an imported card, a card shared with me). */
      contract: z.enum(['pending', 'signed']).nullable().default(null),
    }),
  ),
  summary: '会员端：我的会员卡（余额、有效期、冻结、最近的扣费和退回、合同是否已签）',
  example: {},
});

export const memberSignIn = defineCall({
  path: `${MEMBER_API}/sign/in`,
  kind: 'write',
  auth: 'member',
  req: z.object({ tid: zId().optional(), token: z.string({ error: '签到码无效' }).trim().min(1).max(100) }),
  res: z.object({ tid: z.number(), courseName: z.string(), fromTime: z.string(), message: z.string() }),
  summary:
    '会员端：扫描前台的签到二维码自助签到（开课前30分钟至下课）；前台屏幕方式的码当前和上一分钟有效，打印海报方式的码当天有效',
  example: { token: 'abc123' },
  errors: [
    { status: 400, msg: MemberMsg.badToken },
    { status: 409, msg: MemberMsg.noClassToCheckIn },
    { status: 409, msg: MemberMsg.alreadyCheckedIn },
    { status: 409, msg: Msg.cardHelp },
  ],
});

// ---- the desk's calls for the members' channel

export const createMemberLoginCode = defineCall({
  path: `${STORE_API}/create/member/login/code`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ memberId: zId('请选择会员') }),
  res: z.object({ code: z.string(), expireTime: z.string() }),
  idFields: ['memberId'],
  summary: '前台给会员一个登录验证码（没有短信服务时使用）',
  example: { memberId: 1 },
  errors: fails.notFound('会员'),
});

export const endMemberSessions = defineCall({
  path: `${STORE_API}/delete/member/sessions`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ memberId: zId('请选择会员') }),
  res: z.object({ ended: z.number() }),
  idFields: ['memberId'],
  summary: '退出该会员在手机上的登录',
  example: { memberId: 1 },
  errors: fails.notFound('会员'),
});

/**
 * 签到方式: `screen`, a screen at the desk shows a code that changes every minute (the current and the
 * previous minute's codes are accepted); `poster`, a printed code that changes every day.
 */
export const CHECKIN_MODES = ['screen', 'poster'] as const;
export type CheckinMode = (typeof CHECKIN_MODES)[number];
export const CHECKIN_MODE_LABEL: Record<CheckinMode, string> = {
  screen: '前台屏幕（签到码每分钟更换）',
  poster: '打印海报（签到码每天更换）',
};

export const queryCheckinCode = defineCall({
  path: `${STORE_API}/query/checkin/code`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ reset: z.boolean().optional() }),
  res: z.object({
    mode: z.enum(CHECKIN_MODES),
    token: z.string(),
    url: z.string(),
    /** When this code stops being shown (screen: the next minute; poster: the store's next midnight). */
    expireTime: z.string(),
  }),
  summary:
    '门店当前的自助签到码：前台屏幕方式每分钟更换（当前和上一分钟的有效），打印海报方式每天更换；reset 为 true 时立即更换密钥',
  example: {},
});

export const updateCheckinMode = defineCall({
  path: `${STORE_API}/update/checkin/mode`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ checkinMode: z.enum(CHECKIN_MODES, { error: '请选择签到方式' }) }),
  res: z.null(),
  summary: '设置签到方式：前台屏幕（每分钟更换）或打印海报（每天更换）',
  example: { checkinMode: 'screen' },
});

/** The members' page of the store: its public base address (as members reach this server) and link. */
export const zMemberPage = z.object({
  /** Set in store settings, e.g. https://yoga.example.com; empty: the address the desk uses. */
  publicBaseUrl: z.string(),
  /** The store's members' page: the QR code on the weekly picture and in store settings. */
  url: z.string(),
  /** The store's public 体验课报名 page (issue 44): its link and QR code for strangers. */
  trialUrl: z.string(),
});

export const queryMemberPage = defineCall({
  path: `${STORE_API}/query/member/page`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zEmpty,
  res: zMemberPage,
  summary: '会员约课页面的地址（二维码用）',
  example: {},
});

export const updateMemberPage = defineCall({
  path: `${STORE_API}/update/member/page`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    publicBaseUrl: z
      .string({ error: '请输入会员访问的网址' })
      .trim()
      .max(200, '网址不能超过200个字符')
      .regex(/^(https?:\/\/[^\s/?#]+\/?)?$/, '请输入以 http:// 或 https:// 开头的网址，例如 https://yoga.example.com'),
  }),
  res: zMemberPage,
  summary: '设置会员访问本系统的网址（空则用前台当前的网址）',
  example: { publicBaseUrl: 'https://yoga.example.com' },
});

export const memberChannelCalls = [
  memberStore,
  memberChallenge,
  memberSendCode,
  memberLogin,
  memberMe,
  memberLogout,
  memberTimetable,
  memberPublicTimetable,
  memberCardsForSession,
  memberBook,
  memberCancelBooking,
  memberCancelPending,
  memberJoinWaitlist,
  memberLeaveWaitlist,
  memberMyBookings,
  memberMyCards,
  memberSignIn,
  createMemberLoginCode,
  endMemberSessions,
  queryCheckinCode,
  updateCheckinMode,
  queryMemberPage,
  updateMemberPage,
  querySmsSetting,
  updateSmsSetting,
] as const;
