// Reminders to members (issue 29 items 7-9): class reminders, queue promotions, classes cancelled or
// moved, cards expiring or low, leave results; by the store's WeChat service account (服务号 template
// messages) first, SMS as the fallback; the send log (server: features/reminders).
import { z } from 'zod';
import { zDate, zId, zPage, zPaged, zTime } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { Msg } from '../messages.ts';
import { checkRange } from './batch.ts';
import { MEMBER_API, zStoreId } from './member-channel.ts';

export const NOTIFY_KINDS = [
  'class_reminder',
  'promoted',
  'class_cancelled',
  'card_expiring',
  'balance_low',
  'leave_result',
  'lesson_booked',
  'lesson_confirmed',
  'lesson_request',
  'trial_reminder',
  'lesson_joined',
] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

/**
 * The kinds sent to a teacher, not a member (by SMS to the teacher's mobile): a lesson waiting for
 * their confirmation (待确认), a member joining their confirmed 小班. Members' switches leave them out.
 */
export const TEACHER_NOTIFY_KINDS: readonly NotifyKind[] = ['lesson_request', 'lesson_joined'];

/**
 * The kinds sent to a lead (潜客), not a member (by SMS to the lead's mobile): a trial class's
 * reminder (体验课提醒). A service message, not marketing: no marketing consent asked. Members'
 * switches leave them out.
 */
export const LEAD_NOTIFY_KINDS: readonly NotifyKind[] = ['trial_reminder'];

/** A trial class (体验课) is reminded this many hours before it starts (the day before), besides the store's class reminder hours. */
export const TRIAL_REMINDER_HOURS = 24;

/** A lesson (私教/小班) is reminded this many hours before it starts (the day before), confirmed ones only. */
export const LESSON_REMINDER_HOURS = 24;

export const NOTIFY_KIND_LABEL: Record<NotifyKind, string> = {
  class_reminder: '上课提醒',
  promoted: '候补成功',
  class_cancelled: '课程取消或调整',
  card_expiring: '会员卡即将到期',
  balance_low: '余额不足',
  leave_result: '请假审核结果',
  lesson_booked: '私教预约成功',
  lesson_confirmed: '私教预约已确认',
  lesson_request: '私教待确认（发给老师）',
  trial_reminder: '体验课提醒（发给潜客）',
  lesson_joined: '小班有新学员（发给老师）',
};

/**
 * The variables each kind fills in (a template's fields and parameters name them as `{course}`): the
 * member's name and the store's name in every kind.
 */
export const NOTIFY_VARS: Record<NotifyKind, readonly string[]> = {
  class_reminder: ['name', 'store', 'course', 'time', 'teacher'],
  promoted: ['name', 'store', 'course', 'time'],
  class_cancelled: ['name', 'store', 'course', 'time', 'change'],
  card_expiring: ['name', 'store', 'card', 'expire'],
  balance_low: ['name', 'store', 'card', 'balance'],
  leave_result: ['name', 'store', 'card', 'result', 'dates'],
  lesson_booked: ['name', 'store', 'course', 'time', 'teacher', 'state'],
  lesson_confirmed: ['name', 'store', 'course', 'time', 'teacher'],
  /** `name` is the teacher's; `member` who booked. */
  lesson_request: ['name', 'store', 'course', 'time', 'member', 'deadline'],
  /** `name` is the lead's. */
  trial_reminder: ['name', 'store', 'course', 'time', 'teacher'],
  /** `name` is the teacher's; `member` who joined; `count` the members now booked. */
  lesson_joined: ['name', 'store', 'course', 'time', 'member', 'count'],
};

export const NOTIFY_VAR_LABEL: Record<string, string> = {
  name: '会员姓名',
  store: '门店名称',
  course: '课程',
  time: '上课时间',
  teacher: '老师',
  change: '变更内容',
  card: '会员卡',
  expire: '到期日',
  balance: '剩余',
  result: '审核结果',
  dates: '请假日期',
  state: '预约状态',
  member: '预约会员',
  deadline: '确认截止',
  count: '已约人数',
};

/** Sample values (the settings' preview and 发送测试). */
export const NOTIFY_SAMPLE: Record<string, string> = {
  name: '张三',
  store: '悦动健身',
  course: '流瑜伽',
  time: '12-01 19:30',
  teacher: '李老师',
  change: '已取消',
  card: '次卡20次',
  expire: '2026-12-08',
  balance: '1次',
  result: '已批准',
  dates: '12-01至12-07',
  state: '待老师确认',
  member: '王五',
  deadline: '11-30 20:00',
  count: '3',
};

export const NOTIFY_STATUS = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;
export type NotifyStatus = (typeof NOTIFY_STATUS)[number];
export const NOTIFY_STATUS_LABEL: Record<NotifyStatus, string> = {
  queued: '待发送',
  sending: '发送中',
  sent: '已发送',
  failed: '失败',
  skipped: '已跳过',
};
export const NOTIFY_CHANNEL_LABEL = { wechat: '微信', sms: '短信' } as const;

/** The send log covers at most this many days. */
export const NOTIFY_LOG_MAX_DAYS = 92;

/** What 消息记录 says of a message the quiet hours held back (its `reason`). */
export const NotifyQuietReason = {
  /** Waiting for the end of the quiet hours (`HH:mm`). */
  waiting: (end: string) => `免打扰，${end} 发送`,
  /** Dropped: the class it is about starts before the quiet hours end (`HH:mm`), or as they end. */
  classStarted: (end: string) => `已跳过（免打扰至 ${end}，届时课程已开始）`,
} as const;

export const NotifyMsg = {
  kind: '提醒类型不正确',
  status: '状态只能是 queued、sending、sent、failed 或 skipped',
  hours: '上课提醒应为课前 1 到 48 小时',
  quiet: '免打扰时间格式应为 HH:mm',
  templateId: '模板 ID 不能超过64个字符',
  field: '模板字段名只能是字母、数字和下划线（如 thing1、time2）',
  fieldValue: '模板字段内容不能超过100个字符',
  unknownVar: (v: string) => `模板中的 {${v}} 不是该类提醒的变量`,
  duplicateKind: '同一类提醒只能设置一个模板',
  secretRequired: '请填写公众号 AppSecret',
  appIdRequired: '请填写公众号 AppID',
  listRange: `消息记录的日期范围最多${NOTIFY_LOG_MAX_DAYS}天`,
  noMobile: '您的账号没有手机号，请在员工资料中填写后再测试短信',
  noSms: '门店未设置短信服务（门店设置 → 短信）',
  noSmsTemplate: '该类提醒未设置短信模板',
  noWechat: '门店未设置公众号（AppID 和 AppSecret）',
  noWechatTemplate: '该类提醒未设置微信模板',
  openidRequired: '请填写接收测试消息的 openid',
  sendFailed: (reason: string) => `发送失败：${reason}`,
  codeRequired: '缺少微信授权 code',
  /** The state a code came back with is not one this session was given (another's, used, expired). */
  stateExpired: '微信授权已失效，请重新授权',
  stateRequired: '缺少微信授权 state',
  bindFailed: (reason: string) => `微信授权失败：${reason}`,
  authorizeUrl: '网页授权地址应以 http:// 或 https:// 开头',
} as const;

/** WeChat's web authorisation page (the member's browser goes there): its address by default. */
export const WECHAT_AUTHORIZE_BASE = 'https://open.weixin.qq.com';

const zKind = z.enum(NOTIFY_KINDS, { error: NotifyMsg.kind });
const zText = (max: number, error: string) =>
  z
    .string()
    .max(max, error)
    .transform((v) => v.trim());

/** One WeChat template: its id (from the service account's template library) and the data fields. */
export const zWechatTemplate = z.object({
  kind: zKind,
  templateId: zText(64, NotifyMsg.templateId),
  /** The template's data keys (thing1, time2...) and their text with the kind's {variables}. */
  fields: z
    .array(
      z.object({
        key: z.string().regex(/^[A-Za-z0-9_]{1,32}$/, NotifyMsg.field),
        value: zText(100, NotifyMsg.fieldValue),
      }),
    )
    .max(10),
});
/** One SMS template: its id at the provider and the kind's variables it takes, in order (Tencent {1}{2}, Aliyun by name). */
export const zSmsTemplate = z.object({
  kind: zKind,
  templateId: zText(64, NotifyMsg.templateId),
  params: z.array(z.string().max(20)).max(10),
});
export type WechatTemplate = z.infer<typeof zWechatTemplate>;
export type SmsTemplate = z.infer<typeof zSmsTemplate>;

/** The {variables} in a text. */
export const varsIn = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** Fills a template text's {variables} (unknown ones left empty). */
export const fillVars = (text: string, vars: Record<string, string>): string =>
  String(text).replace(/\{(\w+)\}/g, (_m, v: string) => (vars && typeof vars === 'object' ? (vars[v] ?? '') : ''));

function checkTemplates(
  ctx: z.RefinementCtx,
  list: { kind: NotifyKind; used: string[] }[],
  path: 'wechat' | 'sms',
): void {
  const seen = new Set<string>();
  for (const t of list) {
    if (seen.has(t.kind)) ctx.addIssue({ code: 'custom', message: NotifyMsg.duplicateKind, path: [path] });
    seen.add(t.kind);
    const bad = t.used.find((v) => !NOTIFY_VARS[t.kind].includes(v));
    if (bad) ctx.addIssue({ code: 'custom', message: NotifyMsg.unknownVar(bad), path: [path] });
  }
}

export const zNotifySetting = z.object({
  classReminderHours: z.number().int(),
  quietFrom: z.string(),
  quietTo: z.string(),
  wechat: z.object({
    appId: z.string(),
    /** 已设置 or not (never the secret). */
    appSecretSet: z.boolean(),
    baseUrl: z.string(),
    /** Where the members' page sends a member for WeChat's web authorisation ('' : open.weixin.qq.com). */
    authorizeBaseUrl: z.string(),
    templates: z.array(zWechatTemplate),
  }),
  sms: z.object({
    /** The store's SMS provider (门店设置 → 短信) and its daily cap. */
    provider: z.string(),
    dailyCap: z.number().int(),
    templates: z.array(zSmsTemplate),
  }),
});
export type NotifySetting = z.infer<typeof zNotifySetting>;

export const queryNotifySetting = defineCall({
  path: `${STORE_API}/query/notify/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({}).loose(),
  res: zNotifySetting,
  summary: '消息提醒设置（公众号 AppSecret 只回答是否已设置）',
  example: {},
});

export const updateNotifySetting = defineCall({
  path: `${STORE_API}/update/notify/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z
    .object({
      classReminderHours: z
        .number({ error: NotifyMsg.hours })
        .int(NotifyMsg.hours)
        .min(1, NotifyMsg.hours)
        .max(48, NotifyMsg.hours),
      quietFrom: zTime(NotifyMsg.quiet),
      quietTo: zTime(NotifyMsg.quiet),
      wechat: z.object({
        appId: zText(32, '公众号 AppID 不能超过32个字符'),
        /** Omitted or empty: the stored one is kept. */
        appSecret: zText(64, '公众号 AppSecret 不能超过64个字符').optional(),
        baseUrl: zText(300, '接口地址不能超过300个字符').default(''),
        /** WeChat's web authorisation page ('' : https://open.weixin.qq.com; a stand-in in tests). */
        authorizeBaseUrl: zText(300, '网页授权地址不能超过300个字符')
          .refine((v) => v === '' || /^https?:\/\/[^\s/]+/.test(v), NotifyMsg.authorizeUrl)
          .default(''),
        templates: z.array(zWechatTemplate).max(NOTIFY_KINDS.length),
      }),
      sms: z.object({ templates: z.array(zSmsTemplate).max(NOTIFY_KINDS.length) }),
    })
    .superRefine((v, ctx) => {
      checkTemplates(
        ctx,
        v.wechat.templates.map((t) => ({ kind: t.kind, used: t.fields.flatMap((f) => varsIn(f.value)) })),
        'wechat',
      );
      checkTemplates(
        ctx,
        v.sms.templates.map((t) => ({ kind: t.kind, used: t.params })),
        'sms',
      );
    }),
  res: z.null(),
  summary: '保存消息提醒设置（上课提醒时间、免打扰时段、公众号和各类提醒的模板）',
  example: {
    classReminderHours: 2,
    quietFrom: '22:00',
    quietTo: '08:00',
    wechat: {
      appId: 'wx1234567890abcdef',
      appSecret: '',
      baseUrl: '',
      authorizeBaseUrl: '',
      templates: [
        {
          kind: 'class_reminder',
          templateId: 'TPL_CLASS',
          fields: [
            { key: 'thing1', value: '{course}' },
            { key: 'time2', value: '{time}' },
          ],
        },
      ],
    },
    sms: { templates: [{ kind: 'class_reminder', templateId: '1234567', params: ['course', 'time'] }] },
  },
  errors: [
    ...fails.badRequest(
      NotifyMsg.duplicateKind,
      NotifyMsg.unknownVar('{…}'),
      NotifyMsg.secretRequired,
      NotifyMsg.authorizeUrl,
    ),
    { status: 400, msg: Msg.outboundUrl },
    { status: 400, msg: Msg.outboundCredentials },
    { status: 400, msg: Msg.outboundBlocked },
  ],
});

export const sendNotifyTest = defineCall({
  path: `${STORE_API}/send/notify/test`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    kind: zKind,
    channel: z.enum(['sms', 'wechat'], { error: '发送方式只能是 sms 或 wechat' }),
    /** WeChat: the openid to send to (the manager's own, under the service account). */
    openid: zText(64, 'openid 不能超过64个字符').optional(),
  }),
  res: z.object({ to: z.string() }),
  summary: '发送测试：用示例内容发一条该类提醒到店长本人的手机（短信）或指定 openid（微信）',
  example: { kind: 'class_reminder', channel: 'sms' },
  errors: [
    ...fails.badRequest(NotifyMsg.openidRequired),
    ...fails.conflict(
      NotifyMsg.noMobile,
      NotifyMsg.noSms,
      NotifyMsg.noSmsTemplate,
      NotifyMsg.noWechat,
      NotifyMsg.noWechatTemplate,
    ),
    { status: 503, msg: NotifyMsg.sendFailed('{…}') },
  ],
});

const zLogRow = z.object({
  id: z.number(),
  memberId: z.number().nullable(),
  memberName: z.string(),
  kind: zKind,
  kindLabel: z.string(),
  channel: z.enum(['wechat', 'sms']).nullable(),
  status: z.enum(NOTIFY_STATUS),
  /** 失败原因, 免打扰，08:00 发送, 已跳过（免打扰至 08:00，届时课程已开始）, 已跳过（已关闭）, 未设置模板...; '' when sent. */
  reason: z.string(),
  /** The message's text (its variables filled). */
  text: z.string(),
  dueAt: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** Sends tried (a failure for a passing reason is tried again, at most 3 in all); `reason` is the last failure's. */
  tries: z.number(),
});

export const queryNotifyLog = defineCall({
  path: `${STORE_API}/query/notify/log`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z
    .object({
      fromDate: zDate(Msg.chooseDates),
      toDate: zDate(Msg.chooseDates),
      memberId: zId().optional(),
      kind: zKind.optional(),
      status: z.enum(NOTIFY_STATUS, { error: NotifyMsg.status }).optional(),
      page: zPage(),
    })
    .superRefine((v, ctx) => checkRange(ctx, v.fromDate, v.toDate, 'toDate', NOTIFY_LOG_MAX_DAYS, NotifyMsg.listRange)),
  res: zPaged(zLogRow).extend({
    /** Per day of the range (by when due): messages sent by SMS and WeChat, failed, skipped. */
    days: z.array(
      z.object({ date: z.string(), sms: z.number(), wechat: z.number(), failed: z.number(), skipped: z.number() }),
    ),
    /** The store's SMS daily cap (门店设置 → 短信). */
    dailyCap: z.number(),
  }),
  idFields: ['memberId'],
  summary: '消息记录（按日期、会员、类型、状态筛选，新的在前，每页20条；每天发送条数对照短信每日上限）',
  example: { fromDate: '2026-11-01', toDate: '2026-11-30', page: 1 },
  errors: [...fails.badRequest(Msg.rangeOrder, NotifyMsg.listRange), ...fails.notFound('会员')],
});

// ---- members' own switches and WeChat binding

export const memberQueryNotifyPref = defineCall({
  path: `${MEMBER_API}/query/notify/pref`,
  kind: 'read',
  auth: 'member',
  req: z.object({}).loose(),
  res: z.object({
    kinds: z.array(z.object({ kind: zKind, label: z.string(), on: z.boolean() })),
    /** The store's service account AppID (for WeChat's web authorisation), null when it has none. */
    wechatAppId: z.string().nullable(),
    wechatBound: z.boolean(),
  }),
  summary: '会员端：我的消息提醒开关',
  example: {},
});

export const memberUpdateNotifyPref = defineCall({
  path: `${MEMBER_API}/update/notify/pref`,
  kind: 'write',
  auth: 'member',
  req: z.object({ kind: zKind, on: z.boolean({ error: '请选择开或关' }) }),
  res: z.null(),
  summary: '会员端：打开或关闭一类消息提醒',
  example: { kind: 'class_reminder', on: false },
});

/** How long a state of WeChat's web authorisation stays valid. */
export const WECHAT_STATE_TTL_MS = 10 * 60_000;
/** A state of WeChat's web authorisation, as it comes back (WeChat allows 128 bytes). */
export const zWechatState = z
  .string({ error: NotifyMsg.stateRequired })
  .min(1, NotifyMsg.stateRequired)
  .max(128, NotifyMsg.stateExpired);

export const memberBindWechat = defineCall({
  path: `${MEMBER_API}/bind/wechat/openid`,
  kind: 'write',
  auth: 'member',
  req: z.object({
    code: z.string().min(1, NotifyMsg.codeRequired).max(200, NotifyMsg.codeRequired),
    /** The state WeChat's authorisation sent back with the code: one memberWechatState gave this session. */
    state: zWechatState,
  }),
  res: z.object({ bound: z.boolean() }),
  summary: '会员端：在微信内打开时，用网页授权（snsapi_base）的 code 绑定本人的 openid，以接收公众号提醒',
  example: { code: '061abcDEF', state: 'q3Zb8vXw1yK2mN4pR6tU9w' },
  errors: [
    ...fails.badRequest(NotifyMsg.stateExpired),
    ...fails.conflict(NotifyMsg.noWechat),
    { status: 503, msg: NotifyMsg.bindFailed('{…}') },
  ],
});

/**
 * A state for WeChat's web authorisation, given to the member's session: random, used once (by the
 * binding or a payment with the code), valid for WECHAT_STATE_TTL_MS.
 */
export const memberWechatState = defineCall({
  path: `${MEMBER_API}/insert/wechat/state`,
  kind: 'write',
  auth: 'member',
  /** Bookkeeping of the authorisation (like a session), not a change to audit. */
  audit: false,
  req: z.object({}),
  res: z.object({ state: z.string() }),
  summary: '会员端：前往微信网页授权前取一次性的 state（与本次登录绑定，10 分钟内有效，只能使用一次）',
  example: {},
});

export const memberWechatAuth = defineCall({
  path: `${MEMBER_API}/query/wechat/auth`,
  kind: 'read',
  auth: 'public',
  publicStore: true,
  req: z.object({ storeId: zStoreId() }),
  res: z.object({
    /** The store's service account AppID, null when it has none (then nothing to authorise). */
    appId: z.string().nullable(),
    /** WeChat's web authorisation page the members' page sends the member to (snsapi_base). */
    authorizeUrl: z.string(),
  }),
  summary: '会员端：门店公众号的网页授权（无需登录）：在微信内打开约课页面时跳转授权（snsapi_base），登录后绑定 openid',
  example: { storeId: 1 },
  errors: fails.notFound('门店'),
});

export const reminderCalls = [
  queryNotifySetting,
  updateNotifySetting,
  sendNotifyTest,
  queryNotifyLog,
  memberQueryNotifyPref,
  memberUpdateNotifyPref,
  memberBindWechat,
  memberWechatState,
  memberWechatAuth,
];

/** Each kind's message as text (the SMS and WeChat templates fill the same variables): the log and the preview show it. */
export const NOTIFY_TEXT: Record<NotifyKind, string> = {
  class_reminder: '{name}您好，您预约的{course}将于{time}开始（{teacher}），请准时到场。',
  promoted: '{name}您好，您已候补成功：{course}，{time}开始。',
  class_cancelled: '{name}您好，{course}（{time}）{change}。',
  card_expiring: '{name}您好，您的{card}将于{expire}到期。',
  balance_low: '{name}您好，您的{card}剩余{balance}，请及时续卡。',
  leave_result: '{name}您好，您的{card}请假（{dates}）{result}。',
  lesson_booked: '{name}您好，您已预约{course}（{teacher}），{time}开始，{state}。',
  lesson_confirmed: '{name}您好，{teacher}已确认您预约的{course}，{time}开始，请准时到场。',
  lesson_request: '{name}老师您好，{member}预约了{course}（{time}），请在{deadline}前确认。',
  trial_reminder: '{name}您好，您预约的{store}体验课{course}将于{time}开始（{teacher}），请准时到店。',
  lesson_joined: '{name}老师您好，{member}加入了您的{course}（{time}），现已约{count}人。',
};
