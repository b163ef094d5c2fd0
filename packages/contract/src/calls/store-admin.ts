// Store settings calls of spec section 7 (messaging setting, logo, function list), the store booking
// settings of /course_setting/course_setting, and the first-run setup of an empty installation.
import { z } from 'zod';
import { zEmpty, zMobile, zName } from '../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { Msg } from '../messages.ts';
import { zProfile } from './auth.ts';

/** Messages of the store settings calls (the spec gives none for them). */
export const StoreAdminMsg = {
  settingNotObject: '消息设置内容应为一个对象',
  settingTooLarge: '消息设置内容不能超过64KB',
  tooDeep: '内容嵌套不能超过32层',
  webhookUrl: '机器人地址应为以 http:// 或 https:// 开头的网址',
  imageMissing: '请上传图片',
  imageDataUrl: '图片应为 data:image/...;base64, 格式',
  imageType: '仅支持 PNG、JPEG 或 WebP 格式的图片',
  imageBase64: '图片内容不是有效的 base64 编码',
  imageTooLarge: '图片不能超过1MB',
  imageEmpty: '图片内容为空',
  funcsMissing: '请提供功能列表 funcs',
  funcsJson: '功能列表 funcs 不是有效的 JSON',
  funcsNotList: '功能列表 funcs 应为数组',
  funcsItem: '功能列表的每一项应为一个对象',
  funcsTooMany: '功能列表最多100项',
  funcsTooLarge: '功能列表内容不能超过64KB',
  funcsKey: '功能标识 key 应为文字',
  funcsName: '功能名称 name 应为文字',
  funcsEnabled: '启用状态 enabled 只能是0或1',
  storeName: '请输入门店名称',
  controlChar: '名称不能包含控制字符',
  timezone: '请选择正确的时区',
  deductionMode: '扣费模式只能是0或1',
  confirmPending: 'confirmPending 只能是0或1',
  onlineDefault: '在线教室默认设置只能是0或1',
  pendingBlock: (n: number) => `还有${n}个待签到预约，请先处理（签到或取消）后再切换为预约即扣费`,
  pendingKept: (n: number) =>
    `已切换为预约即扣费。之前的${n}个待签到预约保持不变，仍可签到（签到时扣费）或取消（不扣费）`,
  setupDone: '系统已完成初始化，不能再次创建门店',
  setupBusy: '系统正在初始化，请稍后刷新页面',
  username: '账号应为2到32位字母、数字或 _ . @ -',
  adminMissing: '请填写管理员信息',
  adminName: '请输入管理员姓名',
  passwordShort: '密码至少8位',
  passwordLong: '密码不能超过128位',
  usernameTaken: '该账号已被使用',
} as const;

/** Largest stored JSON of the messaging setting and of the function list (bytes, UTF-8). */
export const STORE_SETTING_MAX_BYTES = 64 * 1024;
/** Largest decoded logo image. */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** Request body limit of add/logo: the base64 form of 1 MiB plus room for the JSON around it. */
export const LOGO_BODY_LIMIT = 1.5 * 1024 * 1024;
export const FUNCS_MAX = 100;
/** Deeper JSON is refused: it is never needed, and JSON.stringify of very deep data overflows the stack. */
export const MAX_JSON_DEPTH = 32;

/** A name that PostgreSQL can store: no NUL character. */
const zCleanName = (error: string) =>
  zName(error).refine((v) => !v.includes('\u0000'), { error: StoreAdminMsg.controlChar });

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const jsonBytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

function withinDepth(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (depth === 0) return false;
  return Object.values(v).every((x) => withinDepth(x, depth - 1));
}

/** Adds an issue when a JSON value is nested too deep or takes more than 64 KB as JSON text. */
function checkJsonSize(v: unknown, ctx: z.RefinementCtx, tooLarge: string): void {
  if (!withinDepth(v, MAX_JSON_DEPTH)) ctx.addIssue({ code: 'custom', message: StoreAdminMsg.tooDeep });
  else if (jsonBytes(v) > STORE_SETTING_MAX_BYTES) ctx.addIssue({ code: 'custom', message: tooLarge });
}

/**
 * A JSON object kept exactly as given. `z.custom` returns the parsed body itself, so keys such as
 * `__proto__` survive the round trip (a rebuilt object would drop them).
 */
const zJsonObject = (error: string) => z.custom<Record<string, unknown>>(isPlainObject, { error });

/**
 * The messaging setting: any JSON object up to 64 KB, passed through unchanged. One field has a
 * convention for the messaging feature: `webhookUrl`, when present, is an http(s) URL.
 */
export const zWechatSetting = zJsonObject(StoreAdminMsg.settingNotObject).superRefine((v, ctx) => {
  checkJsonSize(v, ctx, StoreAdminMsg.settingTooLarge);
  if ('webhookUrl' in v && !isHttpUrl(v.webhookUrl)) {
    ctx.addIssue({ code: 'custom', message: StoreAdminMsg.webhookUrl, path: ['webhookUrl'] });
  }
});

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string' || v.length > 2000) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

export const saveWechatSetting = defineCall({
  path: `${STORE_API}/insert/or/update/wechat/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zWechatSetting,
  res: z.null(),
  // Room above the 64 KB stored limit, so a slightly larger body gets the clear 400 message.
  bodyLimit: 2 * STORE_SETTING_MAX_BYTES,
  summary: '保存门店消息设置（任意 JSON 对象，webhookUrl 为企业微信群机器人地址）',
  example: { webhookUrl: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=example' },
  errors: fails.badRequest(
    StoreAdminMsg.settingTooLarge,
    StoreAdminMsg.tooDeep,
    StoreAdminMsg.webhookUrl,
    // The webhook is an outbound address: the same gate as sending (server lib/outbound.ts).
    Msg.outboundUrl,
    Msg.outboundCredentials,
    Msg.outboundBlocked,
  ),
});

export const queryWechatSetting = defineCall({
  path: `${STORE_API}/query/wechat/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zEmpty,
  res: zJsonObject('消息设置').nullable(),
  summary: '门店消息设置',
  example: {},
});

export const addLogo = defineCall({
  path: `${STORE_API}/add/logo`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    image: z
      .string({ error: StoreAdminMsg.imageMissing })
      .min(1, StoreAdminMsg.imageMissing)
      .max(LOGO_BODY_LIMIT, StoreAdminMsg.imageTooLarge),
  }),
  res: z.object({ logo: z.string() }),
  bodyLimit: LOGO_BODY_LIMIT,
  summary: '上传门店 Logo（PNG、JPEG 或 WebP，最大1MB）',
  example: { image: 'data:image/png;base64,iVBORw0KGgo=' },
  errors: fails.badRequest(
    StoreAdminMsg.imageDataUrl,
    StoreAdminMsg.imageType,
    StoreAdminMsg.imageBase64,
    StoreAdminMsg.imageEmpty,
    StoreAdminMsg.imageTooLarge,
  ),
});

/**
 * One entry of the store's function list: any keys are kept, but the ones the 门店设置 screen reads
 * must have their shape (key and name text, enabled 0/1 or true/false) when present.
 */
export const zStoreFunc = zJsonObject(StoreAdminMsg.funcsItem).superRefine((f, ctx) => {
  const wrong = (key: string, message: string) => ctx.addIssue({ code: 'custom', message, path: [key] });
  if ('key' in f && typeof f.key !== 'string') wrong('key', StoreAdminMsg.funcsKey);
  if ('name' in f && typeof f.name !== 'string') wrong('name', StoreAdminMsg.funcsName);
  if ('enabled' in f && ![0, 1, true, false].includes(f.enabled as number)) {
    wrong('enabled', StoreAdminMsg.funcsEnabled);
  }
});
export const zStoreFuncs = z
  .array(zStoreFunc, { error: StoreAdminMsg.funcsNotList })
  .max(FUNCS_MAX, StoreAdminMsg.funcsTooMany)
  .superRefine((list, ctx) => checkJsonSize(list, ctx, StoreAdminMsg.funcsTooLarge));

export const loadStoreFuncs = defineCall({
  path: `${STORE_API}/load/store/funcs`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: zEmpty,
  res: zStoreFuncs,
  summary: '门店功能列表',
  example: {},
});

/**
 * save/store/funcs accepts two encodings of the same payload:
 * - JSON: `{"funcs": [{...}, ...]}`;
 * - the helper's form encoding (`application/x-www-form-urlencoded`): a field `funcs` holding the JSON
 *   text of the list, e.g. `funcs=%5B%7B%22key%22%3A...%7D%5D`.
 * Either way the list is stored as given and load/store/funcs answers it unchanged.
 */
export const saveStoreFuncs = defineCall({
  path: `${STORE_API}/save/store/funcs`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  form: true,
  req: z.object({
    funcs: z.preprocess(
      (v, ctx) => {
        if (typeof v !== 'string') return v;
        try {
          return JSON.parse(v) as unknown;
        } catch {
          ctx.addIssue({ code: 'custom', message: StoreAdminMsg.funcsJson });
          return z.NEVER;
        }
      },
      z
        .unknown()
        .refine((v) => v !== undefined, { error: StoreAdminMsg.funcsMissing })
        .pipe(zStoreFuncs),
    ),
  }),
  res: z.null(),
  bodyLimit: 2 * STORE_SETTING_MAX_BYTES,
  summary: '保存门店功能列表（JSON 或表单编码）',
  example: { funcs: [{ key: 'calendar', name: '课程表', enabled: true }] },
  errors: fails.badRequest(
    StoreAdminMsg.funcsJson,
    StoreAdminMsg.funcsMissing,
    StoreAdminMsg.funcsTooLarge,
    StoreAdminMsg.tooDeep,
    // Each entry's shape (worded by zStoreFunc's refinement).
    StoreAdminMsg.funcsKey,
    StoreAdminMsg.funcsName,
    StoreAdminMsg.funcsEnabled,
  ),
});

// ---------------------------------------------------------------- store booking settings
export const zBookingSetting = z.object({
  /** Module 6 status: 0 deduct at booking, 1 deduct only at sign-in. */
  deductionMode: z.number(),
  /** Module 1 status: the online-classroom default of new sessions. */
  onlineDefault: z.number(),
  timezone: z.string(),
  storeName: z.string(),
  /** Pending items waiting for sign-in (status 1) on sessions not deleted and not yet over. */
  pendingWaiting: z.number(),
});

export type BookingSetting = z.infer<typeof zBookingSetting>;

export const queryBookingSetting = defineCall({
  path: `${STORE_API}/query/store/booking/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: zEmpty,
  res: zBookingSetting,
  summary: '预约设置：扣费模式、在线教室默认、时区、门店名称',
  example: {},
  errors: fails.notFound('门店'),
});

export const updateBookingSetting = defineCall({
  path: `${STORE_API}/update/store/booking/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    deductionMode: z.union([z.literal(0), z.literal(1)], { error: StoreAdminMsg.deductionMode }),
    onlineDefault: z.union([z.literal(0), z.literal(1)], { error: StoreAdminMsg.onlineDefault }),
    timezone: z.string({ error: StoreAdminMsg.timezone }).trim().min(1, StoreAdminMsg.timezone).max(64),
    storeName: zCleanName(StoreAdminMsg.storeName),
    /** 1 = switch from sign-in deduction to booking deduction although pending items wait. */
    confirmPending: z.union([z.literal(0), z.literal(1)], { error: StoreAdminMsg.confirmPending }).optional(),
  }),
  /** `pendingKept` waiting items were left as they are; `notice` says what happens to them. */
  res: z.object({ pendingKept: z.number(), notice: z.string().nullable() }),
  summary: '修改预约设置',
  example: {
    deductionMode: 0,
    onlineDefault: 0,
    timezone: 'Asia/Shanghai',
    storeName: '悦动健身工作室',
    confirmPending: 1,
  },
  errors: [
    ...fails.badRequest(StoreAdminMsg.timezone),
    ...fails.notFound('门店'),
    ...fails.conflict(StoreAdminMsg.pendingBlock(0).replace('0', '{n}')),
  ],
});

/**
 * What a deduction-mode switch leaves as it is, counted before it is saved: bookings and pendings of
 * classes from the store's today on (store time). Each keeps its way forward in either mode: a
 * booking was charged when made and is marked 到店 at the door; a pending is signed in (charged then)
 * or cancelled (nothing to refund).
 */
export const queryDeductionModeImpact = defineCall({
  path: `${STORE_API}/query/deduction/mode/impact`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zEmpty,
  res: z.object({
    /** The store's date today: the counts are of live classes starting on it or later. */
    fromDate: z.string(),
    /** Live bookings (booked, charged when made; or a pending signed in) of those classes. */
    reservations: z.number(),
    /** Pendings still waiting for sign-in on those classes. */
    pendings: z.number(),
  }),
  summary: '切换扣费模式前：今天及以后的已预约数和待签到数',
  example: {},
});

// ---------------------------------------------------------------- first run
export const setupStatus = defineCall({
  path: '/api/setup/status',
  kind: 'read',
  auth: 'public',
  req: zEmpty,
  res: z.object({ needsSetup: z.boolean() }),
  summary: '是否需要首次初始化（无需登录）',
  example: {},
});

export const setupInit = defineCall({
  path: '/api/setup/init',
  kind: 'write',
  auth: 'public',
  req: z.object({
    storeName: zCleanName(StoreAdminMsg.storeName),
    timezone: z.string({ error: StoreAdminMsg.timezone }).trim().max(64).optional(),
    admin: z.object(
      {
        username: z
          .string({ error: StoreAdminMsg.username })
          .trim()
          .regex(/^[A-Za-z0-9_.@-]{2,32}$/, StoreAdminMsg.username),
        name: zCleanName(StoreAdminMsg.adminName),
        mobile: z.preprocess((v) => (v === '' ? null : v), zMobile().nullish()).transform((v) => v ?? null),
        password: z
          .string({ error: StoreAdminMsg.passwordShort })
          .min(8, StoreAdminMsg.passwordShort)
          .max(128, StoreAdminMsg.passwordLong),
      },
      { error: StoreAdminMsg.adminMissing },
    ),
  }),
  res: zProfile,
  summary: '首次初始化：创建门店和管理员（无需登录，仅能一次）',
  example: {
    storeName: '悦动健身工作室',
    timezone: 'Asia/Shanghai',
    admin: { username: 'admin', name: '王店长', mobile: '13800138000', password: 'a-long-password' },
  },
  errors: [
    ...fails.badRequest(StoreAdminMsg.timezone),
    ...fails.conflict(StoreAdminMsg.setupDone, StoreAdminMsg.setupBusy, StoreAdminMsg.usernameTaken),
  ],
});

export const storeAdminCalls = [
  saveWechatSetting,
  queryWechatSetting,
  addLogo,
  loadStoreFuncs,
  saveStoreFuncs,
  queryBookingSetting,
  updateBookingSetting,
  queryDeductionModeImpact,
  setupStatus,
  setupInit,
] as const;
