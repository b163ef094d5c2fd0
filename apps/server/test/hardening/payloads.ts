import { randomMobile } from '../factory.ts';
import type { Kind, World } from './world.ts';

/** What an id field names: a row kind of the world, or the store itself (`storeId`). */
export type IdKind = Kind | 'store';

export interface BasePayload {
  /** A valid payload naming rows of `w` (the acting store). */
  body: (w: World) => Record<string, unknown>;
  /** For each id field of the call's `idFields` (dotted for list items), the kind of row it names. */
  ids?: Record<string, IdKind>;
  /** Store module 6 (deduction mode) the call needs to reach its id checks: 0 at booking, 1 at sign-in. */
  mode?: 0 | 1;
  /** Call it without a session (public calls whose effect on a session is unwanted). */
  anon?: boolean;
}

const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const STORE = '/store/api';
/** Tomorrow's date (UTC): today or tomorrow in every store's zone. */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/**
 * A valid base payload for every call of the contract, keyed by path. The isolation matrix and the
 * answer scans refuse to run a call that has no entry here, so a new call cannot slip by.
 */
export const basePayloads: Record<string, BasePayload> = {
  // auth and first run
  '/api/auth/login': { body: () => ({ account: 'no-such-user', password: 'x' }), anon: true },
  '/api/auth/me': { body: () => ({}) },
  '/api/auth/logout': { body: () => ({}), anon: true },
  '/api/setup/status': { body: () => ({}), anon: true },
  '/api/setup/init': {
    body: () => ({ storeName: '新店', admin: { username: 'newadmin', name: '新', password: 'password-123' } }),
    anon: true,
  },

  // members and cards
  [`${STORE}/query/member/search`]: { body: () => ({ param: '' }) },
  [`${STORE}/query/member/cards/for/course`]: {
    body: (w) => ({ mid: w.member, courseId: w.course }),
    ids: { mid: 'member', courseId: 'course' },
  },
  [`${STORE}/insert/member`]: { body: () => ({ name: '新会员', mobile: randomMobile() }) },
  [`${STORE}/update/member`]: {
    body: (w) => ({ id: w.member, name: '改名会员', mobile: randomMobile() }),
    ids: { id: 'member' },
  },
  [`${STORE}/query/member/info`]: { body: (w) => ({ id: w.member }), ids: { id: 'member' } },
  [`${STORE}/query/member/reservation/list`]: {
    body: (w) => ({ mid: w.member, page: 1, scope: 'upcoming' }),
    ids: { mid: 'member' },
  },
  [`${STORE}/query/member/list`]: { body: () => ({}) },
  [`${STORE}/query/card/product/list`]: { body: () => ({}) },
  [`${STORE}/insert/card/product`]: {
    body: (w) => ({
      cardName: '新卡',
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 100,
      courseIds: [w.course],
      teacherId: w.teacher,
    }),
    ids: { courseIds: 'course', teacherId: 'teacher' },
  },
  [`${STORE}/update/card/product`]: {
    body: (w) => ({
      id: w.cardProduct,
      cardName: '改名卡',
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 100,
      courseIds: [w.course],
      teacherId: w.teacher,
    }),
    ids: { id: 'cardProduct', courseIds: 'course', teacherId: 'teacher' },
  },
  [`${STORE}/delete/card/product`]: { body: (w) => ({ id: w.cardProduct }), ids: { id: 'cardProduct' } },
  [`${STORE}/insert/member/card`]: {
    body: (w) => ({ mid: w.member, cardId: w.cardProduct, totalCount: 5, sellerId: w.staff }),
    ids: { mid: 'member', cardId: 'cardProduct', sellerId: 'staff' },
  },
  [`${STORE}/update/member/card/status`]: { body: (w) => ({ id: w.memberCard, frozen: 1 }), ids: { id: 'memberCard' } },
  [`${STORE}/update/member/card/topup`]: {
    body: (w) => ({ id: w.memberCard, amount: 1, sellerId: w.staff }),
    ids: { id: 'memberCard', sellerId: 'staff' },
  },
  // 转卡 (issue 29): the world's card to its other member, future bookings cancelled
  // 推广链接 (issue 30): the world's desk member's (a manager names any staff member of the store; the desk gets its own)
  [`${STORE}/query/seller/link`]: { body: (w) => ({ staffId: w.staff }), ids: { staffId: 'staff' } },
  [`${STORE}/create/seller/link`]: { body: (w) => ({ staffId: w.staff }), ids: { staffId: 'staff' } },
  [`${STORE}/query/card/transfer/preview`]: { body: (w) => ({ mcId: w.memberCard }), ids: { mcId: 'memberCard' } },
  [`${STORE}/transfer/member/card`]: {
    body: (w) => ({ mcId: w.memberCard, toMid: w.member2, futureBookings: 'cancel' }),
    ids: { mcId: 'memberCard', toMid: 'member2' },
  },
  // 多人共享 (issue 29): the world's card named for its other member
  [`${STORE}/add/card/share`]: {
    body: (w) => ({ mcId: w.memberCard, mid: w.member2 }),
    ids: { mcId: 'memberCard', mid: 'member2' },
  },
  [`${STORE}/delete/card/share`]: {
    body: (w) => ({ mcId: w.memberCard, mid: w.member2 }),
    ids: { mcId: 'memberCard', mid: 'member2' },
  },
  [`${STORE}/refund/member/card`]: {
    body: (w) => ({ id: w.memberCard, topupId: w.topup, amount: 5000, method: 'cash', remark: '退回充值' }),
    ids: { id: 'memberCard', topupId: 'topup' },
  },
  [`${STORE}/query/member/payments`]: { body: (w) => ({ mid: w.member }), ids: { mid: 'member' } },
  [`${STORE}/update/member/card/expire`]: {
    body: (w) => ({ id: w.memberCard, expireTime: '2032-01-01' }),
    ids: { id: 'memberCard' },
  },
  [`${STORE}/query/member/card/ledger`]: { body: (w) => ({ id: w.memberCard }), ids: { id: 'memberCard' } },

  // teachers, areas, materials, courses
  [`${STORE}/query/teacher/list`]: { body: () => ({}) },
  [`${STORE}/insert/teacher`]: { body: () => ({ name: '新老师' }) },
  [`${STORE}/update/teacher`]: { body: (w) => ({ id: w.teacher, name: '改名老师' }), ids: { id: 'teacher' } },
  [`${STORE}/delete/teacher`]: { body: (w) => ({ id: w.teacher }), ids: { id: 'teacher' } },
  [`${STORE}/query/area/tree`]: { body: () => ({}) },
  [`${STORE}/insert/area`]: { body: (w) => ({ name: '新场地', parentId: w.area }), ids: { parentId: 'area' } },
  [`${STORE}/update/area`]: {
    body: (w) => ({ id: w.area, name: '改名场地', parentId: null }),
    ids: { id: 'area', parentId: 'area' },
  },
  [`${STORE}/delete/area`]: { body: (w) => ({ id: w.area }), ids: { id: 'area' } },
  [`${STORE}/query/material/list`]: { body: () => ({}), ids: { storeId: 'store' } },
  [`${STORE}/query/material/detail`]: {
    body: (w) => ({ bookId: w.material }),
    ids: { storeId: 'store', bookId: 'material' },
  },
  [`${STORE}/insert/material`]: {
    body: (w) => ({ name: '新章节', parentId: w.material }),
    ids: { parentId: 'material' },
  },
  [`${STORE}/update/material`]: { body: (w) => ({ id: w.material, name: '改名教材' }), ids: { id: 'material' } },
  [`${STORE}/delete/material`]: { body: (w) => ({ id: w.chapter }), ids: { id: 'chapter' } },
  [`${STORE}/query/course/simple/list`]: { body: () => ({}) },
  [`${STORE}/insert/store/course`]: {
    body: (w) => ({ name: '新课程', count: 10, duration: 60, color: '#112233', cardIds: [w.cardProduct] }),
    ids: { cardIds: 'cardProduct' },
  },
  [`${STORE}/update/store/course`]: {
    body: (w) => ({
      id: w.course,
      name: '改名课程',
      count: 10,
      duration: 60,
      color: '#112233',
      cardIds: [w.cardProduct],
    }),
    ids: { id: 'course', cardIds: 'cardProduct' },
  },
  [`${STORE}/update/store/course/status`]: { body: (w) => ({ id: w.course, enabled: 0 }), ids: { id: 'course' } },
  [`${STORE}/query/store/course/list`]: { body: () => ({}) },
  [`${STORE}/query/store/course/by/id`]: { body: (w) => ({ id: w.course }), ids: { id: 'course' } },
  [`${STORE}/query/module/status`]: { body: () => ({ moduleId: 6 }), ids: { storeId: 'store' } },
  [`${STORE}/update/module/status`]: { body: () => ({ moduleId: 1, status: 0 }), ids: { storeId: 'store' } },
  [`${STORE}/query/store/setting`]: { body: () => ({}), ids: { storeId: 'store' } },

  // 私教 and 小班 (features/lessons)
  [`${STORE}/query/lesson/type/list`]: { body: () => ({}) },
  [`${STORE}/insert/lesson/type`]: {
    body: (w) => ({
      name: '新私教',
      kind: 'one_on_one',
      duration: 60,
      teachers: [{ teacherId: w.teacher, level: null }],
      areaIds: [w.area],
      equipment: [{ equipmentId: w.equipment, perMember: 1 }],
    }),
    ids: { 'teachers.teacherId': 'teacher', areaIds: 'area', 'equipment.equipmentId': 'equipment' },
  },
  [`${STORE}/update/lesson/type`]: {
    body: (w) => ({
      id: w.lessonType,
      name: '改名私教',
      kind: 'one_on_one',
      duration: 60,
      teachers: [{ teacherId: w.teacher, level: null }],
      areaIds: [w.area],
      equipment: [{ equipmentId: w.equipment, perMember: 1 }],
    }),
    ids: { id: 'lessonType', 'teachers.teacherId': 'teacher', areaIds: 'area', 'equipment.equipmentId': 'equipment' },
  },
  [`${STORE}/update/lesson/type/status`]: {
    body: (w) => ({ id: w.lessonType, enabled: 0 }),
    ids: { id: 'lessonType' },
  },
  [`${STORE}/query/equipment/list`]: { body: () => ({}) },
  [`${STORE}/insert/equipment`]: {
    body: (w) => ({ name: '新器械', count: 2, areaId: w.area }),
    ids: { areaId: 'area' },
  },
  [`${STORE}/update/equipment`]: {
    body: (w) => ({ id: w.equipment, name: '改名器械', count: 3, areaId: w.area }),
    ids: { id: 'equipment', areaId: 'area' },
  },
  [`${STORE}/delete/equipment`]: { body: (w) => ({ id: w.equipment }), ids: { id: 'equipment' } },
  [`${STORE}/query/teacher/hours/info`]: { body: (w) => ({ teacherId: w.teacher }), ids: { teacherId: 'teacher' } },
  [`${STORE}/update/teacher/hours`]: {
    body: (w) => ({ teacherId: w.teacher, weekly: [{ weekday: 1, startTime: '09:00', endTime: '12:00' }] }),
    ids: { teacherId: 'teacher' },
  },
  [`${STORE}/insert/teacher/hours/exception`]: {
    body: (w) => ({ teacherId: w.teacher, date: '2031-03-05', kind: 'off' }),
    ids: { teacherId: 'teacher' },
  },
  [`${STORE}/delete/teacher/hours/exception`]: {
    body: (w) => ({ id: w.hoursException }),
    ids: { id: 'hoursException' },
  },
  // Booking lessons (features/lessons/booking-*): the world's card is not bound to its lesson type and
  // its booking and session are of a group class, so these are refused there (booking.test.ts books,
  // cancels, confirms and moves lessons).
  [`${STORE}/add/lesson`]: {
    body: (w) => ({
      courseId: w.lessonType,
      teacherId: w.teacher,
      date: '2031-03-05',
      time: '10:00',
      venueId: w.area,
      members: [{ mid: w.member, mcId: w.memberCard }],
      outsideReason: '会员指定的时间',
    }),
    ids: { courseId: 'lessonType', teacherId: 'teacher', venueId: 'area' },
  },
  [`${STORE}/batch/add/lesson/series`]: {
    body: (w) => ({
      courseId: w.lessonType,
      teacherId: w.teacher,
      startDate: '2031-03-05',
      time: '10:00',
      weeks: 2,
      venueId: w.area,
      members: [{ mid: w.member, mcId: w.memberCard }],
    }),
    ids: { courseId: 'lessonType', teacherId: 'teacher', venueId: 'area' },
  },
  '/member/api/add/lesson': {
    body: (w) => ({
      courseId: w.lessonType,
      teacherId: w.teacher,
      date: '2031-03-05',
      time: '10:00',
      mcId: w.memberCard,
    }),
  },
  // The member's picks before booking a lesson (features/lessons/member-lessons.ts): tomorrow is
  // inside the days the phone offers in any store's zone.
  '/member/api/query/lesson/types': { body: () => ({}) },
  '/member/api/query/lesson/slots': {
    body: (w) => ({ courseId: w.lessonType, teacherId: w.teacher, date: tomorrow() }),
  },
  '/member/api/query/cards/for/lesson': {
    body: (w) => ({ courseId: w.lessonType, teacherId: w.teacher, date: tomorrow(), time: '10:00' }),
  },
  '/member/api/query/lesson/open': {
    body: (w) => ({ courseId: w.lessonType, teacherId: w.teacher, date: tomorrow() }),
  },
  // The world's session is a group class: joining it is refused (member-join.test.ts joins 小班).
  '/member/api/join/lesson': { body: (w) => ({ id: w.session, mcId: w.memberCard }) },
  [`${STORE}/add/lesson/member`]: {
    body: (w) => ({ id: w.session, mid: w.member2, mcId: w.memberCard2 }),
    ids: { id: 'session', mid: 'member2', mcId: 'memberCard2' },
  },
  [`${STORE}/cancel/lesson`]: { body: (w) => ({ id: w.reservation }) },
  '/member/api/cancel/lesson': { body: (w) => ({ id: w.reservation }) },
  [`${STORE}/confirm/lesson`]: { body: (w) => ({ id: w.session }) },
  [`${STORE}/move/lesson`]: { body: (w) => ({ id: w.session, date: '2031-03-06', time: '10:00' }) },
  [`${STORE}/query/lesson/setting`]: { body: () => ({}) },
  [`${STORE}/update/lesson/setting`]: { body: () => ({ teacherConfirms: 1, confirmHours: 12 }) },
  [`${STORE}/query/teacher/hours/day`]: { body: () => ({ date: '2031-03-05' }) },
  [`${STORE}/query/lesson/free/slots`]: {
    body: (w) => ({ courseId: w.lessonType, from: '2031-03-03', to: '2031-03-09' }),
    ids: { courseId: 'lessonType' },
  },

  // sessions and bookings
  [`${STORE}/insert/timetable`]: {
    body: (w) => ({
      courseId: w.course,
      teacherId: w.teacher,
      reservableCount: 5,
      date: '2031-04-01',
      time: '10:00',
      areaId: w.area,
      bookId: w.material,
    }),
    ids: { courseId: 'course', teacherId: 'teacher', areaId: 'area', bookId: 'material' },
  },
  [`${STORE}/update/timetable/reservable/count`]: {
    body: (w) => ({
      id: w.emptySession,
      teacherId: w.teacher,
      date: '2031-03-04',
      time: '11:00',
      count: 5,
      areaId: w.area,
      bookId: w.material,
    }),
    ids: { id: 'emptySession', teacherId: 'teacher', areaId: 'area', bookId: 'material' },
  },
  [`${STORE}/cancel/timetable`]: { body: (w) => ({ id: w.session }), ids: { id: 'session' } },
  [`${STORE}/query/timetable/by/date`]: {
    body: (w) => ({ fromDate: '2031-03-01', toDate: '2031-03-07', areaId: w.area, teacherId: w.teacher }),
    ids: { areaId: 'area', teacherId: 'teacher' },
  },
  [`${STORE}/query/timetable/info`]: { body: (w) => ({ id: w.session }), ids: { id: 'session' } },
  [`${STORE}/add/member/reservation`]: {
    body: (w) => ({ mcId: w.memberCard2, tid: w.emptySession, mid: w.member2, studentCount: 1 }),
    ids: { mcId: 'memberCard2', tid: 'emptySession', mid: 'member2' },
    mode: 0,
  },
  [`${STORE}/query/timetable/reservation/list`]: { body: (w) => ({ tid: w.session }), ids: { tid: 'session' } },
  [`${STORE}/cancel/reservation`]: { body: (w) => ({ id: w.reservation }), ids: { id: 'reservation' } },
  [`${STORE}/query/timetable/pending/list`]: { body: (w) => ({ tid: w.session }), ids: { tid: 'session' } },
  [`${STORE}/add/member/group/pending`]: {
    body: (w) => ({ mid: w.member2, tid: w.emptySession, mcId: w.memberCard2, studentCount: 1 }),
    ids: { mid: 'member2', tid: 'emptySession', mcId: 'memberCard2' },
    mode: 1,
  },
  [`${STORE}/cancel/pending`]: { body: (w) => ({ pendingId: w.pending }), ids: { pendingId: 'pending' }, mode: 1 },
  [`${STORE}/sign/in/pending`]: {
    body: (w) => ({ pendingId: w.pending, mcId: w.memberCard2 }),
    ids: { pendingId: 'pending', mcId: 'memberCard2' },
    mode: 1,
  },
  [`${STORE}/mark/attendance`]: {
    body: (w) => ({ reservationId: w.reservation, attended: 1 }),
    ids: { reservationId: 'reservation' },
    mode: 0,
  },
  [`${STORE}/query/timetable/history`]: { body: (w) => ({ tid: w.session }), ids: { tid: 'session' } },
  [`${STORE}/export/timetable/reservation`]: { body: (w) => ({ id: w.session }), ids: { id: 'session' } },

  // batch scheduling
  [`${STORE}/batch/arrange/course`]: {
    body: (w) => ({
      cid: w.course,
      areaId: w.area,
      students: 5,
      tid: w.teacher,
      startDate: '2031-05-05',
      courseTimes: [{ weekday: 1, arrangeTime: '08:00' }],
      arrangeTimes: 2,
      mcIds: [w.memberCard2],
      isOnline: 0,
    }),
    ids: { cid: 'course', areaId: 'area', tid: 'teacher', mcIds: 'memberCard2' },
  },
  [`${STORE}/query/fix/timetable/list`]: { body: () => ({}) },
  [`${STORE}/insert/fix/timetable`]: {
    body: (w) => ({
      weekday: 1,
      time: '07:00',
      courseId: w.course,
      teacherId: w.teacher,
      areaId: w.area,
      reservableCount: 5,
      bookId: w.material,
      students: [{ mcId: w.memberCard2, studentCount: 1 }],
    }),
    ids: {
      courseId: 'course',
      teacherId: 'teacher',
      areaId: 'area',
      bookId: 'material',
      'students.mcId': 'memberCard2',
    },
  },
  [`${STORE}/update/fix/timetable`]: {
    body: (w) => ({
      id: w.fix,
      weekday: 2,
      time: '07:30',
      courseId: w.course,
      teacherId: w.teacher,
      areaId: w.area,
      reservableCount: 5,
      bookId: w.material,
      students: [{ mcId: w.memberCard2, studentCount: 1 }],
    }),
    ids: {
      id: 'fix',
      courseId: 'course',
      teacherId: 'teacher',
      areaId: 'area',
      bookId: 'material',
      'students.mcId': 'memberCard2',
    },
  },
  [`${STORE}/delete/fix/timetable`]: { body: (w) => ({ id: w.fix }), ids: { id: 'fix' } },
  // The week batch scheduling's payload (above, run before it in the contract's order) puts a class in;
  // the worlds of a suite share their store, so the week of their own sessions holds more than 50.
  [`${STORE}/insert/fix/timetable/from/week`]: { body: () => ({ fromDate: '2031-05-05', mode: 'replace' }) },
  [`${STORE}/batch/arrange/week/course`]: { body: () => ({ fromDate: '2031-06-02', arrangeWeeks: 1 }) },
  [`${STORE}/query/has/arrange/course/teachers`]: {
    body: (w) => ({ cid: w.course, startDate: '2031-03-01' }),
    ids: { cid: 'course' },
  },
  [`${STORE}/query/has/arrange/course/count`]: {
    body: (w) => ({ cid: w.course, startDate: '2031-03-01', tids: [w.teacher] }),
    ids: { cid: 'course', tids: 'teacher' },
  },
  [`${STORE}/batch/add/member/reservation`]: {
    body: (w) => ({ mcId: w.memberCard2, cid: w.course, tids: [w.teacher], startDate: '2031-03-01', times: 1 }),
    ids: { mcId: 'memberCard2', cid: 'course', tids: 'teacher' },
  },
  [`${STORE}/copy/timetable`]: {
    body: (w) => ({
      formerFromDate: '2031-03-03',
      formerToDate: '2031-03-04',
      afterFromDate: '2031-07-07',
      afterToDate: '2031-07-08',
      isCopyPending: 0,
      areaId: w.area,
    }),
    ids: { areaId: 'area' },
  },
  [`${STORE}/batch/cancel/timetable`]: {
    body: (w) => ({ fromDate: '2031-03-04', toDate: '2031-03-04', areaId: w.area }),
    ids: { areaId: 'area' },
  },
  [`${STORE}/batch/export/reservation`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-07' }) },

  // online classroom
  [`${STORE}/create/timetable/meeting`]: {
    body: (w) => ({ id: w.emptySession, type: 2 }),
    ids: { id: 'emptySession' },
  },
  [`${STORE}/retry/timetable/meeting`]: { body: (w) => ({ id: w.session }), ids: { id: 'session' } },
  [`${STORE}/cancel/timetable/online`]: { body: (w) => ({ id: w.session }), ids: { id: 'session' } },
  [`${STORE}/query/timetable/online`]: { body: (w) => ({ id: w.session }), ids: { id: 'session' } },
  [`${STORE}/query/store/online/setting`]: { body: () => ({}) },
  [`${STORE}/update/store/online/setting`]: {
    body: () => ({ jitsiBaseUrl: 'https://meet.example.test', providers: { 4: 'jitsi' }, defaultType: 4 }),
  },
  [`${STORE}/send/timetable/picture`]: { body: () => ({ image: TINY_PNG }) },

  // store settings
  [`${STORE}/insert/or/update/wechat/setting`]: { body: () => ({ appId: 'wx-test', token: 't' }) },
  [`${STORE}/query/wechat/setting`]: { body: () => ({}) },
  [`${STORE}/add/logo`]: { body: () => ({ image: TINY_PNG }) },
  [`${STORE}/load/store/funcs`]: { body: () => ({}) },
  [`${STORE}/save/store/funcs`]: { body: () => ({ funcs: [{ key: 'schedule', name: '排课', enabled: 1 }] }) },
  [`${STORE}/query/store/booking/setting`]: { body: () => ({}) },
  [`${STORE}/query/deduction/mode/impact`]: { body: () => ({}) },
  [`${STORE}/update/store/booking/setting`]: {
    body: (w) => ({ deductionMode: 0, onlineDefault: 0, timezone: 'Asia/Shanghai', storeName: w.storeName }),
  },

  // waitlist
  [`${STORE}/query/waitlist/list`]: { body: (w) => ({ tid: w.session }), ids: { tid: 'session' } },
  [`${STORE}/add/waitlist`]: {
    body: (w) => ({ mid: w.member2, mcId: w.memberCard2, tid: w.session, studentCount: 1 }),
    ids: { mid: 'member', mcId: 'memberCard', tid: 'session' },
  },
  [`${STORE}/cancel/waitlist`]: { body: (w) => ({ id: w.wait }), ids: { id: 'wait' } },
  [`${STORE}/query/member/waitlist`]: { body: (w) => ({ mid: w.member2 }), ids: { mid: 'member2' } },

  // booking policy
  [`${STORE}/query/booking/policy`]: { body: () => ({}) },
  [`${STORE}/update/booking/policy`]: { body: () => ({ openDaysBefore: 7, lateCancel: 'forfeit' }) },
  [`${STORE}/waive/no/show`]: {
    body: (w) => ({ pendingId: w.pending, reason: '前台免除' }),
    ids: { pendingId: 'pending' },
  },
  [`${STORE}/waive/late/cancel`]: {
    body: (w) => ({ reservationId: w.reservation, reason: '前台免除' }),
    ids: { reservationId: 'reservation' },
  },
  [`${STORE}/query/member/policy/status`]: { body: (w) => ({ mid: w.member }), ids: { mid: 'member' } },
  [`${STORE}/lift/member/suspension`]: { body: (w) => ({ mid: w.member }), ids: { mid: 'member' } },

  // the members' channel (member calls act with a member session: their own matrix is in
  // features/member-channel/member-channel.test.ts; these payloads serve the scans)
  '/member/api/query/store': { body: (w) => ({ storeId: w.storeId }), anon: true },
  '/member/api/auth/challenge': { body: () => ({}), anon: true },
  '/member/api/auth/code': { body: (w) => ({ storeId: w.storeId, mobile: '13800000000' }), anon: true },
  '/member/api/auth/login': {
    body: (w) => ({ storeId: w.storeId, mobile: '13800000000', code: '000000' }),
    anon: true,
  },
  '/member/api/auth/me': { body: () => ({}) },
  '/member/api/auth/logout': { body: () => ({}), anon: true },
  '/member/api/query/timetable': { body: () => ({ fromDate: '2031-03-03', toDate: '2031-03-09' }) },
  '/member/api/query/public/timetable': {
    body: (w) => ({ storeId: w.storeId, fromDate: '2031-03-03', toDate: '2031-03-09' }),
    anon: true,
  },
  '/member/api/query/cards/for/session': { body: (w) => ({ tid: w.session }) },
  '/member/api/add/reservation': { body: (w) => ({ tid: w.session, mcId: w.memberCard, studentCount: 1 }) },
  '/member/api/cancel/reservation': { body: (w) => ({ id: w.reservation }) },
  '/member/api/cancel/pending': { body: (w) => ({ pendingId: w.pending }) },
  '/member/api/add/waitlist': { body: (w) => ({ tid: w.session, mcId: w.memberCard, studentCount: 1 }) },
  '/member/api/cancel/waitlist': { body: (w) => ({ id: w.wait }) },
  '/member/api/query/my/reservations': { body: () => ({ state: 'upcoming', page: 1 }) },
  '/member/api/query/my/cards': { body: () => ({}) },
  '/member/api/query/my/data': { body: () => ({}) },
  '/member/api/query/my/privacy': { body: () => ({}) },
  '/member/api/update/my/consent': { body: () => ({ kind: 'marketing', granted: true }) },
  '/member/api/add/my/erasure': { body: () => ({ reason: '不再来了' }) },
  '/member/api/cancel/my/erasure': { body: () => ({}) },
  // online payment (issue 28): a fresh store has no provider, so creating an order is refused there
  '/member/api/query/products': { body: () => ({}) },
  '/member/api/create/order': { body: (w) => ({ productId: w.cardProduct, method: 'wechat_native' }) },
  '/member/api/query/order': { body: () => ({ orderNo: 'P20310303090000' }) },
  '/member/api/query/my/orders': { body: () => ({ page: 1 }) },
  [`${STORE}/query/pay/setting`]: { body: () => ({}) },
  [`${STORE}/update/pay/setting`]: { body: () => ({ topupAmounts: [50000, 100000, 200000] }) },
  [`${STORE}/query/pay/connection`]: { body: () => ({ provider: 'wechat' }) },
  // the world's order is not paid, so its refund is refused (refund.test.ts refunds)
  [`${STORE}/refund/pay/order`]: {
    body: (w) => ({ orderNo: w.payOrderNo, amount: 100, reason: '测试退款' }),
    ids: { orderNo: 'payOrderNo' },
  },
  // the desk's 扫码收款 and 线上订单 (a fresh store has no provider: creating is refused there too)
  [`${STORE}/create/pay/order`]: {
    body: (w) => ({ mid: w.member, productId: w.cardProduct, method: 'wechat_native', sellerId: w.staff }),
    ids: { mid: 'member', productId: 'cardProduct', sellerId: 'staff' },
  },
  [`${STORE}/query/pay/order`]: { body: (w) => ({ orderNo: w.payOrderNo }), ids: { orderNo: 'payOrderNo' } },
  [`${STORE}/query/pay/order/list`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31', page: 1 }) },
  // 对账 (a fresh store has no provider: running it is refused there; reconcile.test.ts runs days)
  [`${STORE}/query/pay/reconcile`]: { body: () => ({ date: '2026-01-05' }) },
  [`${STORE}/run/pay/reconcile`]: { body: () => ({ date: '2026-01-05' }) },
  '/member/api/sign/in': { body: () => ({ token: 'not-a-token' }) },
  [`${STORE}/create/member/login/code`]: { body: (w) => ({ memberId: w.member2 }), ids: { memberId: 'member2' } },
  // calendar feeds (issue 29)
  '/member/api/query/calendar/feed': { body: () => ({}) },
  // a card's life (issue 29): leave, its approval, the setting, the refund quote
  [`${STORE}/query/card/leave/preview`]: {
    body: (w) => ({ mcId: w.leaveCard, fromDate: '2031-04-10', toDate: '2031-04-12' }),
    ids: { mcId: 'leaveCard' },
  },
  [`${STORE}/add/card/leave`]: {
    body: (w) => ({ mcId: w.leaveCard, fromDate: '2031-04-10', toDate: '2031-04-12', reason: '出差' }),
    ids: { mcId: 'leaveCard' },
  },
  [`${STORE}/end/card/leave`]: { body: (w) => ({ id: w.activeLeave, date: '2031-05-02' }), ids: { id: 'activeLeave' } },
  [`${STORE}/approve/card/leave`]: { body: (w) => ({ id: w.leave, cancelBookings: true }), ids: { id: 'leave' } },
  [`${STORE}/refuse/card/leave`]: { body: (w) => ({ id: w.leave, remark: '不符合规则' }), ids: { id: 'leave' } },
  [`${STORE}/query/card/leave/list`]: { body: (w) => ({ mcId: w.leaveCard, page: 1 }), ids: { mcId: 'leaveCard' } },
  [`${STORE}/query/card/life/setting`]: { body: () => ({}) },
  [`${STORE}/update/card/life/setting`]: { body: () => ({ coolingOffDays: 7, leaveApproval: 'auto' }) },
  [`${STORE}/query/prepaid/limit/setting`]: { body: () => ({}) },
  // Limits set, none of them binding: the world's later sales stay as they are.
  [`${STORE}/update/prepaid/limit/setting`]: {
    body: () => ({
      ruleSet: 'custom',
      custom: {
        membershipAmount: null,
        membershipMonths: null,
        lessonsAmount: null,
        lessonsCount: null,
        moneyAmount: null,
        perMemberAmount: null,
      },
    }),
  },
  [`${STORE}/query/prepaid/limit/over`]: { body: () => ({}) },
  [`${STORE}/query/card/refund/quote`]: { body: (w) => ({ mcId: w.memberCard }), ids: { mcId: 'memberCard' } },
  '/member/api/request/card/leave': {
    body: (w) => ({ mcId: w.leaveCard, fromDate: '2031-04-10', toDate: '2031-04-12', reason: '出差' }),
  },
  '/member/api/query/card/leave/list': { body: (w) => ({ mcId: w.leaveCard }) },
  '/member/api/reset/calendar/feed': { body: () => ({}) },
  [`${STORE}/query/teacher/calendar/feed`]: { body: (w) => ({ teacherId: w.teacher }), ids: { teacherId: 'teacher' } },
  [`${STORE}/reset/teacher/calendar/feed`]: { body: (w) => ({ teacherId: w.teacher }), ids: { teacherId: 'teacher' } },
  [`${STORE}/delete/member/sessions`]: { body: (w) => ({ memberId: w.member }), ids: { memberId: 'member' } },
  [`${STORE}/query/checkin/code`]: { body: () => ({}) },
  [`${STORE}/update/checkin/mode`]: { body: () => ({ checkinMode: 'screen' }) },
  [`${STORE}/query/member/page`]: { body: () => ({}) },
  [`${STORE}/query/sms/setting`]: { body: () => ({}) },
  [`${STORE}/update/sms/setting`]: {
    body: () => ({ provider: 'none', keyId: '', signName: '', templateId: '', appId: '', region: '', endpoint: '' }),
  },
  [`${STORE}/update/member/page`]: { body: () => ({ publicBaseUrl: 'https://yoga.example.com' }) },
  // reminders (issue 29 items 7-9)
  [`${STORE}/query/notify/setting`]: { body: () => ({}) },
  [`${STORE}/update/notify/setting`]: {
    body: () => ({
      classReminderHours: 2,
      quietFrom: '22:00',
      quietTo: '08:00',
      wechat: { appId: '', baseUrl: '', templates: [] },
      sms: { templates: [] },
    }),
  },
  [`${STORE}/send/notify/test`]: { body: () => ({ kind: 'class_reminder', channel: 'wechat', openid: 'openid-test' }) },
  [`${STORE}/query/notify/log`]: {
    body: (w) => ({ fromDate: '2031-03-01', toDate: '2031-03-31', memberId: w.member, page: 1 }),
    ids: { memberId: 'member' },
  },
  '/member/api/query/notify/pref': { body: () => ({}) },
  '/member/api/update/notify/pref': { body: () => ({ kind: 'class_reminder', on: false }) },
  '/member/api/bind/wechat/openid': { body: () => ({ code: 'no-such-code', state: 'no-such-state' }) },
  '/member/api/insert/wechat/state': { body: () => ({}) },
  '/member/api/query/wechat/auth': { body: (w) => ({ storeId: w.storeId }), anon: true },

  // today, reports, alerts
  [`${STORE}/query/today`]: { body: () => ({ date: '2031-03-04' }) },
  [`${STORE}/query/report/overview`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/by/course`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/by/teacher`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/by/slot`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/by/day`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/lesson/by/type`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/lesson/utilisation`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/lesson/packs`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/report/lesson/outstanding`]: { body: () => ({}) },
  [`${STORE}/query/card/alert/list`]: { body: () => ({ days: 30, minCount: 2, minMoney: 10000 }) },
  [`${STORE}/query/member/inactive/list`]: { body: () => ({ days: 30 }) },
  [`${STORE}/query/card/alert/digest`]: { body: () => ({}) },
  [`${STORE}/update/card/alert/digest`]: {
    body: () => ({ enabled: 0, time: '09:00', days: 30, minCount: 2, minMoney: 10000 }),
  },

  // staff, roles and the audit log
  [`${STORE}/query/staff/list`]: { body: () => ({}) },
  [`${STORE}/insert/staff`]: {
    body: (w) => ({
      name: '新老师',
      account: `t${randomMobile()}`,
      mobile: randomMobile(),
      password: 'teach2026ok',
      role: 'teacher',
      teacherId: w.teacher,
    }),
    ids: { teacherId: 'teacher' },
  },
  [`${STORE}/update/staff`]: {
    body: (w) => ({ id: w.staff, name: '老师账号', mobile: null, role: 'teacher', teacherId: w.teacher, enabled: 1 }),
    ids: { id: 'staff', teacherId: 'teacher' },
  },
  [`${STORE}/reset/staff/password`]: { body: (w) => ({ id: w.staff, password: 'reset2026ok' }), ids: { id: 'staff' } },
  '/api/auth/change/password': { body: () => ({ oldPassword: 'wrong-old-1', newPassword: 'newpass2026' }) },
  [`${STORE}/query/audit/log`]: {
    body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31', page: 1 }),
    ids: { staffId: 'staff', memberId: 'member', tid: 'session' },
  },
  [`${STORE}/undo/bulk/change`]: { body: (w) => ({ auditId: w.audit }), ids: { auditId: 'audit' } },

  // teacher pay (课时费) and sales commission (销售提成); a month closes once ended, then reopens
  [`${STORE}/query/teacher/pay/rule/list`]: { body: (w) => ({ teacherId: w.teacher }), ids: { teacherId: 'teacher' } },
  [`${STORE}/update/teacher/pay/rule`]: {
    body: (w) => ({
      teacherId: w.teacher,
      courseId: w.course,
      kind: 'per_class',
      amount: 8000,
      minimum: 0,
      fromDate: '2031-03-01',
    }),
    ids: { teacherId: 'teacher', courseId: 'course' },
  },
  [`${STORE}/delete/teacher/pay/rule`]: {
    body: (w) => ({ teacherId: w.teacher, courseId: w.course, fromDate: '2031-03-01' }),
    ids: { teacherId: 'teacher', courseId: 'course' },
  },
  [`${STORE}/query/teacher/pay/statement`]: {
    body: (w) => ({ month: '2031-03', teacherId: w.teacher }),
    ids: { teacherId: 'teacher' },
  },
  [`${STORE}/add/teacher/pay/adjustment`]: {
    body: (w) => ({ teacherId: w.teacher, month: '2031-03', amount: 5000, reason: '代课交通补贴' }),
    ids: { teacherId: 'teacher' },
  },
  [`${STORE}/close/teacher/pay/month`]: { body: () => ({ month: '2020-01' }) },
  [`${STORE}/reopen/teacher/pay/month`]: { body: () => ({ month: '2020-01', reason: '重新核对' }) },
  [`${STORE}/query/sales/commission/rate/list`]: { body: () => ({}) },
  [`${STORE}/update/sales/commission/rate`]: {
    body: (w) => ({ staffId: w.staff, rate: 5 }),
    ids: { staffId: 'staff' },
  },
  [`${STORE}/query/sales/commission`]: { body: () => ({ month: '2031-03' }) },
  [`${STORE}/query/seller/list`]: { body: () => ({}) },

  // leads (潜客)
  [`${STORE}/query/lead/list`]: { body: () => ({ scope: 'all', page: 1 }) },
  [`${STORE}/query/lead/info`]: { body: (w) => ({ id: w.lead }), ids: { id: 'lead' } },
  [`${STORE}/insert/lead`]: {
    body: (w) => ({ name: '新潜客', mobile: randomMobile(), source: '到店', ownerId: w.staff }),
    ids: { ownerId: 'staff' },
  },
  [`${STORE}/update/lead`]: {
    body: (w) => ({ id: w.lead, name: '潜客', mobile: randomMobile(), source: '电话', interests: '瑜伽', notes: null }),
    ids: { id: 'lead' },
  },
  [`${STORE}/insert/lead/follow/up`]: {
    body: (w) => ({ leadId: w.lead, way: 'phone', note: '电话沟通', nextDate: '2031-03-05' }),
    ids: { leadId: 'lead' },
  },
  [`${STORE}/update/lead/stage`]: { body: (w) => ({ id: w.lead, stage: 'trial_booked' }), ids: { id: 'lead' } },
  [`${STORE}/update/lead/consent`]: { body: (w) => ({ id: w.lead, granted: true, way: 'visit' }), ids: { id: 'lead' } },
  // 营销短信 (issue 44 item 7): a fresh world has no SMS provider (the send is refused, 400)
  [`${STORE}/query/marketing/preview`]: {
    body: () => ({ members: true, leads: true, leadStages: ['new'], text: '周末活动' }),
  },
  [`${STORE}/send/marketing`]: { body: () => ({ members: true, leads: true, leadStages: [], text: '周末活动' }) },
  [`${STORE}/query/marketing/send/list`]: { body: () => ({ page: 1 }) },
  [`${STORE}/query/marketing/setting`]: { body: () => ({}) },
  [`${STORE}/update/marketing/setting`]: { body: () => ({ templateId: 'SMS_100' }) },
  '/member/api/query/unsubscribe': { body: () => ({ token: 'AAAAAAAAAAAAAAAAAAAAAA' }), anon: true },
  '/member/api/update/unsubscribe': { body: () => ({ token: 'AAAAAAAAAAAAAAAAAAAAAA' }), anon: true },
  [`${STORE}/update/lead/owner`]: {
    body: (w) => ({ ids: [w.lead], ownerId: w.staff }),
    ids: { ids: 'lead', ownerId: 'staff' },
  },
  [`${STORE}/take/lead`]: { body: (w) => ({ id: w.lead }), ids: { id: 'lead' } },
  [`${STORE}/query/lead/todo/list`]: { body: () => ({}) },
  [`${STORE}/query/lead/setting`]: { body: () => ({}) },
  [`${STORE}/query/lead/funnel`]: { body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31' }) },
  [`${STORE}/query/lead/funnel/list`]: {
    body: () => ({ fromDate: '2031-03-01', toDate: '2031-03-31', step: 'converted', page: 1 }),
  },
  [`${STORE}/update/lead/setting`]: { body: () => ({ returnDays: 15, sources: ['小红书'] }) },
  // 转介绍奖励
  [`${STORE}/query/referral/setting`]: { body: () => ({}) },
  [`${STORE}/update/referral/setting`]: {
    body: () => ({ enabled: true, trigger: 'card', kind: 'lessons', amount: 3 }),
  },
  [`${STORE}/query/referral/reward/list`]: { body: () => ({ page: 1 }) },
  [`${STORE}/grant/referral/reward`]: { body: (w) => ({ id: w.referralReward }), ids: { id: 'referralReward' } },
  [`${STORE}/undo/referral/reward`]: { body: (w) => ({ id: w.referralReward }), ids: { id: 'referralReward' } },
  // 体验课 (issue 44 item 3)
  [`${STORE}/insert/lead/trial`]: {
    body: (w) => ({ leadId: w.lead, sessionId: w.emptySession }),
    ids: { leadId: 'lead', sessionId: 'emptySession' },
  },
  [`${STORE}/insert/lead/trial/lesson`]: {
    body: (w) => ({ leadId: w.lead, courseId: w.lessonType, teacherId: w.teacher, date: '2031-03-05', time: '10:00' }),
    ids: { leadId: 'lead', courseId: 'lessonType', teacherId: 'teacher' },
  },
  [`${STORE}/cancel/lead/trial`]: { body: (w) => ({ id: w.leadTrial }), ids: { id: 'leadTrial' } },
  [`${STORE}/mark/lead/trial`]: {
    body: (w) => ({ id: w.leadTrial, sessionId: w.session }),
    ids: { id: 'leadTrial', sessionId: 'session' },
  },
  [`${STORE}/query/lead/trial/list`]: { body: (w) => ({ sessionId: w.session }), ids: { sessionId: 'session' } },
  // members' own data (个人信息): the manager's list and decision (a rejection: the world's member stays)
  [`${STORE}/query/erasure/request/list`]: { body: () => ({ status: 'pending' }) },
  [`${STORE}/update/erasure/request`]: {
    body: (w) => ({ id: w.erasureRequest, approve: false, note: '会员卡仍在使用' }),
    ids: { id: 'erasureRequest' },
  },
  [`${STORE}/reveal/member/mobile`]: { body: (w) => ({ memberId: w.member }), ids: { memberId: 'member' } },
  // 健康声明: the manager's questions, the staff's mark and answers, the member's form (no consent
  // in a fresh world: the answers are refused, 409)
  [`${STORE}/query/health/setting`]: { body: () => ({}) },
  [`${STORE}/query/contract/template`]: { body: () => ({}) },
  [`${STORE}/update/contract/template`]: {
    body: () => ({
      title: '会员卡服务合同',
      body: '乙方 {{会员姓名}} 购买 {{卡种名称}}，实付 {{实付金额}}。',
      licenceName: '',
    }),
  },
  [`${STORE}/query/card/contract`]: { body: (w) => ({ mcId: w.memberCard }), ids: { mcId: 'memberCard' } },
  // signing: the world's card was made without a sale (as an import makes one): it has no contract (409)
  [`${STORE}/create/card/contract/link`]: { body: (w) => ({ mcId: w.memberCard }), ids: { mcId: 'memberCard' } },
  [`${STORE}/sign/card/contract`]: {
    body: (w) => ({
      mcId: w.memberCard,
      image:
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    }),
    ids: { mcId: 'memberCard' },
  },
  [`${STORE}/download/card/contract`]: { body: (w) => ({ mcId: w.memberCard }), ids: { mcId: 'memberCard' } },
  '/member/api/query/contract/preview': { body: (w) => ({ productId: w.cardProduct }) },
  '/member/api/send/contract/code': { body: (w) => ({ productId: w.cardProduct }) },
  '/member/api/query/card/contract': { body: (w) => ({ mcId: w.memberCard }) },
  '/member/api/sign/contract': { body: (w) => ({ mcId: w.memberCard, agree: true, code: '123456' }) },
  '/member/api/download/contract': { body: (w) => ({ mcId: w.memberCard }) },
  [`${STORE}/update/health/setting`]: {
    body: () => ({ questions: ['是否有心脏病？', '其他情况？'], required: false, reanswer: false }),
  },
  [`${STORE}/query/health/flags`]: { body: (w) => ({ tid: w.session }), ids: { tid: 'session' } },
  [`${STORE}/query/member/health`]: { body: (w) => ({ mid: w.member }), ids: { mid: 'member' } },
  '/member/api/query/my/health': { body: () => ({}) },
  '/member/api/add/my/health': {
    body: () => ({ version: 1, answers: [false, false, false, false, false], note: null, shareDetails: false }),
  },
  '/member/api/query/trial/form': { body: (w) => ({ storeId: w.storeId }), anon: true },
  '/member/api/insert/trial/signup': {
    body: (w) => ({ storeId: w.storeId, name: '体验者', mobile: randomMobile(), interests: '瑜伽' }),
    anon: true,
  },
  '/member/api/query/referral': { body: () => ({}) },
  [`${STORE}/update/sale/seller`]: {
    body: (w) => ({ id: w.topupPayment, sellerId: w.staff }),
    ids: { id: 'topupPayment', sellerId: 'staff' },
  },
  [`${STORE}/close/sales/commission/month`]: { body: () => ({ month: '2020-01' }) },
  [`${STORE}/reopen/sales/commission/month`]: { body: () => ({ month: '2020-01', reason: '重新核对' }) },
  [`${STORE}/query/pay/closed/month/list`]: { body: () => ({}) },

  // 导入 (a one-row CSV of a new member each time) and 导出全部数据
  [`${STORE}/query/import/columns`]: { body: () => ({ fileName: '会员.csv', content: importCsv() }) },
  [`${STORE}/import/members`]: {
    body: () => ({
      fileName: '会员.csv',
      content: importCsv(),
      mapping: { 姓名: 'name', 手机号: 'mobile' },
      duplicates: 'merge',
    }),
  },
  [`${STORE}/export/store/data`]: { body: () => ({ format: 'json' }) },
  [`${STORE}/query/job/progress`]: { body: () => ({ progressId: 'payload-progress-1' }) },
};

/** A CSV file of one new member, base64. */
function importCsv(): string {
  return Buffer.from(`姓名,手机号\n导入会员,${randomMobile()}\n`).toString('base64');
}

/** Sets the value at a dotted path (`students.mcId` sets `mcId` of every item of `students`). */
export function setPath(body: Record<string, unknown>, dotted: string, value: number | string): void {
  const [head, ...rest] = dotted.split('.');
  if (!rest.length) {
    body[head] = Array.isArray(body[head]) ? [value] : value;
    return;
  }
  const inner = body[head];
  const items = Array.isArray(inner) ? inner : [inner];
  for (const item of items)
    if (item && typeof item === 'object') setPath(item as Record<string, unknown>, rest.join('.'), value);
}
