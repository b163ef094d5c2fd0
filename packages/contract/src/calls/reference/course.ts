// Courses: the kinds of class a store runs; each session is of one course (server: features/reference/course).
import { z } from 'zod';
import { zEmpty, zFlag, zId, zLimitFields, zName, zPaged } from '../../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../../define.ts';
import { RefMsg, zIdList, zListPage, zNullableText } from './shared.ts';

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
  /**
   * 少儿课程: its receipt has a line for a parent's signature (家长签字). true/false (or 1/0);
   * absent: a new course is not one, an edited course keeps what it was.
   */
  forChildren: z
    .union([z.boolean(), z.literal(0), z.literal(1)], { error: '少儿课程取值不正确' })
    .optional()
    .transform((v) => (v === undefined ? undefined : Boolean(v))),
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
  /** 少儿课程: its receipt has a line for a parent's signature (家长签字). */
  forChildren: z.boolean(),
  cards: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type Course = z.infer<typeof zCourse>;

export const courseSimpleList = defineCall({
  path: `${STORE_API}/query/course/simple/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: zEmpty,
  res: z.array(z.object({ id: z.number(), name: z.string(), count: z.number() })),
  summary: '课程下拉列表（id、名称、默认人数）',
  example: {},
});

export const insertStoreCourse = defineCall({
  path: `${STORE_API}/insert/store/course`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object(zCourseFields),
  res: z.object({ id: z.number() }),
  idFields: ['cardIds'],
  summary: '新增课程',
  example: {
    name: '瑜伽基础',
    count: 20,
    duration: 60,
    color: '#1677ff',
    genderLimit: 2,
    ageLimit: 0,
    cardIds: [1],
    description: '适合初学者',
    forChildren: false,
  },
  errors: [...fails.badRequest(RefMsg.ageRange), ...fails.notFound('卡种')],
});

export const updateStoreCourse = defineCall({
  path: `${STORE_API}/update/store/course`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择课程'), ...zCourseFields }),
  res: z.null(),
  idFields: ['id', 'cardIds'],
  summary: '修改课程',
  example: { id: 1, name: '瑜伽基础', count: 20, duration: 60, color: '#1677ff', cardIds: [1] },
  errors: [...fails.badRequest(RefMsg.ageRange), ...fails.notFound('课程', '卡种')],
});

export const updateStoreCourseStatus = defineCall({
  path: `${STORE_API}/update/store/course/status`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择课程'), enabled: zFlag() }),
  res: z.null(),
  idFields: ['id'],
  summary: '启用或停用课程',
  example: { id: 1, enabled: 0 },
  errors: fails.notFound('课程'),
});

export const storeCourseList = defineCall({
  path: `${STORE_API}/query/store/course/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zListPage(),
  res: zPaged(zCourse),
  summary: '课程管理列表（分页，可按名称搜索）',
  example: { page: 1, pageSize: 10, param: '瑜伽' },
});

export const storeCourseById = defineCall({
  path: `${STORE_API}/query/store/course/by/id`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择课程') }),
  res: zCourse,
  idFields: ['id'],
  summary: '一个课程的详情',
  example: { id: 1 },
  errors: fails.notFound('课程'),
});

export const courseCalls = [
  courseSimpleList,
  insertStoreCourse,
  updateStoreCourse,
  updateStoreCourseStatus,
  storeCourseList,
  storeCourseById,
] as const;
