// 私教 and 小班 (issue 43): lesson types, the store's machines, teachers' working hours and the free
// start times of a type (server: features/lessons).
import { z } from 'zod';
import { zDate, zId, zName } from '../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { zIdList, zNullableText } from './reference/shared.ts';

export const LessonMsg = {
  typeName: '请输入课程名称',
  kind: '请选择私教类型（1对1、1对2或小班）',
  maxMembers: '小班人数应在2到6人之间',
  duration: '课时长度应在30到180分钟之间',
  minNotice: '最少提前预约时间应在0到30天之间',
  cancelCutoff: '取消截止时间应在0到30天之间',
  slotStep: '可约时间间隔应为15或30分钟',
  level: '老师级别应为初级、高级或导师',
  price: '价格应在0到100000元之间',
  teachers: '请至少选择一位授课老师',
  priceMissing: (level: string) => `请填写${level}老师的价格`,
  equipmentName: '请输入器械名称',
  equipmentCount: '器械数量应在1到999之间',
  perMember: '每人占用器械数应在1到20之间',
  weekday: '星期应为1到7',
  time: '时间格式应为 HH:mm',
  span: '结束时间应晚于开始时间',
  spanOverlap: (weekday: number) => `星期${'一二三四五六日'[weekday - 1]}的工作时间有重叠`,
  exceptionKind: '请选择休息或加班',
  extraSpan: '加班须填写开始和结束时间',
  range: '查询日期范围不能超过42天',
  members: '人数应在1到6之间',
  membersMax: (n: number) => `该课程每节最多${n}人`,
  ownHoursOnly: '老师只能设置自己的工作时间',
} as const;

export const LESSON_KINDS = ['one_on_one', 'one_on_two', 'small_group'] as const;
export type LessonKind = (typeof LESSON_KINDS)[number];
export const LESSON_KIND_LABEL: Record<LessonKind, string> = {
  one_on_one: '1对1',
  one_on_two: '1对2',
  small_group: '小班',
};
/**
 * How the schedule's reads mark a lesson (a session of a 私教/小班 type): its kind and whether it
 * waits for its teacher (待确认); null for a group class.
 */
export const zLessonMark = z.object({ kind: z.enum(LESSON_KINDS), pending: z.boolean() }).nullable();
export type LessonMark = z.infer<typeof zLessonMark>;
export const TEACHER_LEVELS = ['junior', 'senior', 'master'] as const;
export type TeacherLevel = (typeof TEACHER_LEVELS)[number];
export const TEACHER_LEVEL_LABEL: Record<TeacherLevel, string> = { junior: '初级', senior: '高级', master: '导师' };

const zClock = z.string({ error: LessonMsg.time }).regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, LessonMsg.time);
const zMinutesUpTo30Days = (error: string) =>
  z
    .number({ error })
    .int(error)
    .min(0, error)
    .max(30 * 24 * 60, error);
const zLevel = z.enum(TEACHER_LEVELS, { error: LessonMsg.level });

const zLessonTypeFields = {
  name: zName(LessonMsg.typeName),
  kind: z.enum(LESSON_KINDS, { error: LessonMsg.kind }),
  /** 小班: 2-6; 1对1 and 1对2 take 1 and 2 whatever is sent. */
  maxMembers: z.number({ error: LessonMsg.maxMembers }).int(LessonMsg.maxMembers).optional(),
  duration: z
    .number({ error: LessonMsg.duration })
    .int(LessonMsg.duration)
    .min(30, LessonMsg.duration)
    .max(180, LessonMsg.duration),
  minNoticeMinutes: zMinutesUpTo30Days(LessonMsg.minNotice).default(0),
  cancelCutoffMinutes: zMinutesUpTo30Days(LessonMsg.cancelCutoff).default(0),
  slotStep: z.union([z.literal(15), z.literal(30)], { error: LessonMsg.slotStep }).default(30),
  color: z
    .string({ error: '颜色格式应为 #rrggbb' })
    .regex(/^#[0-9a-fA-F]{6}$/, '颜色格式应为 #rrggbb')
    .default('#13a8a8'),
  description: zNullableText(2000),
  /** Who gives it, each optionally at a level. */
  teachers: z
    .array(z.object({ teacherId: zId('请选择老师'), level: zLevel.nullish().transform((v) => v ?? null) }))
    .min(1, LessonMsg.teachers)
    .max(200),
  /** The price (fen) per level; with no levels, one price with level null. */
  prices: z
    .array(
      z.object({
        level: zLevel.nullish().transform((v) => v ?? null),
        price: z
          .number({ error: LessonMsg.price })
          .int(LessonMsg.price)
          .min(0, LessonMsg.price)
          .max(10_000_000, LessonMsg.price),
      }),
    )
    .max(4)
    .default([]),
  areaIds: zIdList('场地不正确'),
  equipment: z
    .array(
      z.object({
        equipmentId: zId('请选择器械'),
        perMember: z
          .number({ error: LessonMsg.perMember })
          .int(LessonMsg.perMember)
          .min(1, LessonMsg.perMember)
          .max(20, LessonMsg.perMember),
      }),
    )
    .max(20)
    .default([]),
};

export const zLessonType = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(LESSON_KINDS),
  maxMembers: z.number(),
  duration: z.number(),
  minNoticeMinutes: z.number(),
  cancelCutoffMinutes: z.number(),
  slotStep: z.number(),
  color: z.string(),
  description: z.string().nullable(),
  enabled: z.number(),
  teachers: z.array(z.object({ teacherId: z.number(), name: z.string(), level: zLevel.nullable() })),
  prices: z.array(z.object({ level: zLevel.nullable(), price: z.number() })),
  areas: z.array(z.object({ id: z.number(), name: z.string() })),
  equipment: z.array(z.object({ equipmentId: z.number(), name: z.string(), perMember: z.number() })),
});
export type LessonType = z.infer<typeof zLessonType>;

const typeExample: z.input<z.ZodObject<typeof zLessonTypeFields>> = {
  name: '普拉提私教',
  kind: 'one_on_one',
  duration: 60,
  minNoticeMinutes: 120,
  cancelCutoffMinutes: 720,
  slotStep: 30,
  teachers: [
    { teacherId: 1, level: 'senior' },
    { teacherId: 2, level: 'master' },
  ],
  prices: [
    { level: 'senior', price: 30000 },
    { level: 'master', price: 50000 },
  ],
  areaIds: [1],
  equipment: [{ equipmentId: 1, perMember: 1 }],
};

const typeRefusals = [
  ...fails.badRequest(LessonMsg.maxMembers, ...Object.values(TEACHER_LEVEL_LABEL).map(LessonMsg.priceMissing)),
];

export const lessonTypeList = defineCall({
  path: `${STORE_API}/query/lesson/type/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({}).loose(),
  res: z.array(zLessonType),
  summary: '私教/小班课程列表（含授课老师、级别价格、场地和器械）',
  example: {},
});

export const insertLessonType = defineCall({
  path: `${STORE_API}/insert/lesson/type`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object(zLessonTypeFields),
  res: z.object({ id: z.number() }),
  idFields: ['teachers.teacherId', 'areaIds', 'equipment.equipmentId'],
  summary: '新增私教/小班课程',
  example: typeExample,
  errors: [...typeRefusals, ...fails.notFound('老师', '场地', '器械')],
});

export const updateLessonType = defineCall({
  path: `${STORE_API}/update/lesson/type`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId('请选择课程'), ...zLessonTypeFields }),
  res: z.null(),
  idFields: ['id', 'teachers.teacherId', 'areaIds', 'equipment.equipmentId'],
  summary: '修改私教/小班课程（老师、价格、场地、器械整体替换）',
  example: { id: 1, ...typeExample },
  errors: [...typeRefusals, ...fails.notFound('课程', '老师', '场地', '器械')],
});

export const updateLessonTypeStatus = defineCall({
  path: `${STORE_API}/update/lesson/type/status`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId('请选择课程'), enabled: z.union([z.literal(0), z.literal(1)]) }),
  res: z.null(),
  idFields: ['id'],
  summary: '启用或停用私教/小班课程',
  example: { id: 1, enabled: 0 },
  errors: fails.notFound('课程'),
});

const zEquipmentFields = {
  name: zName(LessonMsg.equipmentName),
  count: z
    .number({ error: LessonMsg.equipmentCount })
    .int(LessonMsg.equipmentCount)
    .min(1, LessonMsg.equipmentCount)
    .max(999, LessonMsg.equipmentCount),
  areaId: zId('场地不正确')
    .nullish()
    .transform((v) => v ?? null),
};

export const zEquipment = z.object({
  id: z.number(),
  name: z.string(),
  count: z.number(),
  areaId: z.number().nullable(),
  areaName: z.string().nullable(),
});

export const equipmentList = defineCall({
  path: `${STORE_API}/query/equipment/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({}).loose(),
  res: z.array(zEquipment),
  summary: '器械列表',
  example: {},
});

export const insertEquipment = defineCall({
  path: `${STORE_API}/insert/equipment`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object(zEquipmentFields),
  res: z.object({ id: z.number() }),
  idFields: ['areaId'],
  summary: '新增器械（名称、数量、所在场地）',
  example: { name: '核心床', count: 6, areaId: 1 },
  errors: fails.notFound('场地'),
});

export const updateEquipment = defineCall({
  path: `${STORE_API}/update/equipment`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId('请选择器械'), ...zEquipmentFields }),
  res: z.null(),
  idFields: ['id', 'areaId'],
  summary: '修改器械',
  example: { id: 1, name: '核心床', count: 8, areaId: 1 },
  errors: fails.notFound('器械', '场地'),
});

export const deleteEquipment = defineCall({
  path: `${STORE_API}/delete/equipment`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ id: zId('请选择器械') }),
  res: z.null(),
  idFields: ['id'],
  summary: '删除器械（私教课程不再占用它）',
  example: { id: 1 },
  errors: fails.notFound('器械'),
});

const zSpan = z.object({ startTime: zClock, endTime: zClock });

export const zTeacherHours = z.object({
  teacherId: z.number(),
  weekly: z.array(z.object({ weekday: z.number(), startTime: z.string(), endTime: z.string() })),
  exceptions: z.array(
    z.object({
      id: z.number(),
      date: z.string(),
      kind: z.enum(['off', 'extra']),
      startTime: z.string().nullable(),
      endTime: z.string().nullable(),
      reason: z.string().nullable(),
    }),
  ),
});

export const teacherHoursInfo = defineCall({
  path: `${STORE_API}/query/teacher/hours/info`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ teacherId: zId('请选择老师'), from: zDate().optional(), to: zDate().optional() }),
  res: zTeacherHours,
  idFields: ['teacherId'],
  summary: '一位老师的每周工作时间和例外（休息、加班；可按日期范围）',
  example: { teacherId: 1, from: '2026-12-01', to: '2026-12-31' },
  errors: [{ status: 403, msg: LessonMsg.ownHoursOnly }, ...fails.notFound('老师')],
});

export const updateTeacherWeeklyHours = defineCall({
  path: `${STORE_API}/update/teacher/hours`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({
    teacherId: zId('请选择老师'),
    weekly: z
      .array(
        zSpan.extend({
          weekday: z
            .number({ error: LessonMsg.weekday })
            .int(LessonMsg.weekday)
            .min(1, LessonMsg.weekday)
            .max(7, LessonMsg.weekday),
        }),
      )
      .max(70),
  }),
  res: z.null(),
  idFields: ['teacherId'],
  summary: '设置老师的每周工作时间（每天可多段，整体替换；老师只能设置自己的）',
  example: {
    teacherId: 1,
    weekly: [
      { weekday: 1, startTime: '09:00', endTime: '12:00' },
      { weekday: 1, startTime: '14:00', endTime: '20:00' },
    ],
  },
  errors: [
    ...fails.badRequest(LessonMsg.span, ...[1, 2, 3, 4, 5, 6, 7].map(LessonMsg.spanOverlap)),
    { status: 403, msg: LessonMsg.ownHoursOnly },
    ...fails.notFound('老师'),
  ],
});

export const insertTeacherHoursException = defineCall({
  path: `${STORE_API}/insert/teacher/hours/exception`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({
    teacherId: zId('请选择老师'),
    date: zDate(),
    kind: z.enum(['off', 'extra'], { error: LessonMsg.exceptionKind }),
    /** Both absent for 'off': the whole day. */
    startTime: zClock.nullish().transform((v) => v ?? null),
    endTime: zClock.nullish().transform((v) => v ?? null),
    reason: zNullableText(200),
  }),
  res: z.object({ id: z.number() }),
  idFields: ['teacherId'],
  summary: '添加老师的休息（全天或时段）或加班时段',
  example: { teacherId: 1, date: '2026-12-24', kind: 'off', startTime: null, endTime: null, reason: '请假' },
  errors: [
    ...fails.badRequest(LessonMsg.extraSpan, LessonMsg.span),
    { status: 403, msg: LessonMsg.ownHoursOnly },
    ...fails.notFound('老师'),
  ],
});

export const deleteTeacherHoursException = defineCall({
  path: `${STORE_API}/delete/teacher/hours/exception`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ id: zId('请选择记录') }),
  res: z.null(),
  idFields: ['id'],
  summary: '删除老师的一条休息或加班',
  example: { id: 1 },
  errors: [{ status: 403, msg: LessonMsg.ownHoursOnly }, ...fails.notFound('记录')],
});

export const zSlotsReq = z.object({
  courseId: zId('请选择课程'),
  /** Absent or empty: every teacher who gives the type (任意老师). */
  teacherIds: zIdList('老师不正确'),
  from: zDate(),
  to: zDate(),
  members: z
    .number({ error: LessonMsg.members })
    .int(LessonMsg.members)
    .min(1, LessonMsg.members)
    .max(6, LessonMsg.members)
    .default(1),
});

/** Free start times by day, then by teacher. */
export const zSlotDays = z.array(
  z.object({
    date: z.string(),
    teachers: z.array(
      z.object({
        teacherId: z.number(),
        name: z.string(),
        level: zLevel.nullable(),
        slots: z.array(z.object({ startTime: z.string(), endTime: z.string(), areaId: z.number().nullable() })),
      }),
    ),
  }),
);

export const lessonFreeSlots = defineCall({
  path: `${STORE_API}/query/lesson/free/slots`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: zSlotsReq,
  res: zSlotDays,
  idFields: ['courseId'],
  summary: '私教/小班的可约时间（按日期、老师分组；老师、场地、器械都空闲且满足提前预约时间）',
  example: { courseId: 1, teacherIds: [], from: '2026-12-08', to: '2026-12-14', members: 1 },
  errors: [
    ...fails.badRequest(LessonMsg.range, ...[1, 2, 3, 4, 5].map(LessonMsg.membersMax)),
    ...fails.notFound('课程'),
  ],
});

/** A span of one day, `HH:mm` to `HH:mm` (the day's end: 24:00). */
const zDaySpan = z.object({ startTime: z.string(), endTime: z.string() });

/** Each teacher's hours of a day: when they work, and the part of it free (no class, no lesson). */
export const zTeacherDayHours = z.array(
  z.object({
    teacherId: z.number(),
    /** Weekly hours and extra hours less time off (休息). */
    work: z.array(zDaySpan),
    /** The working spans less the teacher's live group classes and lessons: where a lesson can go. */
    free: z.array(zDaySpan),
  }),
);
export type TeacherDayHours = z.infer<typeof zTeacherDayHours>;

export const teacherDayHours = defineCall({
  path: `${STORE_API}/query/teacher/hours/day`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ date: zDate('请选择日期') }),
  res: zTeacherDayHours,
  summary: '某天各位老师的工作时间和其中的空闲时间（老师账号只看自己）',
  example: { date: '2026-12-08' },
});

export const lessonCalls = [
  lessonTypeList,
  insertLessonType,
  updateLessonType,
  updateLessonTypeStatus,
  equipmentList,
  insertEquipment,
  updateEquipment,
  deleteEquipment,
  teacherHoursInfo,
  updateTeacherWeeklyHours,
  insertTeacherHoursException,
  deleteTeacherHoursException,
  lessonFreeSlots,
  teacherDayHours,
] as const;
