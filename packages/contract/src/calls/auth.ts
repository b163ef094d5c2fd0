import { z } from 'zod';
import { zEmpty } from '../common.ts';
import { defineCall, STAFF_ROLES } from '../define.ts';
import { Msg } from '../messages.ts';

export const zProfile = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string().nullable(),
  posts: z.array(
    z.object({
      storeId: z.number(),
      /** The store, with its time zone (IANA): screens show "now" on the store's clock, not the browser's. */
      store: z.object({ id: z.number(), name: z.string(), timezone: z.string() }),
      /** The role in that store: 店长, 前台 or 老师. */
      role: z.enum(STAFF_ROLES),
      /** For a teacher: the teacher they are. */
      teacherId: z.number().nullable(),
    }),
  ),
});
export type Profile = z.infer<typeof zProfile>;

export const login = defineCall({
  path: '/api/auth/login',
  kind: 'write',
  auth: 'public',
  req: z.object({
    account: z.string({ error: '请输入账号' }).trim().min(1, '请输入账号').max(64, '账号过长'),
    password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码过长'),
  }),
  res: zProfile,
  audit: false,
  summary: '员工登录：账号（用户名或手机号）和密码，成功后设置会话 Cookie',
  example: { account: 'admin', password: 'demo1234' },
  errors: [
    { status: 401, msg: Msg.loginFailed },
    { status: 403, msg: Msg.staffDisabled },
    { status: 429, msg: Msg.loginLocked },
  ],
});

export const me = defineCall({
  path: '/api/auth/me',
  kind: 'read',
  auth: 'staff',
  req: zEmpty,
  res: zProfile,
  summary: '当前登录员工的资料和所属门店',
  example: {},
});
export const logout = defineCall({
  path: '/api/auth/logout',
  kind: 'write',
  auth: 'public',
  req: zEmpty,
  res: z.null(),
  audit: false,
  summary: '退出登录',
  example: {},
});

export const authCalls = [login, me, logout] as const;
