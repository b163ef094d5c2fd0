// Reference data calls (areas, teachers, courses, materials, members, cards, modules, store setting).
import { z } from 'zod';
import { zDate, zEmpty, zFlag, zId, zLimitFields, zMobile, zName, zOptId, zPaged, zText } from '../common.ts';
import { MAX_AMOUNT, MAX_LIST_IDS } from '../constants.ts';
import { defineCall, STORE_API } from '../define.ts';

/** Messages of the reference-data rules (the spec gives none for these screens). */
export const RefMsg = {
  areaCycle: '不能把场地移到它自己或它的下级场地之下',
  materialTooDeep: '教材最多三级：教材、章节、课时',
  chooseModule: '请选择模块',
  deductModeStatus: '扣费模式只能是0或1',
  birthdayFuture: '出生日期不能晚于今天',
  expireRequired: '请选择到期日期',
  productDeleted: '该卡种已停用，不能再发卡',
  bigTypeLocked: '已有会员持有该卡种，不能修改卡类别',
  color: '颜色格式应为 #rrggbb',
  courseCount: '上课人数应在0到10000之间',
  duration: '课程时长应在5到600分钟之间',
  ageRange: '年龄限制的起止范围不正确',
  joinUrl: '在线教室链接应以 http:// 或 https:// 开头',
  teacherHasSessions: '该老师还有未上的课程，无法删除',
  cardName: '请输入卡名称',
  memberName: '请输入会员姓名',
  teacherName: '请输入老师姓名',
  courseName: '请输入课程名称',
  areaName: '请输入场地名称',
  materialName: '请输入教材名称',
  topupAmount: '充值数量必须大于0',
} as const;

/** Largest charge per person per class (a count, or fen: 100 万元). */
const MAX_PER_COUNT = 100_000_000;
/** A whole number 0..max (a count or fen) with its label in every message. */
const zAmount = (label: string, max: number) =>
  z
    .number({ error: `${label}必须是整数` })
    .int(`${label}必须是整数`)
    .min(0, `${label}不能小于0`)
    .max(max, `${label}不能超过${max}`);
const zGender = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '性别取值不正确' });
const zIdList = (error: string) => z.array(zId(error)).max(MAX_LIST_IDS).default([]);
const zStoreIdOpt = () => zOptId();
const zNullableText = (max?: number) =>
  zText(max)
    .nullish()
    .transform((v) => (v ? v : null));

// ---------------------------------------------------------------- members
export const zMemberRow = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string(),
  gender: z.number(),
  birthday: z.string().nullable(),
});
export const zMemberCardRow = z.object({
  id: z.number(),
  cardId: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  cardType: z.number(),
  perCount: z.number(),
  totalCount: z.number(),
  usedCount: z.number(),
  expireTime: z.string().nullable(),
  frozen: z.number(),
});
export type MemberCardRow = z.infer<typeof zMemberCardRow>;

const zMemberFields = {
  name: zName(RefMsg.memberName),
  mobile: zMobile(),
  gender: zGender.default(0),
  birthday: zDate()
    .nullish()
    .transform((v) => v ?? null),
};

export const memberSearch = defineCall({
  path: `${STORE_API}/query/member/search`,
  auth: 'store',
  req: z.object({ param: z.string().trim().max(50).nullish() }),
  res: z.array(zMemberRow),
});

export const memberCardsForCourse = defineCall({
  path: `${STORE_API}/query/member/cards/for/course`,
  auth: 'store',
  req: z.object({ mid: zId('请选择会员'), courseId: zId('请选择课程') }),
  res: z.array(zMemberCardRow.extend({ usable: z.boolean(), reason: z.string().optional() })),
  idFields: ['mid', 'courseId'],
});

export const insertMember = defineCall({
  path: `${STORE_API}/insert/member`,
  auth: 'store',
  req: z.object(zMemberFields),
  res: z.object({ id: z.number() }),
});

export const updateMember = defineCall({
  path: `${STORE_API}/update/member`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员'), ...zMemberFields }),
  res: z.null(),
  idFields: ['id'],
});

export const memberInfo = defineCall({
  path: `${STORE_API}/query/member/info`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员') }),
  res: zMemberRow.extend({ createdAt: z.string(), cards: z.array(zMemberCardRow) }),
  idFields: ['id'],
});

export const memberList = defineCall({
  path: `${STORE_API}/query/member/list`,
  auth: 'store',
  req: z.object({
    page: z.number().int().min(1).max(100_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(10),
    param: z.string().trim().max(50).nullish(),
  }),
  res: zPaged(zMemberRow),
});

// ---------------------------------------------------------------- card products and member cards
export const zCardProduct = z.object({
  id: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  cardType: z.number(),
  perCount: z.number(),
  price: z.number(),
  enabled: z.number(),
  courses: z.array(z.object({ id: z.number(), name: z.string() })),
});

const zProductFields = {
  cardName: zName(RefMsg.cardName),
  bigType: z.union([z.literal(1), z.literal(2)], { error: '卡类别只能是1（次卡）或2（储值卡）' }),
  cardType: z.union([z.literal(1), z.literal(2)], { error: '有效期类型只能是1（有期限）或2（永久有效）' }),
  perCount: zAmount('每次扣除数量', MAX_PER_COUNT),
  price: zAmount('价格', MAX_AMOUNT),
  courseIds: zIdList('课程不正确'),
};

export const cardProductList = defineCall({
  path: `${STORE_API}/query/card/product/list`,
  auth: 'store',
  req: zEmpty,
  res: z.array(zCardProduct),
});

export const insertCardProduct = defineCall({
  path: `${STORE_API}/insert/card/product`,
  auth: 'store',
  req: z.object(zProductFields),
  res: z.object({ id: z.number() }),
  idFields: ['courseIds'],
});

export const updateCardProduct = defineCall({
  path: `${STORE_API}/update/card/product`,
  auth: 'store',
  req: z.object({ id: zId('请选择卡种'), ...zProductFields }),
  res: z.null(),
  idFields: ['id', 'courseIds'],
});

export const deleteCardProduct = defineCall({
  path: `${STORE_API}/delete/card/product`,
  auth: 'store',
  req: z.object({ id: zId('请选择卡种') }),
  res: z.null(),
  idFields: ['id'],
});

export const insertMemberCard = defineCall({
  path: `${STORE_API}/insert/member/card`,
  auth: 'store',
  req: z.object({
    mid: zId('请选择会员'),
    cardId: zId('请选择卡种'),
    totalCount: zAmount('卡内数量', MAX_AMOUNT),
    expireTime: zDate()
      .nullish()
      .transform((v) => v ?? null),
  }),
  res: z.object({ id: z.number() }),
  idFields: ['mid', 'cardId'],
});

export const updateMemberCardStatus = defineCall({
  path: `${STORE_API}/update/member/card/status`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡'), frozen: zFlag() }),
  res: z.null(),
  idFields: ['id'],
});

export const topupMemberCard = defineCall({
  path: `${STORE_API}/update/member/card/topup`,
  auth: 'store',
  req: z.object({
    id: zId('请选择会员卡'),
    amount: z.number({ error: RefMsg.topupAmount }).int(RefMsg.topupAmount).min(1, RefMsg.topupAmount).max(MAX_AMOUNT),
  }),
  res: z.null(),
  idFields: ['id'],
});

export const updateMemberCardExpire = defineCall({
  path: `${STORE_API}/update/member/card/expire`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡'), expireTime: zDate(RefMsg.expireRequired) }),
  res: z.null(),
  idFields: ['id'],
});

export const memberCardLedger = defineCall({
  path: `${STORE_API}/query/member/card/ledger`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡') }),
  res: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      amount: z.number(),
      reservationId: z.number().nullable(),
      timetableId: z.number().nullable(),
      operator: z.string().nullable(),
      remark: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  idFields: ['id'],
});

// ---------------------------------------------------------------- teachers
export const zTeacher = z.object({
  id: z.number(),
  name: z.string(),
  mobile: z.string().nullable(),
  meetingType: z.number().nullable(),
  meetingCode: z.string().nullable(),
  joinUrl: z.string().nullable(),
});

const zTeacherFields = {
  name: zName(RefMsg.teacherName),
  mobile: zMobile()
    .or(z.literal(''))
    .nullish()
    .transform((v) => (v ? v : null)),
  meetingType: z
    .number()
    .int()
    .min(0)
    .max(9)
    .nullish()
    .transform((v) => (v ? v : null)),
  meetingCode: zNullableText(100),
  joinUrl: zText(500)
    .regex(/^https?:\/\/\S+$/, RefMsg.joinUrl)
    .or(z.literal(''))
    .nullish()
    .transform((v) => (v ? v : null)),
};

export const teacherList = defineCall({
  path: `${STORE_API}/query/teacher/list`,
  auth: 'store',
  req: zEmpty,
  res: z.array(zTeacher),
});

export const insertTeacher = defineCall({
  path: `${STORE_API}/insert/teacher`,
  auth: 'store',
  req: z.object(zTeacherFields),
  res: z.object({ id: z.number() }),
});

export const updateTeacher = defineCall({
  path: `${STORE_API}/update/teacher`,
  auth: 'store',
  req: z.object({ id: zId('请选择老师'), ...zTeacherFields }),
  res: z.null(),
  idFields: ['id'],
});

export const deleteTeacher = defineCall({
  path: `${STORE_API}/delete/teacher`,
  auth: 'store',
  req: z.object({ id: zId('请选择老师') }),
  res: z.null(),
  idFields: ['id'],
});

// ---------------------------------------------------------------- areas
export interface AreaNode {
  id: number;
  name: string;
  children: AreaNode[];
}
export const zAreaNode: z.ZodType<AreaNode> = z.lazy(() =>
  z.object({ id: z.number(), name: z.string(), children: z.array(zAreaNode) }),
);

const zSortOpt = () => z.number().int().min(0).max(100_000).optional();
const zSort = () => zSortOpt().default(0);

export const areaTree = defineCall({
  path: `${STORE_API}/query/area/tree`,
  auth: 'store',
  req: zEmpty,
  res: z.array(zAreaNode),
});

export const insertArea = defineCall({
  path: `${STORE_API}/insert/area`,
  auth: 'store',
  req: z.object({ name: zName(RefMsg.areaName), parentId: zOptId(), sort: zSort() }),
  res: z.object({ id: z.number() }),
  idFields: ['parentId'],
});

export const updateArea = defineCall({
  path: `${STORE_API}/update/area`,
  auth: 'store',
  req: z.object({ id: zId('请选择场地'), name: zName(RefMsg.areaName), parentId: zOptId(), sort: zSortOpt() }),
  res: z.null(),
  idFields: ['id', 'parentId'],
});

export const deleteArea = defineCall({
  path: `${STORE_API}/delete/area`,
  auth: 'store',
  req: z.object({ id: zId('请选择场地') }),
  res: z.null(),
  idFields: ['id'],
});

// ---------------------------------------------------------------- materials
export interface MaterialNode {
  id: number;
  name: string;
  level: number;
  children?: MaterialNode[];
}
export const zMaterialNode: z.ZodType<MaterialNode> = z.lazy(() =>
  z.object({ id: z.number(), name: z.string(), level: z.number(), children: z.array(zMaterialNode).optional() }),
);

export const materialList = defineCall({
  path: `${STORE_API}/query/material/list`,
  auth: 'store',
  req: z.object({ storeId: zStoreIdOpt() }),
  res: z.array(zMaterialNode),
  idFields: ['storeId'],
});

export const materialDetail = defineCall({
  path: `${STORE_API}/query/material/detail`,
  auth: 'store',
  req: z.object({ storeId: zStoreIdOpt(), bookId: zId('请选择教材') }),
  res: zMaterialNode,
  idFields: ['storeId', 'bookId'],
});

export const insertMaterial = defineCall({
  path: `${STORE_API}/insert/material`,
  auth: 'store',
  req: z.object({ name: zName(RefMsg.materialName), parentId: zOptId(), sort: zSort() }),
  res: z.object({ id: z.number() }),
  idFields: ['parentId'],
});

export const updateMaterial = defineCall({
  path: `${STORE_API}/update/material`,
  auth: 'store',
  req: z.object({ id: zId('请选择教材'), name: zName(RefMsg.materialName), sort: zSortOpt() }),
  res: z.null(),
  idFields: ['id'],
});

export const deleteMaterial = defineCall({
  path: `${STORE_API}/delete/material`,
  auth: 'store',
  req: z.object({ id: zId('请选择教材') }),
  res: z.null(),
  idFields: ['id'],
});

// ---------------------------------------------------------------- courses
const zAgePart = (max: number) => z.number().int().min(0).max(max).nullish();
const zCourseFields = {
  name: zName(RefMsg.courseName),
  count: z
    .number({ error: RefMsg.courseCount })
    .int(RefMsg.courseCount)
    .min(0, RefMsg.courseCount)
    .max(10_000, RefMsg.courseCount),
  duration: z.number({ error: RefMsg.duration }).int(RefMsg.duration).min(5, RefMsg.duration).max(600, RefMsg.duration),
  color: z.string({ error: RefMsg.color }).regex(/^#[0-9a-fA-F]{6}$/, RefMsg.color),
  genderLimit: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '性别限制取值不正确' }).default(2),
  ageLimit: z.union([z.literal(0), z.literal(1), z.literal(2)], { error: '年龄限制取值不正确' }).default(0),
  syear: zAgePart(2200),
  smonth: zAgePart(12),
  sday: zAgePart(31),
  eyear: zAgePart(2200),
  emonth: zAgePart(12),
  eday: zAgePart(31),
  cardIds: zIdList('会员卡不正确'),
  description: zNullableText(2000),
};

export const zCourse = z.object({
  id: z.number(),
  name: z.string(),
  count: z.number(),
  duration: z.number(),
  color: z.string(),
  ...zLimitFields.shape,
  description: z.string().nullable(),
  enabled: z.number(),
  cards: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type Course = z.infer<typeof zCourse>;

export const courseSimpleList = defineCall({
  path: `${STORE_API}/query/course/simple/list`,
  auth: 'store',
  req: zEmpty,
  res: z.array(z.object({ id: z.number(), name: z.string(), count: z.number() })),
});

export const insertStoreCourse = defineCall({
  path: `${STORE_API}/insert/store/course`,
  auth: 'store',
  req: z.object(zCourseFields),
  res: z.object({ id: z.number() }),
  idFields: ['cardIds'],
});

export const updateStoreCourse = defineCall({
  path: `${STORE_API}/update/store/course`,
  auth: 'store',
  req: z.object({ id: zId('请选择课程'), ...zCourseFields }),
  res: z.null(),
  idFields: ['id', 'cardIds'],
});

export const updateStoreCourseStatus = defineCall({
  path: `${STORE_API}/update/store/course/status`,
  auth: 'store',
  req: z.object({ id: zId('请选择课程'), enabled: zFlag() }),
  res: z.null(),
  idFields: ['id'],
});

export const storeCourseList = defineCall({
  path: `${STORE_API}/query/store/course/list`,
  auth: 'store',
  req: z.object({
    page: z.number().int().min(1).max(100_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(10),
    param: z.string().trim().max(50).nullish(),
  }),
  res: zPaged(zCourse),
});

export const storeCourseById = defineCall({
  path: `${STORE_API}/query/store/course/by/id`,
  auth: 'store',
  req: z.object({ id: zId('请选择课程') }),
  res: zCourse,
  idFields: ['id'],
});

// ---------------------------------------------------------------- store modules and settings
export const moduleStatus = defineCall({
  path: `${STORE_API}/query/module/status`,
  auth: 'store',
  req: z.object({ storeId: zStoreIdOpt(), moduleId: zId(RefMsg.chooseModule) }),
  res: z.object({ status: z.number() }),
  idFields: ['storeId'],
});

export const updateModuleStatus = defineCall({
  path: `${STORE_API}/update/module/status`,
  auth: 'store',
  req: z.object({
    storeId: zStoreIdOpt(),
    moduleId: zId(RefMsg.chooseModule),
    status: z
      .number({ error: '状态取值不正确' })
      .int('状态取值不正确')
      .min(0, '状态取值不正确')
      .max(99, '状态取值不正确'),
  }),
  res: z.null(),
  idFields: ['storeId'],
});

export const storeSetting = defineCall({
  path: `${STORE_API}/query/store/setting`,
  auth: 'store',
  req: z.object({ storeId: zStoreIdOpt() }),
  res: z.object({
    storeName: z.string(),
    logo: z.string().nullable(),
    storeId: z.number(),
    qrCode: z.string().nullable(),
  }),
  idFields: ['storeId'],
});

// ---------------------------------------------------------------- a member's bookings (member detail)
/** Largest page of the member-detail booking lists. */
export const MEMBER_BOOKING_PAGE_MAX = 50;
export const MemberBookingMsg = {
  page: '页码应为正整数',
  pageSize: `每页条数应在1到${MEMBER_BOOKING_PAGE_MAX}之间`,
  scope: '查询范围只能是 upcoming（待上课）或 past（已上课）',
} as const;

/** One booking of a member: a live reservation, or a pending item (sign-in mode) not yet signed in. */
export const zMemberBookingRow = z.object({
  kind: z.enum(['reservation', 'pending']),
  id: z.number(),
  timetableId: z.number(),
  courseName: z.string(),
  teacherName: z.string(),
  areaName: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  studentCount: z.number(),
  /** What the booking deducted (count or fen); 0 for pendings. */
  usedCount: z.number(),
  /** The card product's name; null for pendings. */
  cardName: z.string().nullable(),
  status: z.number(),
  statusText: z.enum(['已预约', '已签到', '待签到']),
  createTime: z.string(),
});
export type MemberBookingRow = z.infer<typeof zMemberBookingRow>;

/** A member's bookings: `upcoming` (session not yet ended, soonest first) or `past` (latest first). */
export const memberReservationList = defineCall({
  path: `${STORE_API}/query/member/reservation/list`,
  auth: 'store',
  req: z.object({
    mid: zId('请选择会员'),
    page: z
      .number({ error: MemberBookingMsg.page })
      .int(MemberBookingMsg.page)
      .min(1, MemberBookingMsg.page)
      .max(100_000, MemberBookingMsg.page)
      .default(1),
    scope: z.enum(['upcoming', 'past'], { error: MemberBookingMsg.scope }).default('upcoming'),
    pageSize: z
      .number({ error: MemberBookingMsg.pageSize })
      .int(MemberBookingMsg.pageSize)
      .min(1, MemberBookingMsg.pageSize)
      .max(MEMBER_BOOKING_PAGE_MAX, MemberBookingMsg.pageSize)
      .default(10),
  }),
  res: zPaged(zMemberBookingRow),
  idFields: ['mid'],
});

export const referenceCalls = [
  memberSearch,
  memberCardsForCourse,
  insertMember,
  updateMember,
  memberInfo,
  memberList,
  cardProductList,
  insertCardProduct,
  updateCardProduct,
  deleteCardProduct,
  insertMemberCard,
  updateMemberCardStatus,
  topupMemberCard,
  updateMemberCardExpire,
  memberCardLedger,
  teacherList,
  insertTeacher,
  updateTeacher,
  deleteTeacher,
  areaTree,
  insertArea,
  updateArea,
  deleteArea,
  materialList,
  materialDetail,
  insertMaterial,
  updateMaterial,
  deleteMaterial,
  courseSimpleList,
  insertStoreCourse,
  updateStoreCourse,
  updateStoreCourseStatus,
  storeCourseList,
  storeCourseById,
  moduleStatus,
  updateModuleStatus,
  storeSetting,
  memberReservationList,
] as const;
