// Teachers (server: features/reference/teacher).
import { z } from 'zod';
import { zEmpty, zId, zMobile, zName, zText } from '../../common.ts';
import { defineCall, fails, FullMobiles, STORE_API, Roles } from '../../define.ts';
import { Msg } from '../../messages.ts';
import { RefMsg, zNullableText } from './shared.ts';

export const zTeacher = z.object({
  id: z.number(),
  name: z.string(),
  /** null when not set, and for a teacher account every other teacher's (a teacher sees only their own). */
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
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  fullMobiles: FullMobiles.colleagues,
  req: zEmpty,
  res: z.array(zTeacher),
  summary: '老师列表（老师账号只看到自己的手机号）',
  example: {},
});

export const insertTeacher = defineCall({
  path: `${STORE_API}/insert/teacher`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object(zTeacherFields),
  res: z.object({ id: z.number() }),
  summary: '新增老师（可带固定在线会议室）',
  example: {
    name: '李老师',
    mobile: '13900139000',
    meetingType: 1,
    meetingCode: '123 456 789',
    joinUrl: 'https://meeting.example.com/j/123456789',
  },
});

export const updateTeacher = defineCall({
  path: `${STORE_API}/update/teacher`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择老师'), ...zTeacherFields }),
  res: z.null(),
  idFields: ['id'],
  summary: '修改老师',
  example: { id: 1, name: '李老师', mobile: '13900139000' },
  errors: fails.notFound('老师'),
});

export const deleteTeacher = defineCall({
  path: `${STORE_API}/delete/teacher`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ id: zId('请选择老师') }),
  res: z.null(),
  idFields: ['id'],
  summary: '删除老师（还有未上的课程或周课表在用时拒绝）',
  example: { id: 1 },
  errors: [...fails.notFound('老师'), ...fails.conflict(RefMsg.teacherHasSessions, Msg.inUse('老师'))],
});

export const teacherCalls = [teacherList, insertTeacher, updateTeacher, deleteTeacher] as const;
