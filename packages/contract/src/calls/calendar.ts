// Calendar feeds (issue 29): a private iCalendar address a phone's calendar subscribes to, for a
// member's bookings and for a teacher's classes (server: features/calendar-feed).
import { z } from 'zod';
import { zEmpty, zId } from '../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { Msg } from '../messages.ts';
import { MEMBER_API } from './member-channel.ts';

/** A private calendar address: `url` (https) and the same as `webcal` (a phone opens its calendar app with it). */
export const zCalendarFeed = z.object({ url: z.string(), webcal: z.string() });
export type CalendarFeed = z.infer<typeof zCalendarFeed>;

export const memberCalendarFeed = defineCall({
  path: `${MEMBER_API}/query/calendar/feed`,
  kind: 'read',
  auth: 'member',
  req: zEmpty,
  res: zCalendarFeed,
  summary: '会员端：我的课程日历订阅地址（添加到手机日历；取消的预约会从日历消失）',
  example: {},
});

export const resetMemberCalendarFeed = defineCall({
  path: `${MEMBER_API}/reset/calendar/feed`,
  kind: 'write',
  auth: 'member',
  req: zEmpty,
  res: zCalendarFeed,
  summary: '会员端：重新生成日历订阅地址（旧地址立即失效）',
  example: {},
});

export const teacherCalendarFeed = defineCall({
  path: `${STORE_API}/query/teacher/calendar/feed`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ teacherId: zId('请选择老师') }),
  res: zCalendarFeed,
  idFields: ['teacherId'],
  summary: '老师的上课日历订阅地址（老师账号只能查看自己的）',
  example: { teacherId: 1 },
  errors: [...fails.notFound('老师'), { status: 403, msg: Msg.forbiddenSession }],
});

export const resetTeacherCalendarFeed = defineCall({
  path: `${STORE_API}/reset/teacher/calendar/feed`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ teacherId: zId('请选择老师') }),
  res: zCalendarFeed,
  idFields: ['teacherId'],
  summary: '重新生成老师的日历订阅地址（旧地址立即失效）',
  example: { teacherId: 1 },
  errors: [...fails.notFound('老师'), { status: 403, msg: Msg.forbiddenSession }],
});

export const calendarCalls = [
  memberCalendarFeed,
  resetMemberCalendarFeed,
  teacherCalendarFeed,
  resetTeacherCalendarFeed,
] as const;
