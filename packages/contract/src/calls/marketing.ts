// 营销短信 (issue 44, item 7): the manager texts the members and leads who agreed to marketing
// messages; every text ends with 回T退订 and a short unsubscribe link (added by the server); a reply T
// (the provider's 上行短信 callback) or the link's one click withdraws the consent. Codes and booking
// notices are not marketing and are not touched. Server: features/marketing.
import { z } from 'zod';
import { zEmpty, zPage, zPaged } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { LEAD_STAGES } from './leads.ts';
import { MEMBER_API } from './member-channel.ts';

/** What every marketing text ends with (before its unsubscribe link). */
export const MARKETING_STOP = '回T退订';
/** The replies that withdraw (trimmed, any case). */
export const MARKETING_STOP_REPLIES = ['T', 'TD', '退订'] as const;
/** The longest text the manager writes (the server adds the stop words and the link). */
export const MARKETING_TEXT_MAX = 300;
/** The same text to the same audience is sent once within this many minutes (two clicks, two tabs). */
export const MARKETING_REPEAT_MINUTES = 10;
/** 发送记录: sends a page. */
export const MARKETING_SEND_PAGE = 20;

export const MarketingMsg = {
  text: '请填写短信内容',
  textLong: `短信内容不能超过${MARKETING_TEXT_MAX}个字`,
  audience: '请选择发送对象（会员或潜客）',
  template: '请先填写营销短信模板 ID',
  noSms: '门店未设置短信服务，请先在短信设置中选择服务商',
  nobody: '没有同意接收营销短信的发送对象',
  token: '退订链接无效',
  repeated: `这条营销短信刚刚已发送给同一批对象，${MARKETING_REPEAT_MINUTES}分钟内不会重复发送，请在发送记录中查看`,
} as const;

const zAudience = {
  /** Members whose latest marketing consent is given. */
  members: z.boolean().default(false),
  /** Leads whose latest marketing consent is given (not 已成交: those are members). */
  leads: z.boolean().default(false),
  /** Only leads at these stages (empty: any stage). */
  leadStages: z.array(z.enum(LEAD_STAGES)).max(LEAD_STAGES.length).default([]),
};
const audienceChosen = (v: { members: boolean; leads: boolean }) => v.members || v.leads;

const zText = z
  .string({ error: MarketingMsg.text })
  .trim()
  .min(1, MarketingMsg.text)
  .max(MARKETING_TEXT_MAX, MarketingMsg.textLong);

export const zMarketingCount = z.object({
  /** People who get the text: one per mobile. */
  recipients: z.number(),
  members: z.number(),
  leads: z.number(),
  /** People of the chosen audience left out: no marketing consent, or withdrawn. */
  excluded: z.number(),
});

export const queryMarketingPreview = defineCall({
  path: `${STORE_API}/query/marketing/preview`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z
    .object({ ...zAudience, text: z.string().trim().max(MARKETING_TEXT_MAX, MarketingMsg.textLong).default('') })
    .refine(audienceChosen, { error: MarketingMsg.audience, path: ['members'] }),
  res: zMarketingCount.extend({
    /** The text as a recipient reads it (a sample link). */
    sample: z.string(),
  }),
  summary:
    '营销短信预览（店长）：会收到的人数（会员、潜客，同一手机号一条）、因未同意或已退订而排除的人数，以及加上“回T退订”和退订链接后的短信',
  example: { members: true, leads: true, leadStages: [], text: '周末瑜伽体验课八折' },
  errors: fails.badRequest(MarketingMsg.audience),
});

export const sendMarketing = defineCall({
  path: `${STORE_API}/send/marketing`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z
    .object({ ...zAudience, text: zText })
    .refine(audienceChosen, { error: MarketingMsg.audience, path: ['members'] }),
  res: zMarketingCount,
  summary:
    '发送营销短信（店长）：发给同意接收营销短信的会员和潜客，每个手机号一条，经短信发送队列；短信末尾由服务器加上“回T退订”和退订链接',
  example: { members: true, leads: false, leadStages: [], text: '周末瑜伽体验课八折' },
  errors: [
    ...fails.badRequest(MarketingMsg.audience, MarketingMsg.template, MarketingMsg.noSms, MarketingMsg.nobody),
    ...fails.conflict(MarketingMsg.repeated),
  ],
});

export const queryMarketingSendList = defineCall({
  path: `${STORE_API}/query/marketing/send/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ page: zPage() }),
  res: zPaged(
    zMarketingCount.extend({
      id: z.number(),
      /** Store-local `YYYY-MM-DD HH:mm:ss`. */
      createdAt: z.string(),
      /** The staff who sent it ('' when gone). */
      staffName: z.string(),
      text: z.string(),
      toMembers: z.boolean(),
      toLeads: z.boolean(),
      leadStages: z.array(z.enum(LEAD_STAGES)),
      /** From the outbox: texts the provider took. */
      sent: z.number(),
      /** Given up (the provider refused, the cap reached, no provider any more). */
      failed: z.number(),
      /** Given up because the person withdrew between the send and its text (回T, the link). */
      withdrawn: z.number(),
      /** Still waiting or being retried. */
      waiting: z.number(),
    }),
  ),
  summary:
    '营销短信发送记录（店长）：每次发送的时间、发送人、内容、发送对象和人数，以及短信发送队列里已发送、失败、发送前已退订、待发送的条数，最新的在前，每页20条',
  example: { page: 1 },
});

export const queryMarketingSetting = defineCall({
  path: `${STORE_API}/query/marketing/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zEmpty,
  res: z.object({
    /** The provider's marketing template: one variable, the whole text (Tencent {1}, Aliyun ${content}). */
    templateId: z.string(),
    /** The store's SMS provider ('none': no texts). */
    provider: z.enum(['none', 'tencent', 'aliyun']),
    /** The address to give the provider for replies (上行短信回调): it carries the store's key. */
    uplinkUrl: z.string(),
  }),
  summary: '营销短信设置（店长）：营销短信模板 ID、短信服务商，以及填到服务商控制台的上行短信（回复）回调地址',
  example: {},
});

export const updateMarketingSetting = defineCall({
  path: `${STORE_API}/update/marketing/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    templateId: z.string({ error: MarketingMsg.template }).trim().min(1, MarketingMsg.template).max(64, '模板 ID 过长'),
  }),
  res: z.null(),
  summary: '保存营销短信模板 ID（店长）',
  example: { templateId: 'SMS_000001' },
});

const zToken = z.string({ error: MarketingMsg.token }).trim().min(1, MarketingMsg.token).max(64, MarketingMsg.token);

export const memberUnsubscribeInfo = defineCall({
  path: `${MEMBER_API}/query/unsubscribe`,
  kind: 'read',
  auth: 'public',
  req: z.object({ token: zToken }),
  res: z.object({ storeName: z.string(), unsubscribed: z.boolean() }),
  summary: '会员端：退订链接页（无需登录）：门店名称和是否已退订',
  example: { token: 'AAAAAAAAAAAAAAAAAAAAAA' },
  errors: fails.notFound('退订链接'),
});

export const memberUnsubscribe = defineCall({
  path: `${MEMBER_API}/update/unsubscribe`,
  kind: 'write',
  auth: 'public',
  req: z.object({ token: zToken }),
  res: z.null(),
  summary: '会员端：点击退订（无需登录）：撤回该手机号在门店的营销短信同意（会员和潜客），记下时间和方式',
  example: { token: 'AAAAAAAAAAAAAAAAAAAAAA' },
  errors: fails.notFound('退订链接'),
});

export const marketingCalls = [
  queryMarketingPreview,
  sendMarketing,
  queryMarketingSendList,
  queryMarketingSetting,
  updateMarketingSetting,
  memberUnsubscribeInfo,
  memberUnsubscribe,
];
