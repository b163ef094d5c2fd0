/**
 * Every cache key of the app. A key starts with its domain, so invalidating the first part
 * (`keys.sessions.all`) refetches everything below it. Nothing else writes a key by hand.
 */
export const keys = {
  profile: ['profile'],
  setupStatus: ['setup-status'],
  teachers: ['teachers'],
  venues: ['venues'],
  materials: {
    all: ['materials'],
    ofStore: (storeId: number) => ['materials', storeId],
  },
  courses: {
    all: ['courses'],
    options: ['courses', 'options'],
    page: (page: number, pageSize: number, search: string) => ['courses', 'page', page, pageSize, search],
    one: (id: number) => ['courses', 'one', id],
  },
  /** A staff member's 推广链接 (issue 30). */
  /** A staff member's 推广链接 (`'mine'`: the signed-in staff member's own). */
  sellerLink: (staffId: number | 'mine') => ['seller-link', staffId],
  cardProducts: ['card-products'],
  /** 私教/小班 lesson types (issue 43). */
  lessonTypes: ['lesson-types'],
  /** Online orders: one order the desk's 扫码收款 polls, the store's list (线上订单). */
  payOrders: {
    all: ['pay-orders'],
    one: (orderNo: string | undefined) => ['pay-orders', 'one', orderNo],
    list: (fromDate: string, toDate: string, status: string | undefined, page: number) => [
      'pay-orders',
      'list',
      fromDate,
      toDate,
      status,
      page,
    ],
    /** 对账: a day's reconciliation results. */
    reconcile: (date: string) => ['pay-orders', 'reconcile', date],
  },
  calendar: {
    all: ['calendar'],
    range: (fromDate: string, toDate: string, venueId: number | null, teacherId: number | null) => [
      'calendar',
      'range',
      fromDate,
      toDate,
      venueId,
      teacherId,
    ],
    week: (monday: string) => ['calendar', 'week', monday],
    /** 约体验课: a day's group classes with a seat left. */
    trialSessions: (date: string) => ['calendar', 'trial-sessions', date],
    /** 约私教: the lesson types and a type's free start times (a booking anywhere changes them). */
    lessonTypes: ['calendar', 'lesson-types'],
    freeSlots: (courseId: number, teacherId: number, date: string, members: number) => [
      'calendar',
      'free-slots',
      courseId,
      teacherId,
      date,
      members,
    ],
    /** 按老师看一天: each teacher's working and free hours of the day. */
    teacherHours: (date: string) => ['calendar', 'teacher-hours', date],
    dropInTeachers: (courseId: number | undefined, date: string | undefined) => [
      'calendar',
      'drop-in-teachers',
      courseId,
      date,
    ],
    dropInCount: (courseId: number | undefined, date: string | undefined, teacherIds: number[]) => [
      'calendar',
      'drop-in-count',
      courseId,
      date,
      teacherIds,
    ],
  },
  sessions: {
    all: ['session'],
    info: (id: number) => ['session', id, 'info'],
    bookings: (id: number, page: number) => ['session', id, 'bookings', page],
    pendings: (id: number) => ['session', id, 'pendings'],
    history: (id: number, page: number) => ['session', id, 'history', page],
    online: (id: number) => ['session', id, 'online'],
    waitlist: (id: number) => ['session', id, 'waitlist'],
    /** The session's members marked 健康提示. */
    health: (id: number) => ['session', id, 'health'],
    /** The leads' trial classes (体验课) booked into it. */
    trials: (id: number) => ['session', id, 'trials'],
  },
  /** One member with their cards, their cards usable for a course, their bookings. */
  member: {
    all: ['member'],
    one: (id: number | undefined) => ['member', id],
    cardsForCourse: (id: number | undefined, courseId: number | undefined) => ['member', id, 'cards-for', courseId],
    payments: (id: number) => ['member', id, 'payments'],
    /** A card's leaves (`mcId`), or the store's in one status (issue 29). */
    leaves: (mcId: number | null, status?: string) => ['member', 'leaves', mcId, status ?? null],
    /** What a leave of the card from `from` to `to` would do. */
    leavePreview: (mcId: number, from?: string, to?: string) => ['member', 'leave-preview', mcId, from, to],
    /** What a whole-card refund pays back now (the server's quote). */
    refundQuote: (mcId: number) => ['member', 'refund-quote', mcId],
    /** Who holds the card and its bookings still to come (转卡). */
    transferPreview: (mcId: number) => ['member', 'transfer-preview', mcId],
    waits: (id: number) => ['member', id, 'waits'],
    /** 健康声明: the mark, and the answers for a role that may read them. */
    health: (id: number) => ['member', id, 'health'],
    /** A card's contract (电子合同), as its sale filled it. */
    contract: (mcId: number) => ['member', 'contract', mcId],
    policyStatus: (id: number) => ['member', id, 'policy-status'],
    bookings: (id: number, scope: string, page: number, pageSize: number) => [
      'member',
      id,
      'bookings',
      scope,
      page,
      pageSize,
    ],
  },
  memberList: {
    all: ['member-list'],
    page: (page: number, pageSize: number, search: string) => ['member-list', page, pageSize, search],
    /** Members' requests to delete their account (删除申请), by status. */
    erasure: (status: string) => ['member-list', 'erasure', status],
  },
  memberSearch: {
    all: ['member-search'],
    text: (text: string) => ['member-search', text],
  },
  cardLedger: {
    all: ['card-ledger'],
    one: (cardId: number) => ['card-ledger', cardId],
  },
  weeklyTemplate: ['weekly-template'],
  bookingPolicy: ['booking-policy'],
  /** The desk's day: classes with rosters, by date. */
  today: {
    all: ['today'],
    of: (date: string | null) => ['today', date],
  },
  /** The manager's reports and the card alerts, by report and filter. */
  reports: {
    all: ['reports'],
    of: (report: string, filter: object) => ['reports', report, filter],
  },
  bookingSetting: ['booking-setting'],
  /** What a deduction-mode switch leaves as it is (bookings and pendings from today on). */
  deductionImpact: ['booking-setting', 'deduction-impact'],
  /** A store module's status (spec: module 1 online default, 6 deduction mode); saved with 预约设置. */
  moduleStatus: (moduleId: number) => ['booking-setting', 'module', moduleId],
  storeSetting: {
    all: ['store-setting'],
    one: (storeId: number) => ['store-setting', storeId],
  },
  /** 在线收款 settings (under the store setting: its writes refresh it). */
  paySetting: ['store-setting', 'pay'],
  messagingSetting: ['messaging-setting'],
  /** The members' page address (its QR code) and today's check-in code. */
  memberPage: ['store-setting', 'member-page'],
  checkinCode: ['store-setting', 'checkin-code'],
  smsSetting: ['store-setting', 'sms'],
  /** Cooling-off days and how members' leave requests are approved (issue 29). */
  cardLifeSetting: ['store-setting', 'card-life'],
  /** 预付卡限额 and the cards over it (saving the setting refreshes both). */
  prepaidLimits: ['store-setting', 'prepaid-limits'],
  prepaidOver: ['store-setting', 'prepaid-over'],
  onlineSetting: ['store-setting', 'online'],
  /** 健康声明's questions and whether it is asked before booking. */
  healthSetting: ['store-setting', 'health'],
  /** 合同模板: a version (none: the one in force) with the list of versions. */
  contractTemplate: (version?: number) => ['store-setting', 'contract', version ?? 'current'],
  storeFunctions: ['store-functions'],
  /** The store's staff (员工). */
  staff: ['staff'],
  /** Who may be named 销售员 (the store's enabled staff; under `staff`, so staff changes refresh it). */
  sellers: ['staff', 'sellers'],
  /** 课时费 and 销售提成: rules, monthly statements, commission rates, closed months. */
  teacherPay: {
    all: ['teacher-pay'],
    rules: ['teacher-pay', 'rules'],
    statement: (month: string, teacherId: number | null) => ['teacher-pay', 'statement', month, teacherId],
    commission: (month: string) => ['teacher-pay', 'commission', month],
    rates: ['teacher-pay', 'rates'],
    closed: ['teacher-pay', 'closed'],
  },
  /** 私教/小班 set-up (issue 43): lesson types, machines, a teacher's working hours, the booking setting. */
  lessonSetup: {
    all: ['lesson-setup'],
    types: ['lesson-setup', 'types'],
    equipment: ['lesson-setup', 'equipment'],
    hours: (teacherId: number) => ['lesson-setup', 'hours', teacherId],
    setting: ['lesson-setup', 'setting'],
  },
  /** 潜客: lists, a lead, 我的待跟进, the setting and the funnel (issue 44), by what and its filter. */
  leads: {
    all: ['leads'],
    of: (what: string, params: object) => ['leads', what, params],
  },
  /** The audit log (操作日志), by filter and page. */
  audit: {
    all: ['audit'],
    page: (filter: object) => ['audit', filter],
  },
} as const;
