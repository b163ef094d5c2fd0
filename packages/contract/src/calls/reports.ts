// The manager's numbers (数据报表) and card alerts (server: features/reports).
import { z } from 'zod';
import { zCount, zDate, zFlag, zTime } from '../common.ts';
import { MAX_AMOUNT } from '../constants.ts';
import { defineCall, fails, STORE_API, Roles } from '../define.ts';
import { Msg } from '../messages.ts';
import { checkRange } from './batch.ts';
import { LESSON_KINDS, TEACHER_LEVELS } from './lessons.ts';

/** A report covers at most a year and a day (a leap year, or "the last 12 months" ending today). */
export const REPORT_MAX_DAYS = 366;
export const ReportMsg = {
  rangeMax: `报表的日期范围最多${REPORT_MAX_DAYS}天`,
  days: '请填写到期天数（0-365）',
  minCount: '请填写剩余次数（0-1000）',
  minMoney: '请填写余额（元）',
  inactiveDays: '请填写天数（1-365）',
  digestTime: '请选择推送时间',
  asOfFuture: '截至日期不能晚于今天',
} as const;

export const zReportRange = z
  .object({ fromDate: zDate(Msg.chooseDates), toDate: zDate(Msg.chooseDates) })
  .superRefine((v, ctx) => checkRange(ctx, v.fromDate, v.toDate, 'toDate', REPORT_MAX_DAYS, ReportMsg.rangeMax));
/** The refusals of a report's range (worded by its refinement, so declared by each call). */
export const reportRangeErrors = fails.badRequest(Msg.rangeOrder, ReportMsg.rangeMax);
const rangeExample = { fromDate: '2026-11-01', toDate: '2026-11-30' };

/** A manager's report over a range of dates (zReportRange): read only, refused as a range is. */
function rangeReport<Res extends z.ZodType>(o: { path: string; res: Res; summary: string }) {
  return defineCall({
    path: o.path,
    kind: 'read',
    auth: 'store',
    roles: Roles.manager,
    req: zReportRange,
    res: o.res,
    summary: o.summary,
    example: rangeExample,
    errors: reportRangeErrors,
  });
}

/** Seats and fill of a group of live sessions. */
const zFill = { sessions: z.number().int(), seats: z.number().int(), booked: z.number().int(), fillRate: z.number() };

export const zReportOverview = z.object({
  ...zFill,
  /** People signed in (a pending signed in, mode 1; a booking marked attended, mode 0). */
  signedIn: z.number().int(),
  /**
   * People not come by the end of their session: pendings never signed in (签到后扣费), and bookings
   * not marked 到店 in a class whose attendance was taken (预约即扣费).
   */
  noShows: z.number().int(),
  /** Bookings cancelled after their session had started. */
  lateCancels: z.number().int(),
  /** Classes deducted from count cards, net of refunds, for sessions in the range. */
  countUsed: z.number().int(),
  /** Fen deducted from money cards, net of refunds, for sessions in the range. */
  moneyUsed: z.number().int(),
  cardsSold: z.number().int(),
  /** Fen received for card sales, top-ups and transfer fees in the range, less refunds. */
  moneyReceived: z.number().int(),
  /** The same money by channel (desk 前台, online 线上: orders paid through WeChat Pay or Alipay) and method. */
  moneySplit: z.array(z.object({ channel: z.enum(['desk', 'online']), method: z.string(), amount: z.number().int() })),
  newMembers: z.number().int(),
  /** Members with at least one live booking or signed-in pending in a session of the range. */
  activeMembers: z.number().int(),
});

export const reportOverview = rangeReport({
  path: `${STORE_API}/query/report/overview`,
  res: zReportOverview,
  summary: '数据报表总览：课程、座位、预约、上座率、签到、爽约、迟到取消、课消、售卡、收款、新会员、活跃会员',
});

export const reportByCourse = rangeReport({
  path: `${STORE_API}/query/report/by/course`,
  res: z.array(z.object({ courseId: z.number().int(), courseName: z.string(), ...zFill })),
  summary: '按课程统计：节数、座位、预约人数、上座率',
});

export const reportByTeacher = rangeReport({
  path: `${STORE_API}/query/report/by/teacher`,
  res: z.array(
    z.object({
      teacherId: z.number().int(),
      teacherName: z.string(),
      sessions: z.number().int(),
      booked: z.number().int(),
      signedIn: z.number().int(),
    }),
  ),
  summary: '按老师统计：上课节数、预约人数、签到人数',
});

export const reportBySlot = rangeReport({
  path: `${STORE_API}/query/report/by/slot`,
  res: z.array(z.object({ weekday: z.number().int(), hour: z.number().int(), ...zFill })),
  summary: '按时段统计（星期 x 开课小时）：节数、座位、预约人数、上座率',
});

export const reportByDay = rangeReport({
  path: `${STORE_API}/query/report/by/day`,
  res: z.array(z.object({ date: z.string(), ...zFill, signedIn: z.number().int() })),
  summary: '每日趋势：每天的节数、座位、预约人数、上座率、签到人数',
});

export const zCardAlertReason = z.enum(['expiring', 'lowCount', 'lowMoney']);
export const cardAlertList = defineCall({
  path: `${STORE_API}/query/card/alert/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    days: zCount(ReportMsg.days, 365).default(30),
    minCount: zCount(ReportMsg.minCount, 1000).default(2),
    minMoney: zCount(ReportMsg.minMoney, MAX_AMOUNT).default(10_000),
  }),
  res: z.array(
    z.object({
      member: z.object({ id: z.number(), name: z.string(), mobile: z.string() }),
      card: z.object({ id: z.number(), cardName: z.string(), bigType: z.number() }),
      /** Classes left (count cards) or fen left (money cards). */
      balance: z.number().int(),
      expireTime: z.string().nullable(),
      reasons: z.array(zCardAlertReason),
    }),
  ),
  summary: '会员卡提醒：即将到期、次数不足、余额不足（不含冻结和已过期的卡）',
  example: { days: 30, minCount: 2, minMoney: 10000 },
});

/** The daily card-alert digest to the store's WeCom robot: when, and with which thresholds. */
export const zAlertDigest = z.object({
  enabled: zFlag(),
  /** Store-local `HH:mm`: sent once a day at or after this time. */
  time: zTime(ReportMsg.digestTime),
  days: zCount(ReportMsg.days, 365),
  minCount: zCount(ReportMsg.minCount, 1000),
  minMoney: zCount(ReportMsg.minMoney, MAX_AMOUNT),
});
export type AlertDigest = z.infer<typeof zAlertDigest>;
export const ALERT_DIGEST_DEFAULT: AlertDigest = { enabled: 0, time: '09:00', days: 30, minCount: 2, minMoney: 10_000 };

export const queryAlertDigest = defineCall({
  path: `${STORE_API}/query/card/alert/digest`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({}).loose(),
  res: zAlertDigest,
  summary: '会员卡提醒每日推送（企业微信群机器人）的设置',
  example: {},
});

export const updateAlertDigest = defineCall({
  path: `${STORE_API}/update/card/alert/digest`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: zAlertDigest,
  res: z.null(),
  summary: '保存会员卡提醒每日推送的设置：是否推送、推送时间和提醒条件',
  example: { enabled: 1, time: '09:00', days: 30, minCount: 2, minMoney: 10000 },
});

export const inactiveMemberList = defineCall({
  path: `${STORE_API}/query/member/inactive/list`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({
    days: z
      .number({ error: ReportMsg.inactiveDays })
      .int({ error: ReportMsg.inactiveDays })
      .min(1, { error: ReportMsg.inactiveDays })
      .max(365, { error: ReportMsg.inactiveDays })
      .default(30),
  }),
  res: z.array(
    z.object({
      member: z.object({ id: z.number(), name: z.string(), mobile: z.string() }),
      /** Start of the member's last class attended or booked (not cancelled) before now; null: never. */
      lastVisit: z.string().nullable(),
      /** Cards not frozen and not expired: someone worth calling back. */
      liveCards: z.number().int(),
    }),
  ),
  summary: '久未到店会员：最近 N 天没有上过课（或从未上课）且入会已满 N 天的会员',
  example: { days: 30 },
});

// 私教 and 小班 reports (issue 43 item 8; server: features/reports/lesson-reports.ts).

/**
 * Lessons of a lesson type given by a teacher in the range: live lessons starting in it (`lessons`),
 * those ended by now (`taught`), seats taken, people who came, what cards gave for them (lessons
 * from count cards, fen from 储值卡) and their value (`revenue`, fen: from a 储值卡 the fen taken, from
 * a count card its share of what was paid for the card, paid × lessons ÷ the card's total).
 */
export const zLessonReportRow = z.object({
  courseId: z.number().int(),
  courseName: z.string(),
  kind: z.enum(LESSON_KINDS),
  teacherId: z.number().int(),
  teacherName: z.string(),
  lessons: z.number().int(),
  taught: z.number().int(),
  booked: z.number().int(),
  signedIn: z.number().int(),
  countUsed: z.number().int(),
  moneyUsed: z.number().int(),
  revenue: z.number().int(),
});

export const reportLessons = rangeReport({
  path: `${STORE_API}/query/report/lesson/by/type`,
  res: z.array(zLessonReportRow),
  summary: '私教/小班按课程和老师统计：节数、已上节数、预约人数、签到人数、课消（次数、储值金额）和课消金额',
});

/**
 * A teacher's week (Monday `weekStart`, the days of it inside the range): minutes of working hours
 * (weekly hours and extra hours less time off), minutes of them taken by live sessions (group classes
 * and lessons), minutes of lessons, and the rate taken / working (4 decimals; 0 without hours).
 * Weeks without hours or lessons (a teacher of group classes only) are left out.
 */
export const reportLessonUtilisation = rangeReport({
  path: `${STORE_API}/query/report/lesson/utilisation`,
  res: z.array(
    z.object({
      teacherId: z.number().int(),
      teacherName: z.string(),
      weekStart: z.string(),
      workMinutes: z.number().int(),
      bookedMinutes: z.number().int(),
      lessonMinutes: z.number().int(),
      rate: z.number(),
    }),
  ),
  summary: '老师排课率：每位老师每周的工作时长、已约时长（团课和私教）、私教时长和排课率',
});

/**
 * Per lesson pack product (私教课包): cards sold and lessons put on cards (sales and top-ups) on a
 * date of the range, money received for them (less refunds, fen), lessons taken for sessions of the
 * range and their value (fen).
 */
export const reportLessonPacks = rangeReport({
  path: `${STORE_API}/query/report/lesson/packs`,
  res: z.array(
    z.object({
      productId: z.number().int(),
      cardName: z.string(),
      teacherId: z.number().int().nullable(),
      teacherLevel: z.enum(TEACHER_LEVELS).nullable(),
      cardsSold: z.number().int(),
      lessonsSold: z.number().int(),
      moneyReceived: z.number().int(),
      lessonsUsed: z.number().int(),
      usedValue: z.number().int(),
    }),
  ),
  summary: '私教课包销售与消耗：售出张数、售出课时、收款、消耗课时和消耗金额',
});

const zOutstanding = {
  cards: z.number().int(),
  lessons: z.number().int(),
  /** Fen: each card's lessons left × what was paid for each (paid × left ÷ total, 不足 1 分舍去). */
  value: z.number().int(),
};
/**
 * 预收款: the lessons not yet taken on lesson packs that are neither refunded nor expired (frozen
 * ones included) and what they are worth, now (`asOf`, the store's date), per product and in total.
 */
export const reportLessonOutstanding = defineCall({
  path: `${STORE_API}/query/report/lesson/outstanding`,
  kind: 'read',
  auth: 'store',
  roles: Roles.manager,
  req: z
    .object({
      /** 截至哪一天（当天结束时）; absent: today, now. */
      date: zDate('请选择截至日期').optional(),
    })
    .loose(),
  res: z.object({
    asOf: z.string(),
    total: z.object(zOutstanding),
    products: z.array(z.object({ productId: z.number().int(), cardName: z.string(), ...zOutstanding })),
  }),
  summary:
    '未消耗课时（预收款）：截至某日（默认今天）未退、未过期的私教课包剩余课时及其金额，按卡种和合计；过去的日期由会员卡流水倒推',
  example: { date: '2026-12-01' },
  errors: fails.badRequest(ReportMsg.asOfFuture),
});

export const reportCalls = [
  reportOverview,
  reportByCourse,
  reportByTeacher,
  reportBySlot,
  reportByDay,
  reportLessons,
  reportLessonUtilisation,
  reportLessonPacks,
  reportLessonOutstanding,
  cardAlertList,
  inactiveMemberList,
  queryAlertDigest,
  updateAlertDigest,
];
