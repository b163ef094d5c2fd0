/** Limits and constants shared by the server and the web app (spec section 9). */
export const BOOKED_PAGE_SIZE = 10;
export const HISTORY_PAGE_SIZE = 10;
export const COPY_MAX_DAYS = 7;
export const COPY_MAX_MS = 604_800_000;
export const WEEK_ARRANGE_MIN = 1;
export const WEEK_ARRANGE_MAX = 200;
export const WEEK_ARRANGE_DEFAULT = 1;
/**
 * Weekly template caps: rows per store and fixed students per row. They bound the longest write
 * (a 200-week run: 50 x 200 = 10,000 sessions and up to 100,000 bookings in one transaction; its
 * pause is measured by bench/template-pause.ts and documented in docs/hardening.md).
 */
export const MAX_FIX_ROWS = 50;
export const MAX_FIX_STUDENTS = 10;
export const PICTURE_DOWNLOAD_DELAY_MS = 3000;
export const PICTURE_CAPTURE_TIMEOUT_MS = 15_000;
export const PICTURE_FILE_NAME = '周课表图';
export const PICTURE_DEFAULT_TITLE = '团课课程表';
export const EXPORT_COURSE_NAME_CHARS = 15;

/** Store modules (spec section 7: module status). */
export const MODULE_ONLINE_DEFAULT = 1;
export const MODULE_DEDUCTION_MODE = 6;
/** Module 6 status: 0 deduct at booking, 1 deduct only at sign-in. */
export const DEDUCT_AT_BOOKING = 0;
export const DEDUCT_AT_SIGN_IN = 1;

/** History operate types (spec section 3). */
export const OperateType = {
  USER_BOOKED: 1,
  ADMIN_BOOKED: 2,
  USER_CANCELLED: 3,
  ADMIN_CANCELLED: 4,
  /** A member's cancel after the free-cancel time, the deduction kept (迟到取消). */
  LATE_CANCEL: 5,
  /** A pending not signed in by the class's end, charged or marked by the no-show job (爽约). */
  NO_SHOW: 6,
  /** Staff waived a late-cancel or no-show charge: refunded (免除扣费). */
  WAIVED: 7,
  /** A pending signed in at the desk, charged then (前台签到): its own line, not a second booking. */
  SIGNED_IN: 8,
  /** A pending the member checked in by themself with the store's code (会员扫码签到). */
  SELF_CHECKED_IN: 9,
  /**
   * A booking (预约即扣费) marked attended by the desk or the teacher (到店): charges nothing, the
   * booking did. A member's own scan of such a booking is SELF_CHECKED_IN.
   */
  ATTENDED: 10,
  /** A booking's attendance taken back by the desk or the teacher (撤销到店). */
  ATTENDANCE_UNDONE: 11,
  /** A seat given to the first of the queue when one came free (候补递补): made by the system, not the member or the desk. */
  PROMOTED: 12,
} as const;

/** The history types that book a seat: the member's own booking, the desk's, and a promotion from the queue. */
export const BOOKED_TYPES: readonly number[] = [
  OperateType.USER_BOOKED,
  OperateType.ADMIN_BOOKED,
  OperateType.PROMOTED,
];

/** Days after a class's end during which the desk and the teacher may still change who came; a manager always. */
export const ATTENDANCE_EDIT_DAYS = 7;

/** Reservation states. */
export const ReservationStatus = { BOOKED: 1, SIGNED_IN: 2, CANCELLED: 3 } as const;
/**
 * Pending states: 1 waiting for sign-in; 2 signed in; 3 cancelled; 4 a no-show (not signed in by the
 * class's end, processed by the no-show job: its seat stays counted, as it was taken).
 */
export const PendingStatus = { WAITING: 1, SIGNED_IN: 2, CANCELLED: 3, NO_SHOW: 4 } as const;
/** The reservation states that hold a seat and count as the member's booking of the session. */
export const LIVE_RESERVATION: readonly number[] = [ReservationStatus.BOOKED, ReservationStatus.SIGNED_IN];
/** The pending states that count as the member's booking of the session (one a member per session). */
export const LIVE_PENDING: readonly number[] = [PendingStatus.WAITING, PendingStatus.SIGNED_IN];
/** Waitlist states: 1 waiting; 2 promoted to a booking or pending; 3 left the queue; 4 ended without a seat. */
export const WaitStatus = { WAITING: 1, PROMOTED: 2, LEFT: 3, ENDED: 4 } as const;

/** Card products: bigType 1 = count card, otherwise stored-value (fen). cardType 2 = never expires. */
export const BIG_TYPE_COUNT = 1;
export const BIG_TYPE_MONEY = 2;
export const CARD_TYPE_NO_EXPIRY = 2;
export const CARD_TYPE_EXPIRES = 1;

/** Gender limit: 2 all, 1 male, otherwise female. Member gender: 1 male, 2 female, 0 unknown. */
export const GENDER_ALL = 2;

/** Per-call list caps, enforced by the schemas. */
export const MAX_LIST_IDS = 200;
export const MAX_BATCH_SESSIONS = 2000;
export const MAX_TEXT = 500;
export const MAX_NAME = 50;
export const MAX_RANGE_DAYS = 62;
/**
 * Batch delete's range (a quarter): one call deletes at most this many days of classes with their
 * bookings and refunds, in one transaction that holds the store's writes while it runs.
 */
export const BATCH_DELETE_MAX_DAYS = 92;
/** Largest integer accepted in any count or money field (fen): 100 million yuan. */
export const MAX_AMOUNT = 10_000_000_000;
export const MAX_COUNT = 100_000;

/** How the desk took (or paid back) money for a card sale, top-up or refund (records, not processing). */
export const PAY_METHODS = { cash: '现金', wechat: '微信', alipay: '支付宝', card: '银行卡', other: '其他' } as const;
export type PayMethod = keyof typeof PAY_METHODS;
/** Card payment kinds: a sale (issue), a top-up, money paid back. */
export const PAYMENT_KINDS = { sale: '售卡', topup: '充值', refund: '退款' } as const;
