// Members' own data (issue 45, item 5; the personal information protection law, PIPL): a member sees
// and downloads everything the store holds about them, asks to delete their account (the manager
// decides; the member's personal fields are erased while the records a business must keep stay
// without the person's identity), and gives or withdraws their consents (the privacy notice at first
// sign-in, marketing messages, health information), each recorded with time, version and how.
// Server: features/privacy.
import { z } from 'zod';
import { zEmpty, zId, zText } from '../common.ts';
import { defineCall, fails, FullMobiles, Roles, STORE_API } from '../define.ts';
import { MEMBER_API } from './member-channel.ts';

/** The privacy notice's version: a member who agreed to an earlier one is asked again. */
export const PRIVACY_NOTICE_VERSION = '2026-12-01';

/** What the members' page shows before a member first uses it (个人信息保护说明). */
export const PRIVACY_NOTICE = [
  '门店为提供约课、会员卡和消息提醒服务，会保存你的姓名、手机号、会员卡、预约和付款记录。',
  '这些信息只用于为你服务，不会出售或提供给与服务无关的第三方。',
  '你可以在「我的 → 个人信息」查看和下载门店保存的全部信息，也可以申请删除账号。',
  '营销消息和健康信息需要你另外同意，随时可以关闭。',
] as const;

export const CONSENT_KINDS = ['privacy', 'marketing', 'health'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];
export const CONSENT_LABEL: Record<ConsentKind, string> = {
  privacy: '个人信息保护说明',
  marketing: '接收营销消息（活动、优惠）',
  health: '门店保存我的健康信息',
};
/** How a consent was given or withdrawn. */
export const CONSENT_WAYS = ['phone', 'desk', 'sms_reply', 'link'] as const;
export const CONSENT_WAY_LABEL: Record<(typeof CONSENT_WAYS)[number], string> = {
  phone: '会员本人在手机上',
  desk: '前台代为登记',
  sms_reply: '短信回复T',
  link: '点击退订链接',
};

/** Days within which the store answers a request to delete an account (the law's 15 working days, at most). */
export const ERASURE_DUE_DAYS = 15;

export const ERASURE_STATUSES = ['pending', 'done', 'rejected', 'withdrawn'] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];
export const ERASURE_STATUS_LABEL: Record<ErasureStatus, string> = {
  pending: '待处理',
  done: '已删除',
  rejected: '已拒绝',
  withdrawn: '已撤回',
};

export const PrivacyMsg = {
  kind: '请选择要同意或撤回的事项',
  granted: '请选择同意或撤回',
  pending: '已提交删除申请，请等待门店处理',
  noPending: '没有待处理的删除申请',
  decided: '该申请已处理',
  rejectNote: '拒绝删除申请请填写原因',
  /** The manager approves while the member still holds something. */
  holdsCards: (cards: string) => `该会员还有未用完的会员卡（${cards}），请先办理退卡再删除`,
  holdsBookings: (n: number | string) => `该会员还有${n}个未上的预约或排队，请先取消再删除`,
  erasedName: '已注销会员',
} as const;

/** One part of a member's data: a table's rows about them, with Chinese headings. */
export const zDataSection = z.object({
  /** The table the rows come from. */
  key: z.string(),
  title: z.string(),
  columns: z.array(z.object({ key: z.string(), header: z.string() })),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
});
export type DataSection = z.infer<typeof zDataSection>;

export const memberMyData = defineCall({
  path: `${MEMBER_API}/query/my/data`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: z.object({ generatedAt: z.string(), sections: z.array(zDataSection) }),
  summary:
    '会员端：门店保存的我的全部信息（资料、会员卡、流水、预约、订单、请假、共享、同意记录、发出的消息、操作记录），可下载为 JSON 或 Excel（/member/files/my-data.xlsx）',
  example: {},
});

export const zConsent = z.object({
  kind: z.enum(CONSENT_KINDS),
  granted: z.boolean(),
  version: z.string(),
  way: z.enum(CONSENT_WAYS),
  at: z.string(),
});
export type Consent = z.infer<typeof zConsent>;

export const memberMyPrivacy = defineCall({
  path: `${MEMBER_API}/query/my/privacy`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: z.object({
    noticeVersion: z.string(),
    /** The member has not agreed to this version of the notice yet: the page asks first. */
    needsNotice: z.boolean(),
    /** Each kind's latest choice (none: never asked). */
    current: z.array(zConsent),
    /** Every choice, newest first. */
    history: z.array(zConsent),
    /** The member's pending request to delete their account, if any. */
    erasure: z.object({ id: z.number(), requestedAt: z.string(), dueDate: z.string() }).nullable(),
  }),
  summary: '会员端：我的同意记录（个人信息保护说明、营销消息、健康信息）和删除账号申请',
  example: {},
});

export const memberUpdateConsent = defineCall({
  path: `${MEMBER_API}/update/my/consent`,
  kind: 'write',
  auth: 'member',
  req: z.object({
    kind: z.enum(CONSENT_KINDS, { error: PrivacyMsg.kind }),
    granted: z.boolean({ error: PrivacyMsg.granted }),
  }),
  res: z.null(),
  summary: '会员端：同意或撤回一项（同意个人信息保护说明时记下其版本），记下时间和方式',
  example: { kind: 'marketing', granted: false },
});

export const memberAskErasure = defineCall({
  path: `${MEMBER_API}/add/my/erasure`,
  kind: 'write',
  auth: 'member',
  req: z.object({ reason: zText(200).nullish() }),
  res: z.object({ id: z.number(), dueDate: z.string() }),
  summary: `会员端：申请删除账号（门店在${ERASURE_DUE_DAYS}天内处理）`,
  example: { reason: '不再来了' },
  errors: fails.conflict(PrivacyMsg.pending),
});

export const memberWithdrawErasure = defineCall({
  path: `${MEMBER_API}/cancel/my/erasure`,
  kind: 'write',
  auth: 'member',
  req: zEmpty,
  res: z.null(),
  summary: '会员端：撤回待处理的删除账号申请',
  example: {},
  errors: fails.conflict(PrivacyMsg.noPending),
});

export const zErasureRequest = z.object({
  id: z.number(),
  memberId: z.number(),
  /** The member's name and mobile (after the deletion: 已注销会员 and no mobile). */
  memberName: z.string(),
  mobile: z.string().nullable(),
  reason: z.string().nullable(),
  status: z.enum(ERASURE_STATUSES),
  requestedAt: z.string(),
  dueDate: z.string(),
  decidedAt: z.string().nullable(),
  decidedByName: z.string().nullable(),
  note: z.string().nullable(),
});
export type ErasureRequest = z.infer<typeof zErasureRequest>;

export const queryErasureRequestList = defineCall({
  path: `${STORE_API}/query/erasure/request/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ status: z.enum(ERASURE_STATUSES).nullish() }),
  res: z.array(zErasureRequest),
  summary: '会员删除账号申请（待处理的在前，按截止日期）',
  example: { status: 'pending' },
});

export const updateErasureRequest = defineCall({
  path: `${STORE_API}/update/erasure/request`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z
    .object({
      id: zId(),
      approve: z.boolean({ error: '请选择同意或拒绝' }),
      note: zText(200).nullish(),
    })
    .refine((v) => v.approve || (v.note ?? '').trim(), { error: PrivacyMsg.rejectNote, path: ['note'] }),
  res: z.null(),
  idFields: ['id'],
  summary:
    '处理删除账号申请：同意则抹去会员的姓名、手机号、生日、备注、微信和健康信息，退出其登录；会员卡流水、订单和合同等须保留的记录留下但不再指向本人；拒绝须写原因',
  example: { id: 1, approve: true },
  errors: [
    ...fails.notFound('删除申请'),
    ...fails.conflict(PrivacyMsg.decided, PrivacyMsg.holdsCards('{卡}'), PrivacyMsg.holdsBookings('{数}')),
  ],
});

/**
 * 查看完整手机号: the desk sees a member's mobile masked in every list (138****5678); this shows it whole,
 * and each view is an entry in 操作日志 (who looked at whose number, when).
 */
export const revealMemberMobile = defineCall({
  path: `${STORE_API}/reveal/member/mobile`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  fullMobiles: FullMobiles.desk,
  req: z.object({ memberId: zId('请选择会员') }),
  res: z.object({ mobile: z.string() }),
  idFields: ['memberId'],
  summary: '查看会员的完整手机号（列表中手机号中间四位隐藏；每次查看记入操作日志）',
  example: { memberId: 1 },
  errors: fails.notFound('会员'),
});

export const privacyCalls = [
  memberMyData,
  memberMyPrivacy,
  memberUpdateConsent,
  memberAskErasure,
  memberWithdrawErasure,
  queryErasureRequestList,
  updateErasureRequest,
  revealMemberMobile,
] as const;
