import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { keys } from './query-keys.ts';

/**
 * What each kind of write changes: the caches refetched after it succeeds. One place, so a new
 * screen that shows data another screen writes only has to be listed here.
 */
export const invalidates = {
  /** Sessions and bookings (add, edit, delete, book, cancel, sign in, batch runs, online rooms): the calendar, open session details and members' balances and bookings. */
  session: [
    keys.calendar.all,
    keys.sessions.all,
    keys.member.all,
    keys.reports.all,
    keys.today.all,
    keys.teacherPay.all,
  ],
  /** A course: the course screens, the pickers and the card products naming it. */
  course: [keys.courses.all, keys.cardProducts],
  /** A card product: the products, the courses and sessions listing the cards they accept. */
  cardProduct: [keys.cardProducts, keys.courses.all, keys.sessions.all],
  /** A member's card (issue, top up, freeze, expiry): the member, the ledgers and the searches. */
  memberCard: [
    keys.member.all,
    keys.cardLedger.all,
    keys.memberSearch.all,
    keys.reports.all,
    keys.teacherPay.all,
    // A first card converts the member's lead (已成交).
    keys.leads.all,
  ],
  /** A leave taken, decided or ended (issue 29): the card's expiry and ledger, and the bookings it cancelled. */
  cardLeave: [
    keys.calendar.all,
    keys.sessions.all,
    keys.member.all,
    keys.cardLedger.all,
    keys.reports.all,
    keys.today.all,
  ],
  /** An online order refunded or a day reconciled (a late order fulfilled): the orders, the member's cards and payments. */
  payOrder: [keys.payOrders.all, keys.member.all, keys.cardLedger.all, keys.reports.all],
  member: [keys.memberList.all, keys.member.all, keys.memberSearch.all, keys.reports.all, keys.today.all],
  teacher: [keys.teachers],
  venue: [keys.venues],
  material: [keys.materials.all],
  weeklyTemplate: [keys.weeklyTemplate],
  /** Deduction mode (shown on 今日 and in the drawer), online default, time zone, store name (shown in the header). */
  bookingSetting: [keys.bookingSetting, keys.sessions.all, keys.today.all, keys.profile],
  storeSetting: [keys.storeSetting.all],
  messagingSetting: [keys.messagingSetting],
  storeFunctions: [keys.storeFunctions],
  bookingPolicy: [keys.bookingPolicy],
  /** The daily card-alert digest setting. */
  alertDigest: [keys.reports.all],
  /** A staff member (add, edit, enable, role): the staff list, and the own profile should it be one's own. */
  staff: [keys.staff, keys.profile],
  /** Pay rules, adjustments, commission rates, a month closed or reopened: the 课时费 screen. */
  teacherPay: [keys.teacherPay.all],
  /**
   * 私教/小班 set-up (lesson types, machines, hours, setting): its screens, the card products'
   * lesson-type picker, and the calendar's free times and teachers' hours worked out from it.
   */
  lessonSetup: [keys.lessonSetup.all, keys.cardProducts, keys.calendar.all],
  /** A lead added, edited, followed up, staged, assigned, taken; the leads' setting. */
  lead: [keys.leads.all],
  /** A lead's trial class booked, cancelled or attended: the lead, and the class's seats and rows. */
  leadTrial: [keys.leads.all, keys.calendar.all, keys.sessions.all, keys.today.all],
  /** An undone bulk change: everything a bulk change touches (sessions, bookings, balances) and the log. */
  undo: [
    keys.calendar.all,
    keys.sessions.all,
    keys.member.all,
    keys.cardLedger.all,
    keys.reports.all,
    keys.today.all,
    keys.audit.all,
  ],
} as const satisfies Record<string, readonly QueryKey[]>;

export type WriteKind = keyof typeof invalidates;

/** Refetches what a write of `kind` changed (not awaited: the screen goes on, the data follows). */
export function afterWrite(qc: QueryClient, kind: WriteKind): void {
  for (const key of invalidates[kind]) void qc.invalidateQueries({ queryKey: key });
}
