// 潜客 (issue 44, items 1 and 2): prospects, their owner (跟进人) or the pool (公海), the pipeline and
// follow-ups (server: features/leads; paths in features/leads/README.md).
import { z } from 'zod';
import { zDate, zId, zMobile, zOptId, zPage, zPaged, zText, zTime } from '../common.ts';
import { defineCall, fails, FullMobiles, Roles, STORE_API } from '../define.ts';
import { SellerMsg } from './reference/card.ts';
import { Msg } from '../messages.ts';
import { checkRange } from './batch.ts';
import { LessonBookingMsg } from './lesson-booking.ts';
import { REPORT_MAX_DAYS, ReportMsg, reportRangeErrors, zReportRange } from './reports.ts';

/** The built-in sources of a lead; the manager adds others (潜客设置). */
export const LEAD_SOURCES = ['到店', '电话', '线上报名', '团购', '转介绍', '推广链接', '导入'] as const;

/** The stages of the pipeline, in order; 已流失 (lost) leaves it with a reason. */
export const LEAD_STAGES = ['new', 'contacted', 'trial_booked', 'trial_done', 'won', 'lost'] as const;
export type LeadStage = (typeof LEAD_STAGES)[number];
export const LEAD_STAGE_LABEL: Record<LeadStage, string> = {
  new: '新线索',
  contacted: '已联系',
  trial_booked: '已约体验',
  trial_done: '已体验',
  won: '已成交',
  lost: '已流失',
};
/** What staff may set by hand: 已成交 comes only from a card sold to the lead (a conversion). */
export const LEAD_MANUAL_STAGES = ['contacted', 'trial_booked', 'trial_done', 'lost'] as const;

export const LEAD_WAYS = ['phone', 'wechat', 'visit'] as const;
export type LeadWay = (typeof LEAD_WAYS)[number];
export const LEAD_WAY_LABEL: Record<LeadWay, string> = { phone: '电话', wechat: '微信', visit: '到店' };

/**
 * How a lead's marketing consent was given or withdrawn (issue 44, item 7): staff mark 到店 or 电话;
 * the sign-up page's checkbox is 线上报名; a reply T to a marketing text and its unsubscribe link withdraw.
 */
export const LEAD_CONSENT_WAYS = ['visit', 'phone', 'online', 'sms_reply', 'link', 'import'] as const;
export type LeadConsentWay = (typeof LEAD_CONSENT_WAYS)[number];
export const LEAD_CONSENT_WAY_LABEL: Record<LeadConsentWay, string> = {
  visit: '到店',
  phone: '电话',
  online: '线上报名',
  sms_reply: '短信回复T',
  link: '点击退订链接',
  import: '导入',
};
/** The ways staff record a lead's consent with. */
export const LEAD_STAFF_CONSENT_WAYS = ['visit', 'phone'] as const;

/** Days without a follow-up before a lead goes back to the pool, when the store never set it. */
export const LEAD_RETURN_DAYS_DEFAULT = 15;

export const LeadMsg = {
  name: '请输入潜客姓名',
  source: '请选择来源',
  unknownSource: '来源不在门店的来源列表中，请先在潜客设置中添加',
  stage: '请选择阶段',
  lostReason: '设为已流失请填写原因',
  way: '请选择跟进方式',
  note: '请填写跟进内容',
  returnDays: '回收天数为0-365的整数（0为不回收）',
  sourceName: '来源名称为1-20个字符',
  sourceTwice: '来源名称重复',
  /** A lead that bought a card is 已成交 for good. */
  won: '该潜客已成交，不能再修改',
  /** Taking from the pool a lead someone took first. */
  taken: '该潜客已有跟进人，不在公海中',
  /** A non-manager acting on a lead of someone else (or of the pool, before taking it). */
  notYours: '只能跟进自己的潜客（公海中的潜客请先领取）',
  /** A non-manager naming someone else as owner. */
  ownerManager: '只有店长可以指定其他跟进人',
  /** Changing the mobile of a 已成交 lead (its card was sold to the member of that mobile). */
  mobileWon: '该潜客已成交，不能修改手机号',
  /** Two edits at once gave two leads the same new mobile: the second is refused. */
  mobileRace: '该手机号刚被另一位潜客使用，请刷新后重试',
  /** 约体验课 (item 3). */
  trialClosed: '已成交或已流失的潜客不能约体验课',
  trialLive: '该潜客已约了一节体验课，上完或取消后才能再约',
  trialEnded: '课程已结束，不能约体验课',
  trialGroupOnly: '体验课只能约团课',
  /** 私教体验课: a new lesson of a 1对1 type only. */
  trialOneOnOne: '私教体验课只能约1对1私教课',
  trialCancelled: '该体验课已取消',
  trialAttended: '该潜客已上过这节体验课，不能取消',
  trialSession: '该体验课不在这节课中',
  /** A paid trial (the member's booking with their 体验卡): cancelled and marked as that booking. */
  trialOfMember: '这是会员用体验卡的预约，请在课程的预约中取消或记到店',
} as const;

const zOptText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), zText(max).nullish()).transform((v) => (v ? v : null));

export const zLeadRow = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string(),
  source: z.string(),
  interests: z.string().nullable(),
  notes: z.string().nullable(),
  preferredTimes: z.string().nullable(),
  ownerId: z.number().nullable(),
  /** The owner's name; null in the pool (公海). */
  ownerName: z.string().nullable(),
  stage: z.enum(LEAD_STAGES),
  lostReason: z.string().nullable(),
  nextFollowUp: z.string().nullable(),
  /** The last follow-up, assignment or take (the pool return counts from it). */
  touchedAt: z.string(),
  createdAt: z.string(),
  /** The member of the store holding this mobile (已是会员), or null. */
  memberId: z.number().nullable(),
  convertedCardId: z.number().nullable(),
  convertedAt: z.string().nullable(),
  /** 转介绍: the member whose referral link brought the lead (their id and name), or null. */
  referrerId: z.number().nullable(),
  referrerName: z.string().nullable(),
});
export type LeadRow = z.infer<typeof zLeadRow>;

export const zLeadFollowUp = z.object({
  id: z.number(),
  way: z.enum(LEAD_WAYS),
  note: z.string(),
  nextDate: z.string().nullable(),
  staffName: z.string(),
  createdAt: z.string(),
});
export type LeadFollowUp = z.infer<typeof zLeadFollowUp>;

/** One marketing consent of a lead, given or withdrawn: how, when, and the staff who recorded it (null: the person). */
export const zLeadConsent = z.object({
  granted: z.boolean(),
  way: z.enum(LEAD_CONSENT_WAYS),
  at: z.string(),
  staffName: z.string().nullable(),
});
export type LeadConsent = z.infer<typeof zLeadConsent>;

/** A trial's status: 1 约了, 2 到店 (上过), 3 取消. */
export const LEAD_TRIAL_STATUS = { BOOKED: 1, ATTENDED: 2, CANCELLED: 3 } as const;
export const LEAD_TRIAL_STATUS_LABEL: Record<number, string> = { 1: '已约', 2: '已到店', 3: '已取消' };

export const zLeadTrial = z.object({
  id: z.number(),
  leadId: z.number(),
  sessionId: z.number(),
  courseName: z.string(),
  teacherName: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  /** 1 已约, 2 已到店, 3 已取消. */
  status: z.number(),
  attendedTime: z.string().nullable(),
  createTime: z.string(),
  /** A paid trial: the member whose booking with their 体验卡 it is (cancelled and marked as that booking). */
  memberId: z.number().nullable(),
});
export type LeadTrial = z.infer<typeof zLeadTrial>;

export const queryLeadList = defineCall({
  path: `${STORE_API}/query/lead/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({
    stage: z.enum(LEAD_STAGES).nullish(),
    /** 'all': the manager sees every lead, others their own and the pool; 'mine' their own; 'pool' 公海. */
    scope: z.enum(['all', 'mine', 'pool']).default('all'),
    /** A fragment of the name or mobile. */
    param: z.string().max(32).nullish(),
    source: z.string().max(20).nullish(),
    /** The manager's filter by owner (others see their own and the pool's anyway). */
    ownerId: zOptId(),
    page: zPage(),
  }),
  res: zPaged(zLeadRow),
  summary:
    '潜客列表（20条一页，新的在前）：店长看全部，其他员工看自己的和公海中的；可按阶段、来源、跟进人（店长）、姓名或手机号筛选',
  example: { stage: 'new', scope: 'all', page: 1 },
});

export const queryLeadInfo = defineCall({
  path: `${STORE_API}/query/lead/info`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({ id: zId() }),
  res: zLeadRow.extend({
    followUps: z.array(zLeadFollowUp),
    /** The lead's trial classes, newest first (cancelled ones too). */
    trials: z.array(zLeadTrial),
    /** The lead's marketing consents, newest first: the first is its choice (none: never asked). */
    consents: z.array(zLeadConsent),
  }),
  idFields: ['id'],
  summary: '潜客详情与跟进记录（新的在前）：店长看全部，其他员工看自己的和公海中的',
  example: { id: 1 },
  errors: [...fails.notFound('潜客'), { status: 403, msg: LeadMsg.notYours }],
});

/** The fields of a lead staff type (新增潜客 and 编辑潜客). */
const zLeadFields = {
  name: z.string({ error: LeadMsg.name }).trim().min(1, LeadMsg.name).max(32, '姓名不能超过32个字符'),
  mobile: zMobile(),
  source: z.string({ error: LeadMsg.source }).trim().min(1, LeadMsg.source).max(20, LeadMsg.sourceName),
  interests: zOptText(200),
  notes: zOptText(500),
};

/** A lead as the import's 潜客 sheet gives it: the fields checked as the desk's add checks them. */
export const zLeadImportRow = z.object({
  name: zLeadFields.name,
  mobile: zLeadFields.mobile,
  source: zLeadFields.source,
  notes: zLeadFields.notes,
});

/** The import's 潜客 sheet (a workbook's sheet of that name): its columns, 姓名 and 手机号 needed. */
export const LEAD_IMPORT_SHEET = '潜客';
export const LEAD_IMPORT_COLUMNS = ['姓名', '手机号', '来源', '跟进人', '阶段', '备注', '营销同意'] as const;

export const LeadImportMsg = {
  columns: '潜客表需要“姓名”和“手机号”两列',
  owner: (name: string) => `跟进人“${name}”不是本店在职员工`,
  ownerTwice: (name: string) => `本店有多位员工叫“${name}”，请改为其中一位的账号`,
  stage: '阶段请填 新线索、已联系、已约体验、已体验 或 已流失（已成交由售卡产生）',
  consent: '营销同意请填“是”或“否”',
  sameMobile: (row: number) => `手机号与第${row}行重复`,
  member: '该手机号已是本店会员：潜客照常导入，显示为已是会员',
  merged: (name: string) => `该手机号已有潜客“${name}”：合并到该潜客（补全空的信息、追加备注）`,
  lostReason: '导入时已流失',
  /** Why an import's undo is refused: what happened since to the leads it added or merged into. */
  changedSince: (name: string) => `潜客${name}之后有变动`,
  moreChangedSince: (n: number) => `另有${n}位导入的潜客之后有变动`,
  activitySince: '导入的潜客之后有跟进、体验课或营销同意的变动',
} as const;

export const insertLead = defineCall({
  path: `${STORE_API}/insert/lead`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({
    ...zLeadFields,
    preferredTimes: zOptText(100),
    /** The owner (跟进人); null: the pool (公海). Staff other than the manager may name only themselves. */
    ownerId: zOptId(),
  }),
  res: z.object({
    id: z.number(),
    /** true: the mobile already had a lead; this one was merged into it (empty fields filled, notes appended). */
    merged: z.boolean(),
  }),
  idFields: ['ownerId'],
  summary: '新增潜客；手机号已有潜客时合并到该潜客（补全空的信息、追加备注）并答复合并到了哪一位',
  example: { name: '王小姐', mobile: '13800000001', source: '到店', interests: '瑜伽', ownerId: null },
  errors: [
    ...fails.badRequest(LeadMsg.unknownSource, SellerMsg.disabled),
    ...fails.notFound('销售员'),
    { status: 403, msg: LeadMsg.ownerManager },
  ],
});

export const updateLead = defineCall({
  path: `${STORE_API}/update/lead`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({ id: zId(), ...zLeadFields }),
  res: z.object({
    /** The lead now holding the entry: this one, or (merged) the lead that already had the new mobile. */
    id: z.number(),
    /** true: the new mobile already had a lead; this one was merged into it (and is gone). */
    merged: z.boolean(),
  }),
  idFields: ['id'],
  summary:
    '编辑潜客（姓名、手机号、来源、意向、备注）；改成的手机号已有潜客时合并到该潜客（补全空的信息、追加备注、跟进记录一并转入）',
  example: { id: 1, name: '王小姐', mobile: '13800000001', source: '到店', interests: '瑜伽', notes: null },
  errors: [
    ...fails.badRequest(LeadMsg.unknownSource),
    ...fails.notFound('潜客'),
    ...fails.conflict(LeadMsg.mobileWon, LeadMsg.won, LeadMsg.mobileRace),
    { status: 403, msg: LeadMsg.notYours },
  ],
});

export const insertLeadFollowUp = defineCall({
  path: `${STORE_API}/insert/lead/follow/up`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({
    leadId: zId(),
    way: z.enum(LEAD_WAYS, { error: LeadMsg.way }),
    note: z.string({ error: LeadMsg.note }).trim().min(1, LeadMsg.note).max(500, '内容不能超过500个字符'),
    /** The next follow-up date (我的待跟进), or none. */
    nextDate: zDate().nullish(),
  }),
  res: z.object({ id: z.number() }),
  idFields: ['leadId'],
  summary: '记录一次跟进（电话、微信、到店，内容，下次跟进日期）；新线索的第一次跟进使其变为已联系',
  example: { leadId: 1, way: 'phone', note: '约了周六看课', nextDate: '2031-03-05' },
  errors: [...fails.notFound('潜客'), ...fails.conflict(LeadMsg.won), { status: 403, msg: LeadMsg.notYours }],
});

export const updateLeadStage = defineCall({
  path: `${STORE_API}/update/lead/stage`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z
    .object({
      id: zId(),
      stage: z.enum(LEAD_MANUAL_STAGES, { error: LeadMsg.stage }),
      lostReason: zOptText(200),
    })
    .refine((v) => v.stage !== 'lost' || v.lostReason, { error: LeadMsg.lostReason, path: ['lostReason'] }),
  res: z.null(),
  idFields: ['id'],
  summary: '修改潜客阶段（已联系、已约体验、已体验，或已流失并写明原因）；已成交由购卡自动完成',
  example: { id: 1, stage: 'trial_booked' },
  errors: [...fails.notFound('潜客'), ...fails.conflict(LeadMsg.won), { status: 403, msg: LeadMsg.notYours }],
});

export const updateLeadConsent = defineCall({
  path: `${STORE_API}/update/lead/consent`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({
    id: zId(),
    granted: z.boolean({ error: '请选择同意或撤回' }),
    way: z.enum(LEAD_STAFF_CONSENT_WAYS, { error: '请选择登记方式（到店或电话）' }),
  }),
  res: z.null(),
  idFields: ['id'],
  summary: '登记潜客是否同意接收营销短信（到店或电话），记下时间、方式和登记人；自己的潜客（店长：全部）',
  example: { id: 1, granted: true, way: 'visit' },
  errors: [...fails.notFound('潜客'), { status: 403, msg: LeadMsg.notYours }],
});

export const updateLeadOwner = defineCall({
  path: `${STORE_API}/update/lead/owner`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    ids: z.array(zId()).min(1, '请选择潜客').max(500, '一次最多500位潜客'),
    /** The new owner; null: back to the pool (公海). */
    ownerId: zOptId(),
  }),
  res: z.null(),
  idFields: ['ids', 'ownerId'],
  summary: '分配或重新分配潜客的跟进人（为空则放回公海）',
  example: { ids: [1], ownerId: 2 },
  errors: [...fails.badRequest(SellerMsg.disabled), ...fails.notFound('潜客', '销售员')],
});

export const takeLead = defineCall({
  path: `${STORE_API}/take/lead`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '从公海领取潜客，成为其跟进人',
  example: { id: 1 },
  errors: [...fails.notFound('潜客'), ...fails.conflict(LeadMsg.taken)],
});

export const zLeadTodo = zLeadRow.extend({
  /** 'overdue' 已逾期, 'today' 今天, 'later' 以后, 'none' 未定. */
  due: z.enum(['overdue', 'today', 'later', 'none']),
  /** 体验课未到: the lead's trial class ended without them marked 到店 (listed first). */
  trialMissed: z.boolean(),
});
export type LeadTodo = z.infer<typeof zLeadTodo>;

export const queryLeadTodoList = defineCall({
  path: `${STORE_API}/query/lead/todo/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({}),
  res: z.array(zLeadTodo),
  summary: '我的待跟进：自己跟进中的潜客（未成交、未流失），逾期和今天的在前，再按下次跟进日期',
  example: {},
});

export const zLeadSetting = z.object({
  /** Days without a follow-up before a lead goes back to the pool; 0: never. */
  returnDays: z
    .number({ error: LeadMsg.returnDays })
    .int(LeadMsg.returnDays)
    .min(0, LeadMsg.returnDays)
    .max(365, LeadMsg.returnDays),
  /** The sources the manager added to the built-in ones. */
  sources: z
    .array(z.string().trim().min(1, LeadMsg.sourceName).max(20, LeadMsg.sourceName))
    .max(50, '最多50个来源')
    .refine((l) => new Set(l).size === l.length && !l.some((s) => (LEAD_SOURCES as readonly string[]).includes(s)), {
      error: LeadMsg.sourceTwice,
    }),
});
export type LeadSetting = z.infer<typeof zLeadSetting>;

export const queryLeadSetting = defineCall({
  path: `${STORE_API}/query/lead/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.sellers,
  req: z.object({}),
  res: zLeadSetting.extend({ builtInSources: z.array(z.string()) }),
  summary: '潜客设置：多少天未跟进回收到公海（0为不回收）、门店自己添加的来源（和内置来源）',
  example: {},
});

export const updateLeadSetting = defineCall({
  path: `${STORE_API}/update/lead/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zLeadSetting,
  res: z.null(),
  summary: '设置潜客多少天未跟进回收到公海，以及门店自己的来源',
  example: { returnDays: 15, sources: ['小红书'] },
});

// ---- 转化漏斗 (issue 44, item 6) -------------------------------------------------------------

/**
 * The steps of the funnel, in order. A lead counts at a step once it reached it or, for 已联系, any
 * later one (a lead who bought a card without a trial was contacted but never booked a trial, so
 * 已成交 may exceed 已体验).
 */
export const FUNNEL_STEPS = ['leads', 'contacted', 'trialBooked', 'trialDone', 'converted'] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export const FUNNEL_STEP_LABEL: Record<FunnelStep, string> = {
  leads: '新增潜客',
  contacted: '已联系',
  trialBooked: '已约体验',
  trialDone: '已体验',
  converted: '已成交',
};

const zFunnelCounts = z.object({
  leads: z.number().int(),
  contacted: z.number().int(),
  trialBooked: z.number().int(),
  trialDone: z.number().int(),
  converted: z.number().int(),
  /** Median whole days from a lead's creation to its card (converted leads); null: none converted. */
  medianDays: z.number().nullable(),
});
export type FunnelCounts = z.infer<typeof zFunnelCounts>;

export const queryLeadFunnel = defineCall({
  path: `${STORE_API}/query/lead/funnel`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zReportRange,
  res: z.object({
    total: zFunnelCounts,
    /** By source (the source a converted lead was converted under). */
    bySource: z.array(zFunnelCounts.extend({ source: z.string() })),
    /** By owner: the owner credited with the conversion, else the owner now; ownerId 0: 公海. */
    byOwner: z.array(zFunnelCounts.extend({ ownerId: z.number().int(), ownerName: z.string() })),
    /** By trial teacher: the teacher of the lead's first attended trial class (leads without one are not in it). */
    byTeacher: z.array(zFunnelCounts.extend({ teacherId: z.number().int(), teacherName: z.string() })),
  }),
  summary:
    '转化漏斗（店长）：日期范围内新增的潜客中已联系、已约体验、已体验、已成交的人数，及从新增到购卡的天数中位数；按来源、按跟进人、按体验课老师',
  example: { fromDate: '2031-03-01', toDate: '2031-03-31' },
  errors: reportRangeErrors,
});

export const zFunnelLead = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string(),
  source: z.string(),
  ownerName: z.string().nullable(),
  stage: z.enum(LEAD_STAGES),
  createdAt: z.string(),
  convertedAt: z.string().nullable(),
});
export type FunnelLead = z.infer<typeof zFunnelLead>;

export const queryLeadFunnelList = defineCall({
  path: `${STORE_API}/query/lead/funnel/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z
    .object({
      fromDate: zDate(Msg.chooseDates),
      toDate: zDate(Msg.chooseDates),
      step: z.enum(FUNNEL_STEPS),
      /** Only this source, or this owner (0: 公海), as the funnel's rows group them. */
      source: z.string().max(20).nullish(),
      ownerId: z.number().int().min(0).nullish(),
      /** Only the leads whose trial this teacher taught. */
      teacherId: zOptId(),
      page: zPage(),
    })
    .superRefine((v, ctx) => checkRange(ctx, v.fromDate, v.toDate, 'toDate', REPORT_MAX_DAYS, ReportMsg.rangeMax)),
  res: zPaged(zFunnelLead),
  summary: '转化漏斗中某个数字背后的潜客（20条一页，按新增时间）：某一步，可限某来源或某跟进人',
  example: { fromDate: '2031-03-01', toDate: '2031-03-31', step: 'converted', page: 1 },
  errors: reportRangeErrors,
});

// ---- 体验课 (issue 44, item 3) ----------------------------------------------------------------

export const insertLeadTrial = defineCall({
  path: `${STORE_API}/insert/lead/trial`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ leadId: zId(), sessionId: zId('请选择课程') }),
  res: z.object({ id: z.number() }),
  idFields: ['leadId', 'sessionId'],
  summary:
    '为潜客约体验课：占这节课的一个名额（不用会员卡，不扣费），潜客变为已约体验；每位潜客同时只能有一节未上的体验课',
  example: { leadId: 1, sessionId: 1 },
  errors: [
    ...fails.notFound('潜客', '课程'),
    ...fails.conflict(
      Msg.sessionFull,
      LeadMsg.trialClosed,
      LeadMsg.trialLive,
      LeadMsg.trialEnded,
      LeadMsg.trialGroupOnly,
    ),
    { status: 403, msg: LeadMsg.notYours },
  ],
});

export const cancelLeadTrial = defineCall({
  path: `${STORE_API}/cancel/lead/trial`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '取消潜客的体验课：名额空出，潜客回到约课前的阶段',
  example: { id: 1 },
  errors: [
    ...fails.notFound('体验课'),
    ...fails.conflict(LeadMsg.trialCancelled, LeadMsg.trialAttended, LeadMsg.trialOfMember),
    { status: 403, msg: LeadMsg.notYours },
  ],
});

export const markLeadTrial = defineCall({
  path: `${STORE_API}/mark/lead/trial`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  /** The session is named too: a teacher marks only the trials of a class they teach. */
  req: z.object({ id: zId(), sessionId: zId() }),
  res: z.null(),
  idFields: ['id', 'sessionId'],
  teacherOwns: { field: 'sessionId', via: 'session' },
  summary: '体验课记到店：潜客变为已体验，记下上课老师（转化漏斗按体验老师统计）；已到店的再记一次不改变什么',
  example: { id: 1, sessionId: 1 },
  errors: [
    ...fails.notFound('体验课', '课程'),
    ...fails.conflict(LeadMsg.trialCancelled, LeadMsg.trialSession, LeadMsg.trialOfMember),
  ],
});

export const insertLeadTrialLesson = defineCall({
  path: `${STORE_API}/insert/lead/trial/lesson`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({
    leadId: zId(),
    courseId: zId('请选择课程'),
    teacherId: zId('请选择老师'),
    date: zDate('请选择日期'),
    time: zTime('请选择时间'),
  }),
  res: z.object({ id: z.number(), sessionId: z.number() }),
  idFields: ['leadId', 'courseId', 'teacherId'],
  summary:
    '为潜客约私教体验课：在老师的空闲时段新开一节1对1私教课，潜客占它的名额（不用会员卡，不扣费），潜客变为已约体验；取消后没有人的课随之取消',
  example: { leadId: 1, courseId: 1, teacherId: 1, date: '2099-01-05', time: '10:00' },
  errors: [
    ...fails.notFound('潜客', '课程', '老师'),
    ...fails.conflict(
      LeadMsg.trialClosed,
      LeadMsg.trialLive,
      LeadMsg.trialOneOnOne,
      LessonBookingMsg.notTeacher,
      LessonBookingMsg.notice('{分钟}'),
      LessonBookingMsg.notOffered,
      LessonBookingMsg.noRoom,
      Msg.teacherConflict('{时间}'),
      Msg.roomConflict('{场地}', '{时间}'),
      Msg.equipmentConflict('{器械}', '{时间}', '{N}'),
    ),
    { status: 403, msg: LeadMsg.notYours },
  ],
});

export const zSessionTrial = z.object({
  id: z.number(),
  leadId: z.number(),
  leadName: z.string(),
  mobile: z.string(),
  ownerName: z.string().nullable(),
  /** 1 已约, 2 已到店. */
  status: z.number(),
  attendedTime: z.string().nullable(),
});
export type SessionTrial = z.infer<typeof zSessionTrial>;

export const queryLeadTrialList = defineCall({
  path: `${STORE_API}/query/lead/trial/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ sessionId: zId() }),
  res: z.array(zSessionTrial),
  idFields: ['sessionId'],
  teacherOwns: { field: 'sessionId', via: 'session' },
  summary: '一节课的体验课学员（未取消的，按预约先后）：潜客姓名、手机号、跟进人、是否到店',
  example: { sessionId: 1 },
  errors: fails.notFound('课程'),
});

export const leadCalls = [
  queryLeadList,
  queryLeadInfo,
  updateLeadConsent,
  insertLead,
  updateLead,
  insertLeadFollowUp,
  updateLeadStage,
  updateLeadOwner,
  takeLead,
  queryLeadTodoList,
  queryLeadSetting,
  updateLeadSetting,
  queryLeadFunnel,
  queryLeadFunnelList,
  insertLeadTrial,
  insertLeadTrialLesson,
  cancelLeadTrial,
  markLeadTrial,
  queryLeadTrialList,
] as const;
