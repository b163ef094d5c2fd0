// Teachers (server: features/reference/teacher).
import { z } from 'zod';
import { zEmpty, zId, zMobile, zName, zText } from '../../common.ts';
import { defineCall, STORE_API } from '../../define.ts';
import { RefMsg, zNullableText } from './shared.ts';

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

export const teacherCalls = [teacherList, insertTeacher, updateTeacher, deleteTeacher] as const;
