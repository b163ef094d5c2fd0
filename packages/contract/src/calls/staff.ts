// Staff of a store and their roles (员工), a staff member's own password, and the audit log
// (操作日志) with undo of bulk changes (server: features/staff, features/audit).
import { z } from 'zod';
import { zDate, zEmpty, zId, zMobile, zOptId, zPage, zPaged } from '../common.ts';
import { defineCall, fails, Roles, STAFF_ROLES, STORE_API } from '../define.ts';

export const StaffMsg = {
  name: '请输入姓名',
  account: '账号为2-32位字母、数字或 _ . @ -',
  accountTaken: '该账号或手机号已被使用',
  role: '请选择角色',
  teacher: '老师账号请选择对应的老师',
  passwordShort: '密码至少8位',
  passwordLong: '密码不能超过128位',
  passwordWeak: '密码须同时包含字母和数字',
  oldPassword: '请输入原密码',
  oldPasswordWrong: '原密码不正确',
  samePassword: '新密码不能与原密码相同',
  /** A manager demoting or disabling the store's last enabled manager (themselves included). */
  lastManager: '门店至少要保留一位启用的店长',
  /** Resetting one's own password here would skip the old password (修改密码 asks for it). */
  ownPassword: '不能在这里重置自己的密码，请点右上角的账号菜单“修改密码”（需要原密码）',
  /** Disabling one's own account would end the session doing it. */
  disableSelf: '不能停用自己的账号',
  auditRange: '请选择日期范围',
  auditRangeTooLong: '日期范围最多366天',
  undoExpired: '只能撤销24小时内的批量操作',
  undoNotBulk: '这条记录不是可以撤销的批量操作',
  undoDone: '该批量操作已经撤销过了',
  /** An undo refused because something that depends on the change changed since; {what} names it. */
  undoBlocked: (what: string) => `无法撤销：${what}`,
} as const;

/** A new password: 8 to 128 characters with at least one letter and one digit. */
export const zNewPassword = () =>
  z
    .string({ error: StaffMsg.passwordShort })
    .min(8, StaffMsg.passwordShort)
    .max(128, StaffMsg.passwordLong)
    .refine((p) => /[A-Za-z]/.test(p) && /\d/.test(p), { error: StaffMsg.passwordWeak });

const zRole = z.enum(STAFF_ROLES, { error: StaffMsg.role });
const zStaffName = () =>
  z.string({ error: StaffMsg.name }).trim().min(1, StaffMsg.name).max(32, '姓名不能超过32个字符');
const zOptMobile = () => z.preprocess((v) => (v === '' ? null : v), zMobile().nullish()).transform((v) => v ?? null);

export const zStaffRow = z.object({
  id: z.number(),
  name: z.string(),
  account: z.string(),
  mobile: z.string().nullable(),
  role: zRole,
  teacherId: z.number().nullable(),
  teacherName: z.string().nullable(),
  enabled: z.union([z.literal(0), z.literal(1)]),
});
export type StaffRow = z.infer<typeof zStaffRow>;

export const queryStaffList = defineCall({
  path: `${STORE_API}/query/staff/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: zEmpty,
  res: z.array(zStaffRow),
  summary: '员工列表：姓名、账号、手机号、角色、对应老师、是否启用',
  example: {},
});

export const zSellerOption = z.object({ id: z.number().int(), name: z.string() });
export type SellerOption = z.infer<typeof zSellerOption>;

export const querySellerList = defineCall({
  path: `${STORE_API}/query/seller/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zEmpty,
  res: z.array(zSellerOption),
  summary: '销售员选项：门店在职（启用）的全部员工（店长、前台、老师），供发卡、充值、扫码收款选择销售员',
  example: {},
});

export const insertStaff = defineCall({
  path: `${STORE_API}/insert/staff`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    name: zStaffName(),
    account: z
      .string({ error: StaffMsg.account })
      .trim()
      .regex(/^[A-Za-z0-9_.@-]{2,32}$/, StaffMsg.account),
    mobile: zOptMobile(),
    password: zNewPassword(),
    role: zRole,
    teacherId: zOptId(),
  }),
  res: z.object({ id: z.number() }),
  idFields: ['teacherId'],
  summary: '新增员工（店长、前台或老师；老师账号对应一位老师）',
  example: {
    name: '小林',
    account: 'desk01',
    mobile: '13900000001',
    password: 'desk2026ok',
    role: 'desk',
    teacherId: null,
  },
  errors: [...fails.badRequest(StaffMsg.teacher), ...fails.notFound('老师'), ...fails.conflict(StaffMsg.accountTaken)],
});

export const updateStaff = defineCall({
  path: `${STORE_API}/update/staff`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    id: zId(),
    name: zStaffName(),
    mobile: zOptMobile(),
    role: zRole,
    teacherId: zOptId(),
    enabled: z.union([z.literal(0), z.literal(1)]),
  }),
  res: z.null(),
  idFields: ['id', 'teacherId'],
  summary: '修改员工：姓名、手机号、角色、对应老师、启用或停用（停用立即结束其登录）',
  example: { id: 1, name: '小林', mobile: null, role: 'desk', teacherId: null, enabled: 1 },
  errors: [
    ...fails.badRequest(StaffMsg.teacher),
    ...fails.notFound('员工', '老师'),
    ...fails.conflict(StaffMsg.accountTaken, StaffMsg.lastManager, StaffMsg.disableSelf),
  ],
});

export const resetStaffPassword = defineCall({
  path: `${STORE_API}/reset/staff/password`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId(), password: zNewPassword() }),
  res: z.null(),
  idFields: ['id'],
  summary: '重置员工密码（结束其全部登录）；自己的密码在“修改密码”中修改',
  example: { id: 1, password: 'newpass2026' },
  errors: [...fails.notFound('员工'), ...fails.conflict(StaffMsg.ownPassword)],
});

export const changePassword = defineCall({
  path: '/api/auth/change/password',
  kind: 'write',
  auth: 'staff',
  req: z.object({
    oldPassword: z.string({ error: StaffMsg.oldPassword }).min(1, StaffMsg.oldPassword).max(128, StaffMsg.passwordLong),
    newPassword: zNewPassword(),
  }),
  res: z.null(),
  summary: '修改自己的密码（结束自己在其他地方的登录）',
  example: { oldPassword: 'demo1234', newPassword: 'better2026pw' },
  errors: [...fails.badRequest(StaffMsg.oldPasswordWrong, StaffMsg.samePassword)],
});

/** The kinds of audit entries (操作日志的类别). */
export const AUDIT_KINDS = {
  session: '课程',
  booking: '预约',
  bulk: '批量操作',
  card: '会员卡',
  member: '会员',
  settings: '设置',
  reference: '基础资料',
  staff: '员工',
  lead: '潜客',
  privacy: '个人信息',
  system: '系统',
} as const;
export type AuditKind = keyof typeof AUDIT_KINDS;

export const zAuditRow = z.object({
  id: z.number(),
  /** `YYYY-MM-DD HH:mm:ss` in the store's time zone. */
  time: z.string(),
  /** Who: a staff member's name, `姓名（会员本人）`, or 系统. */
  staff: z.string(),
  actorKind: z.enum(['staff', 'member', 'system']),
  kind: z.enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]]),
  /** What it was about, in words (a session, a member, a card...). */
  target: z.string(),
  summary: z.string(),
  /** Changed fields before and after (labels in staff words), or null. */
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** A bulk change a manager can still undo now. */
  undoable: z.boolean(),
  /** Set on a bulk change that was undone: when. */
  undoneTime: z.string().nullable(),
});
export type AuditRow = z.infer<typeof zAuditRow>;

export const queryAuditLog = defineCall({
  path: `${STORE_API}/query/audit/log`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    fromDate: zDate(StaffMsg.auditRange),
    toDate: zDate(StaffMsg.auditRange),
    staffId: zOptId(),
    memberId: zOptId(),
    tid: zOptId(),
    kind: z
      .enum(Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]])
      .nullish()
      .transform((v) => v ?? null),
    /** A member's name or mobile (part of it): entries about that member. */
    memberKeyword: z
      .string()
      .trim()
      .max(32)
      .nullish()
      .transform((v) => v || null),
    page: zPage(),
    /** Rows per page: 20 (the screen); an export asks for up to 5000. */
    pageSize: z.number().int().min(1).max(5000).default(20),
  }),
  res: zPaged(zAuditRow),
  idFields: ['staffId', 'memberId', 'tid'],
  summary: '操作日志：按日期、员工、会员、课程、类别筛选（每页20条）',
  example: { fromDate: '2026-11-01', toDate: '2026-11-30', page: 1 },
  // The staff member, member and session filtered on must be the store's.
  errors: [...fails.badRequest(StaffMsg.auditRangeTooLong), ...fails.notFound('员工', '会员', '课程')],
});

/** Most bookings an undo's preview names one by one (per list); the others are counted. */
export const UNDO_PREVIEW_LINES = 50;

/** One booking an undo refunds (or deducts again): who, which card, which class, how much. */
export const zUndoMoneyLine = z.object({
  memberName: z.string(),
  memberMobile: z.string(),
  cardName: z.string(),
  courseName: z.string(),
  /** The class's start, `YYYY-MM-DD HH:mm:ss`. */
  startTime: z.string(),
  /** 1: a count (次); 2: fen (元). */
  bigType: z.number().int(),
  amount: z.number(),
});
export type UndoMoneyLine = z.infer<typeof zUndoMoneyLine>;

const zAmountByKind = z.array(z.object({ bigType: z.number().int(), amount: z.number() }));

/**
 * What an undo would do (`dryRun: true`): the undo itself run in a transaction that is rolled back,
 * and what it wrote read back, so the confirm says exactly what the undo returns.
 */
export const zUndoPreview = z.object({
  /** Sessions it deletes (the change made them) and brings back (the change deleted them). */
  sessionsDeleted: z.number().int(),
  sessionsRestored: z.number().int(),
  /** Bookings (and pendings) it cancels, and brings back. */
  bookingsCancelled: z.number().int(),
  bookingsRestored: z.number().int(),
  /** What it refunds, a line per booking (by class time, at most UNDO_PREVIEW_LINES; `moreRefunds` the rest), in total per card kind, and to how many members. */
  refunds: z.array(zUndoMoneyLine),
  moreRefunds: z.number().int(),
  refundTotal: zAmountByKind,
  refundedMembers: z.number().int(),
  /** What it deducts again (undoing a batch delete), the same way. */
  charges: z.array(zUndoMoneyLine),
  moreCharges: z.number().int(),
  chargeTotal: zAmountByKind,
  chargedMembers: z.number().int(),
});
export type UndoPreview = z.infer<typeof zUndoPreview>;

export const undoBulkChange = defineCall({
  path: `${STORE_API}/undo/bulk/change`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({
    auditId: zId(),
    /** Answer what the undo would do (refunds, charges, sessions) instead of doing it. */
    dryRun: z.boolean({ error: '预览参数应为 true 或 false' }).optional(),
  }),
  /** null once undone; the preview on a dry run. */
  res: zUndoPreview.nullable(),
  idFields: ['auditId'],
  summary: '撤销一次批量操作（24小时内，之后没有相关变动时；dryRun 预览退回的内容）',
  example: { auditId: 1 },
  errors: [
    ...fails.notFound('操作记录'),
    ...fails.conflict(StaffMsg.undoExpired, StaffMsg.undoNotBulk, StaffMsg.undoDone, StaffMsg.undoBlocked('{what}')),
  ],
});

export const staffCalls = [
  queryStaffList,
  querySellerList,
  insertStaff,
  updateStaff,
  resetStaffPassword,
  changePassword,
  queryAuditLog,
  undoBulkChange,
] as const;
