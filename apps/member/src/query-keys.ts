/**
 * Every cache key of the members' page. A key starts with its domain, so invalidating the first
 * part (`keys.timetable.all`) refetches everything below it. Nothing else writes a key by hand.
 */
export const keys = {
  /** The store of the page (name, logo, booking policy). */
  store: (storeId: number) => ['store', storeId],
  /** Who is signed in on this phone for this store (null: nobody). */
  me: (storeId: number) => ['me', storeId],
  timetable: {
    all: ['timetable'],
    /** The week as anyone sees it, before sign-in. */
    public: (storeId: number, fromDate: string, toDate: string) => ['timetable', 'public', storeId, fromDate, toDate],
    /** Every signed-in view of the weeks (with my state on each class). */
    mineAll: ['timetable', 'mine'],
    mine: (fromDate: string, toDate: string) => ['timetable', 'mine', fromDate, toDate],
  },
  /** 我的预约, by tab (待上课, 已结束) and page. */
  bookings: {
    all: ['bookings'],
    page: (state: 'upcoming' | 'past', page: number) => ['bookings', state, page],
  },
  /** My cards: 我的会员卡, and the ones usable for a class. */
  cards: {
    all: ['cards'],
    mine: ['cards', 'mine'],
    forSession: (sessionId: number) => ['cards', 'for-session', sessionId],
    /** The ones usable for a lesson (私教/小班) of a type with a teacher at a start. */
    forLesson: (courseId: number, teacherId: number, startTime: string) => [
      'cards',
      'for-lesson',
      courseId,
      teacherId,
      startTime,
    ],
    /** A card's leave rules and leaves (请假). */
    leaves: (mcId: number) => ['cards', 'leaves', mcId],
  },
  /**
   * 约私教: the lesson types with their teachers, a day's free start times and a day's 小班 with room
   * to join (null teacher: 任意老师).
   */
  lessons: {
    all: ['lessons'],
    types: ['lessons', 'types'],
    slots: (courseId: number, teacherId: number | null, date: string) => [
      'lessons',
      'slots',
      courseId,
      teacherId,
      date,
    ],
    open: (courseId: number, teacherId: number | null, date: string) => ['lessons', 'open', courseId, teacherId, date],
  },
  /** 购卡: the cards on sale, the top-up amounts and which ways to pay the store takes. */
  shop: ['shop'],
  /** 我的订单 by page, and one order as 我已支付 asks for it. */
  orders: {
    all: ['orders'],
    page: (page: number) => ['orders', 'page', page],
  },
  /** A proof-of-work challenge, one per check shown (`nonce`): an answer serves one code request. */
  challenge: (nonce: number) => ['challenge', nonce],
} as const;

/** What only the signed-in member may see: dropped at sign-out, so the next member on this phone never sees it. */
export const privateKeys = [
  keys.timetable.mineAll,
  keys.bookings.all,
  keys.cards.all,
  keys.lessons.all,
  keys.shop,
  keys.orders.all,
] as const;
