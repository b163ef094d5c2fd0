// Online classroom calls (spec section 7: create / cancel meeting), the store's meeting-provider
// settings, the online state of one session, and sending the weekly timetable picture to the store's
// WeCom group robot.
import { z } from 'zod';
import { zEmpty, zId } from '../common.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';

/** Messages of the online classroom and messaging calls (the spec words none of them). */
export const OnlineMsg = {
  noFixedRoom: '该老师未设置固定会议室',
  notConfigured: (name: string) => `${name}未配置`,
  unknownType: (type: number) => `不支持的在线教室类型：${type}`,
  roomExists: '该课程已有在线教室',
  noRoom: '该课程没有在线教室',
  stateChanged: '在线教室状态已变化，请刷新后重试',
  waitingForBooking: '还没有会员预约，在线教室会在第一位会员预约后创建',
  createType: '创建类型只能是1（按需创建）或2（立即创建）',
  jitsiBaseUrl: 'Jitsi 地址应为以 http:// 或 https:// 开头的网址',
  providerName: (name: string) => `未知的会议服务：${name}`,
  webhookMissing: '门店未设置企业微信群机器人 webhookUrl',
  pictureDataUrl: '图片应为 data:image/png;base64, 格式',
  pictureTooLarge: '图片不能超过2MB',
  /** The meeting service failed to make an on-demand room (its own words after the colon). */
  createFailed: (reason: string) => `创建在线教室失败：${reason}`,
} as const;

/** Online tool types (spec section 3): 1-3 the teacher's fixed room, 4-6 and 9 created through an API. */
export const FIXED_ROOM_TYPES = [1, 2, 3] as const;
export const DYNAMIC_ROOM_TYPES = [4, 5, 6, 9] as const;
/** Provider names a dynamic type can be served by. */
export const PROVIDER_NAMES = ['jitsi', 'zoom', 'tencent', 'classin'] as const;
/** Largest picture the WeCom robot takes (2 MB before base64). */
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;

/** meetingInfo of a session (spec section 3); duration in seconds, 0 until the provider reports one. */
export const zMeetingInfo = z.object({
  meetingType: z.number(),
  meetingCode: z.string(),
  joinUrl: z.string(),
  duration: z.number(),
  type: z.number(),
});
export type MeetingInfo = z.infer<typeof zMeetingInfo>;

export const createTimetableMeeting = defineCall({
  path: `${STORE_API}/create/timetable/meeting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'id', via: 'session' },
  req: z.object({
    id: zId(),
    type: z.union([z.literal(1), z.literal(2)], { error: OnlineMsg.createType }),
  }),
  res: z.null(),
  idFields: ['id'],
  summary: '创建在线教室（1 按需创建，2 立即创建）',
  example: { id: 1, type: 2 },
  errors: [
    ...fails.notFound('课程'),
    ...fails.conflict(
      OnlineMsg.roomExists,
      OnlineMsg.stateChanged,
      OnlineMsg.noFixedRoom,
      OnlineMsg.notConfigured('{会议服务}'),
      OnlineMsg.unknownType(0).replace('0', '{类型}'),
      OnlineMsg.providerName('{名称}'),
    ),
  ],
});

/** The desk's "try now" for an on-demand room whose creation failed (the outbox retries it anyway). */
export const retryTimetableMeeting = defineCall({
  path: `${STORE_API}/retry/timetable/meeting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'id', via: 'session' },
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '立即重试创建按需在线教室（上次失败时）；已创建则直接成功',
  example: { id: 1 },
  errors: [
    ...fails.notFound('课程'),
    // The room's own refusals, and a failure of the meeting service (also kept on the session).
    ...fails.conflict(
      OnlineMsg.noRoom,
      OnlineMsg.waitingForBooking,
      OnlineMsg.stateChanged,
      OnlineMsg.noFixedRoom,
      OnlineMsg.notConfigured('{会议服务}'),
      OnlineMsg.unknownType(0).replace('0', '{类型}'),
      OnlineMsg.providerName('{名称}'),
      OnlineMsg.createFailed('{原因}'),
    ),
  ],
});

export const cancelTimetableOnline = defineCall({
  path: `${STORE_API}/cancel/timetable/online`,
  kind: 'write',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'id', via: 'session' },
  req: z.object({ id: zId() }),
  res: z.null(),
  idFields: ['id'],
  summary: '取消在线教室',
  example: { id: 1 },
  errors: [...fails.notFound('课程'), ...fails.conflict(OnlineMsg.noRoom, OnlineMsg.stateChanged)],
});

/** The online state of one session, with the last room-creation failure (shown on the panel). */
export const zOnlineState = z.object({
  id: z.number(),
  isOnline: z.number(),
  meetingId: z.string().nullable(),
  meetingInfo: z.record(z.string(), z.unknown()).nullable(),
  meetingError: z.string().nullable(),
});
export type OnlineState = z.infer<typeof zOnlineState>;

export const queryTimetableOnline = defineCall({
  path: `${STORE_API}/query/timetable/online`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  teacherOwns: { field: 'id', via: 'session' },
  req: z.object({ id: zId() }),
  res: zOnlineState,
  idFields: ['id'],
  summary: '一节课的在线教室状态',
  example: { id: 1 },
  errors: fails.notFound('课程'),
});

const zBaseUrl = z
  .string()
  .trim()
  .max(500, OnlineMsg.jitsiBaseUrl)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.search && !u.hash;
      } catch {
        return false;
      }
    },
    { error: OnlineMsg.jitsiBaseUrl },
  )
  .transform((v) => v.replace(/\/+$/, ''));

const zProviderName = z.enum(PROVIDER_NAMES, { error: (i) => OnlineMsg.providerName(String(i.input)) });

/** The store's meeting settings: the Jitsi Meet base URL and which provider serves each dynamic type. */
export const zOnlineSetting = z.object({
  jitsiBaseUrl: zBaseUrl.nullish().transform((v) => v ?? null),
  /** Dynamic type ('4', '5', '6', '9') -> provider name; a type not listed is served by Jitsi. */
  providers: z
    .object({
      4: zProviderName.optional(),
      5: zProviderName.optional(),
      6: zProviderName.optional(),
      9: zProviderName.optional(),
    })
    .strict()
    .nullish()
    .transform((v) => v ?? {}),
  /** The type used for a teacher without a meeting type. */
  defaultType: z
    .union([z.literal(4), z.literal(5), z.literal(6), z.literal(9)])
    .nullish()
    .transform((v) => v ?? 4),
});
export type OnlineSetting = z.output<typeof zOnlineSetting>;

export const queryOnlineSetting = defineCall({
  path: `${STORE_API}/query/store/online/setting`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: zEmpty,
  res: zOnlineSetting,
  summary: '门店的在线会议设置',
  example: {},
});

export const updateOnlineSetting = defineCall({
  path: `${STORE_API}/update/store/online/setting`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zOnlineSetting,
  res: z.null(),
  summary: '修改门店的在线会议设置',
  example: { jitsiBaseUrl: 'https://meet.example.com', providers: { 4: 'jitsi' }, defaultType: 4 },
});

/** Sends the weekly timetable picture (a PNG data URL) to the store's WeCom group robot. */
export const sendTimetablePicture = defineCall({
  path: `${STORE_API}/send/timetable/picture`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    image: z
      .string({ error: OnlineMsg.pictureDataUrl })
      .max(Math.ceil((PICTURE_MAX_BYTES * 4) / 3) + 100, OnlineMsg.pictureTooLarge)
      .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/, OnlineMsg.pictureDataUrl),
  }),
  res: z.null(),
  bodyLimit: 3 * 1024 * 1024 + 4096,
  summary: '把周课表图发到门店企业微信群机器人',
  example: { image: 'data:image/png;base64,iVBORw0KGgo=' },
  errors: [...fails.badRequest(OnlineMsg.pictureTooLarge), ...fails.conflict(OnlineMsg.webhookMissing)],
});

export const onlineCalls = [
  createTimetableMeeting,
  retryTimetableMeeting,
  cancelTimetableOnline,
  queryTimetableOnline,
  queryOnlineSetting,
  updateOnlineSetting,
  sendTimetablePicture,
] as const;
