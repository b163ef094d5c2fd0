import { BATCH_DELETE_MAX_DAYS } from './constants.ts';

/** Chinese messages: the spec's exact wording where it gives one (sections 5 and 8). */
export const Msg = {
  // generic
  submitFailed: '提交失败，请检查是否填写正确',
  fillAll: '请补全',
  chooseMember: '请选择会员',
  badRequest: '请求参数不正确',
  badJson: '请求内容不是有效的 JSON',
  nulCharacter: '请求内容包含无效字符',
  unsupportedMedia: '请求格式不支持，请使用 JSON',
  tooLarge: '请求内容过大',
  notFoundRoute: '接口不存在',
  internal: '服务器开小差了，请稍后再试',
  dbUnavailable: '数据库暂时不可用，请稍后重试',
  dbBusy: '数据库正忙，请稍后重试',
  requestTimeout: '请求超时，请重试',
  notLoggedIn: '请先登录',
  forbiddenStore: '无权访问该门店',
  /** A call the staff member's role may not make. */
  forbiddenRole: '您的账号没有这项操作的权限，请联系店长',
  /** A teacher naming a session somebody else teaches. */
  forbiddenSession: '只能查看和操作自己的课程',
  /** A disabled staff member logging in. */
  staffDisabled: '该账号已停用，请联系店长',
  loginFailed: '账号或密码错误',
  loginLocked: '登录失败次数过多，请15分钟后再试',
  foreignOrigin: '请求来源不被允许，请在本系统的页面中操作',
  outboundUrl: '网址应以 http:// 或 https:// 开头',
  outboundCredentials: '网址不能包含用户名或密码',
  outboundBlocked: '不能向本机、内网、链路本地、组播或保留地址发送请求',
  duplicateOp: '请勿重复操作',
  notFound: (what: string) => `${what}不存在`,

  // edit session
  chooseTeacher: '请选择上课老师',
  chooseDate: '请选择上课日期',
  chooseTime: '请选择上课时间',
  countNotNegative: '上课人数不能小于0',

  // batch scheduling
  chooseCourse: '请选择课程',
  studentsNotZero: '上课人数不能为0',
  chooseStartDate: '请选择开课日期',
  chooseWeekdays: '请选择每周规律以及对应的上课时间',
  arrangeTimes: '请设置排课次数',
  weekdayTime: (weekdayName: string) => `请选择周${weekdayName}的开课时间`,
  completeStudent: (n: number) => `请完成选择学生${n}的会员卡信息`,
  studentsCap: '选择的学生数量已达设置的上课人数上限',
  courseFirst: '请先选择课程',
  courseFirstThenStudent: '先选择课程，再选学员',

  // drop-in students
  timesNotZero: '上课次数不能为0',
  chooseTeachers: '请选择任课教师',

  // copy
  copyMax7: '最多可选择7天',
  copyDaysDiffer: '两个时间周期的天数不同！',

  // weekly template
  weekStartMonday: '请选择周课表固定预约开课日期',
  weeksMin1: '周课表固定预约循环周数不能小于1',
  weeksMax200: '周课表固定预约循环周数不能大于200',
  fixRowsMax: (max: number) => `周课表最多设置${max}节课，请先删除不用的课程`,
  fixStudentsMax: (max: number) => `每节课最多设置${max}名固定学生`,

  // batch delete / export
  chooseDates: '请选择日期',
  submitChooseDates: '提交失败，请选择日期',

  // success toasts (section 8)
  ok: '操作成功',
  booked: '预约成功',
  bookingCancelled: '预约取消',
  sessionUpdated: '修改课时信息成功',
  deleted: '删除成功',
  onlineCancelled: '取消在线教室成功',
  onlineCreated: '创建在线教室成功',
  batchDeleted: '批量删除课程成功',
  courseSaved: '课程信息保存成功',
  copied: '复制成功！',
  weekArranged: '周固定课表排课成功',
  batchArranged: '批量排课成功',
  dropInAdded: '安插固定上课学员成功',

  // confirm texts and warnings
  confirmCancelPending: (name: string) => `您确定取消 ${name} 的预约吗？`,
  deleteSessionWarning: '删除课程后，该课程的所有预约将被取消，已扣除的次数或金额将退回会员卡。',
  cancelBookingWarning: '取消预约后，已扣除的次数或金额将退回会员卡。',
  cardHelp: '没有匹配的会员卡：该卡不能预约此课程，或已冻结、已过期、余额为0',

  // booking rules (domain.md)
  sessionFull: '课程人数已满，无法预约',
  cardNotOwned: '该会员卡不属于此会员',
  cardNotAllowed: '该会员卡不能预约此课程',
  cardFrozen: '该会员卡已冻结',
  cardExpired: '该会员卡已过期',
  /** A class before the day the card starts (指定日期开卡): the date as YYYY年M月D日. */
  cardNotStarted: (date: string) => `会员卡${date}开卡，此前不能约课`,
  /** A class inside an approved leave of the card (issue 29): dates as M月D日. */
  cardInLeave: (from: string, to: string) => `该卡请假中（${from}至${to}），不能预约`,
  /** A card product's caps (issue 29, item 4): classes a day, a week (Monday to Sunday). */
  capPerDay: (n: number | string) => `该卡每天最多预约 ${n} 节课，这一天已约满`,
  capPerWeek: (n: number | string) => `该卡每周最多预约 ${n} 节课，这一周已约满`,
  cardBalance: '会员卡余额不足',
  /** The card's contract is not signed (待签约) and the store books only signed cards (issue 45). */
  cardUnsigned: '该会员卡的合同尚未签署，本店要求签约后才能预约',
  /** The balance pays, but not also for the card's pendings waiting to be charged at sign-in. */
  cardCommitted: '会员卡余额不足：这张卡已预约待签到的课程签到时还要扣费',
  genderLimited: '该课程限制了性别，此会员不符合',
  ageLimited: '该课程限制了年龄，此会员不符合',
  alreadyBooked: '该会员已预约此课程，请勿重复预约',
  alreadyCancelled: '该预约已取消',
  pendingNotWaiting: '该预约已签到或已取消',
  capacityBelowBooked: '上课人数不能小于已预约人数',
  oneStudentInSignInMode: '签到后扣费模式下每次只能预约1人',
  sessionStarted: '课程已结束，无法操作',
  teacherConflict: (when: string) => `该老师在 ${when} 已有课程，时间冲突`,
  /** A room (a venue without rooms under it) holds one class at a time. */
  roomConflict: (room: string, when: string) => `${room}在 ${when} 已有课程，场地冲突`,
  /** A machine (私教/小班 equipment) is never used by more members at once than the store has. */
  equipmentConflict: (name: string, when: string, count: number | string) =>
    `${name}在 ${when} 不够用（共${count}台），器械冲突`,
  mobileTaken: '该手机号已被其他会员使用',
  inUse: (what: string) => `${what}正在使用中，无法删除`,

  // batch operations (issue 3, batch helper): messages the spec does not word
  chooseWeekday: '请选择星期',
  arrangeTimesMax: '排课次数不能超过500',
  timesMax: '上课次数不能超过500',
  studentCountMin1: '上课人数不能小于1',
  rangeOrder: '开始日期不能晚于结束日期',
  exportRangeMax: '导出的日期范围最多62天',
  batchDeleteRangeMax: `批量删除的日期范围最多${BATCH_DELETE_MAX_DAYS}天`,
  weekArrangeFailed: (week: number, date: string, member: string, reason: string) =>
    `第${week}周（${date}）会员${member}：${reason}`,
  arrangeFailed: (date: string, member: string, reason: string) => `${date} 会员${member}：${reason}`,
  fixStudentUnusable: (n: number, member: string, reason: string) => `学生${n}（${member}）：${reason}`,
  sameMemberTwice: (member: string) => `会员${member}重复选择，请勿重复预约`,
  fewerSessions: (n: number) => `仅有${n}节课可预约`,
  memberReason: (member: string, reason: string) => `会员${member}：${reason}`,
  templateEmpty: '周课表还没有课程，请先设置周课表',
} as const;

export const WEEKDAY_NAMES = ['日', '一', '二', '三', '四', '五', '六'] as const;

/** The card rules of a booking or sign-in (domain.md, booking rule 1), each a 409. */
export const CARD_RULE_MSGS = [
  Msg.cardNotOwned,
  Msg.cardNotAllowed,
  Msg.cardFrozen,
  Msg.cardNotStarted('{开卡日期}'),
  Msg.cardInLeave('{开始}', '{结束}'),
  Msg.capPerDay('{N}'),
  Msg.capPerWeek('{N}'),
  Msg.cardExpired,
  Msg.cardBalance,
  Msg.cardUnsigned,
];
/** The member rules of a new booking: session not over, gender and age limits, no second booking. */
export const MEMBER_RULE_MSGS = [Msg.sessionStarted, Msg.genderLimited, Msg.ageLimited, Msg.alreadyBooked];
