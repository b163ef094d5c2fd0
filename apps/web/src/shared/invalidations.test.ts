import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { afterWrite, invalidates, type WriteKind } from './invalidations.ts';
import { keys } from './query-keys.ts';

/** One cached query for every key the factory makes (a `.all` is a prefix, not a query of its own). */
const sample = {
  profile: keys.profile,
  setupStatus: keys.setupStatus,
  teachers: keys.teachers,
  venues: keys.venues,
  'materials.ofStore': keys.materials.ofStore(1),
  'courses.options': keys.courses.options,
  'courses.page': keys.courses.page(1, 20, ''),
  'courses.one': keys.courses.one(3),
  cardProducts: keys.cardProducts,
  lessonTypes: keys.lessonTypes,
  sellerLink: keys.sellerLink(2),
  'payOrders.one': keys.payOrders.one('P1'),
  'payOrders.list': keys.payOrders.list('2026-11-01', '2026-11-30', undefined, 1),
  'payOrders.reconcile': keys.payOrders.reconcile('2026-11-26'),
  'calendar.range': keys.calendar.range('2026-11-23', '2026-11-29', null, 2),
  'calendar.week': keys.calendar.week('2026-11-23'),
  'calendar.trialSessions': keys.calendar.trialSessions('2026-11-23'),
  'calendar.lessonTypes': keys.calendar.lessonTypes,
  'calendar.freeSlots': keys.calendar.freeSlots(3, 2, '2026-11-27', 1),
  'calendar.teacherHours': keys.calendar.teacherHours('2026-11-27'),
  'calendar.dropInTeachers': keys.calendar.dropInTeachers(3, '2026-11-27'),
  'calendar.dropInCount': keys.calendar.dropInCount(3, '2026-11-27', [2, 4]),
  'sessions.info': keys.sessions.info(7),
  'sessions.bookings': keys.sessions.bookings(7, 1),
  'sessions.pendings': keys.sessions.pendings(7),
  'sessions.history': keys.sessions.history(7, 1),
  'sessions.online': keys.sessions.online(7),
  'sessions.waitlist': keys.sessions.waitlist(7),
  'sessions.health': keys.sessions.health(7),
  'sessions.trials': keys.sessions.trials(7),
  'member.one': keys.member.one(5),
  'member.cardsForCourse': keys.member.cardsForCourse(5, 3),
  'member.payments': keys.member.payments(5),
  'member.leaves': keys.member.leaves(9),
  'member.refundQuote': keys.member.refundQuote(9),
  'member.transferPreview': keys.member.transferPreview(9),
  'member.leavePreview': keys.member.leavePreview(9, '2026-12-01', '2026-12-03'),
  'member.waits': keys.member.waits(5),
  'member.health': keys.member.health(5),
  'member.contract': keys.member.contract(5),
  'member.policyStatus': keys.member.policyStatus(5),
  'member.bookings': keys.member.bookings(5, 'upcoming', 1, 10),
  'memberList.page': keys.memberList.page(1, 20, ''),
  'memberList.erasure': keys.memberList.erasure('pending'),
  'memberSearch.text': keys.memberSearch.text('138'),
  'cardLedger.one': keys.cardLedger.one(9),
  weeklyTemplate: keys.weeklyTemplate,
  bookingPolicy: keys.bookingPolicy,
  'today.of': keys.today.of('2026-11-27'),
  'reports.of': keys.reports.of('overview', { from: '2026-11-01' }),
  'leads.of': keys.leads.of('list', { page: 1 }),
  bookingSetting: keys.bookingSetting,
  deductionImpact: keys.deductionImpact,
  moduleStatus: keys.moduleStatus(6),
  'storeSetting.one': keys.storeSetting.one(1),
  messagingSetting: keys.messagingSetting,
  memberPage: keys.memberPage,
  checkinCode: keys.checkinCode,
  smsSetting: keys.smsSetting,
  cardLifeSetting: keys.cardLifeSetting,
  prepaidLimits: keys.prepaidLimits,
  prepaidOver: keys.prepaidOver,
  onlineSetting: keys.onlineSetting,
  healthSetting: keys.healthSetting,
  contractTemplate: keys.contractTemplate(),
  paySetting: keys.paySetting,
  storeFunctions: keys.storeFunctions,
  staff: keys.staff,
  sellers: keys.sellers,
  'teacherPay.rules': keys.teacherPay.rules,
  'teacherPay.statement': keys.teacherPay.statement('2026-11', null),
  'teacherPay.commission': keys.teacherPay.commission('2026-11'),
  'teacherPay.rates': keys.teacherPay.rates,
  'teacherPay.closed': keys.teacherPay.closed,
  'audit.page': keys.audit.page({ page: 1 }),
  'lessonSetup.types': keys.lessonSetup.types,
  'lessonSetup.equipment': keys.lessonSetup.equipment,
  'lessonSetup.hours': keys.lessonSetup.hours(2),
  'lessonSetup.setting': keys.lessonSetup.setting,
} satisfies Record<string, QueryKey>;
type Name = keyof typeof sample;

const calendar: Name[] = [
  'calendar.range',
  'calendar.week',
  'calendar.trialSessions',
  'calendar.dropInTeachers',
  'calendar.dropInCount',
  'calendar.lessonTypes',
  'calendar.freeSlots',
  'calendar.teacherHours',
];
const sessions: Name[] = [
  'sessions.info',
  'sessions.bookings',
  'sessions.pendings',
  'sessions.history',
  'sessions.online',
  'sessions.waitlist',
  'sessions.health',
  'sessions.trials',
];
const member: Name[] = [
  'member.one',
  'member.cardsForCourse',
  'member.payments',
  'member.leaves',
  'member.refundQuote',
  'member.transferPreview',
  'member.leavePreview',
  'member.waits',
  'member.health',
  'member.contract',
  'member.policyStatus',
  'member.bookings',
];
const courses: Name[] = ['courses.options', 'courses.page', 'courses.one'];
const teacherPay: Name[] = [
  'teacherPay.rules',
  'teacherPay.statement',
  'teacherPay.commission',
  'teacherPay.rates',
  'teacherPay.closed',
];

/** What each write must refetch, by name; everything else stays as it is. */
const expected: Record<WriteKind, Name[]> = {
  session: [...calendar, ...sessions, ...member, 'reports.of', 'today.of', ...teacherPay],
  course: [...courses, 'cardProducts'],
  cardProduct: ['cardProducts', ...courses, ...sessions],
  memberCard: [...member, 'cardLedger.one', 'memberSearch.text', 'reports.of', ...teacherPay, 'leads.of'],
  cardLeave: [...calendar, ...sessions, ...member, 'cardLedger.one', 'reports.of', 'today.of'],
  payOrder: ['payOrders.one', 'payOrders.list', 'payOrders.reconcile', ...member, 'cardLedger.one', 'reports.of'],
  member: ['memberList.page', 'memberList.erasure', ...member, 'memberSearch.text', 'reports.of', 'today.of'],
  teacher: ['teachers'],
  venue: ['venues'],
  material: ['materials.ofStore'],
  weeklyTemplate: ['weeklyTemplate'],
  bookingSetting: ['bookingSetting', 'deductionImpact', 'moduleStatus', ...sessions, 'today.of', 'profile'],
  storeSetting: [
    'storeSetting.one',
    'memberPage',
    'checkinCode',
    'smsSetting',
    'onlineSetting',
    'cardLifeSetting',
    'prepaidLimits',
    'prepaidOver',
    'paySetting',
    'healthSetting',
    'contractTemplate',
  ],
  messagingSetting: ['messagingSetting'],
  storeFunctions: ['storeFunctions'],
  bookingPolicy: ['bookingPolicy'],
  alertDigest: ['reports.of'],
  staff: ['staff', 'sellers', 'profile'],
  teacherPay,
  lessonSetup: [
    'lessonSetup.types',
    'lessonSetup.equipment',
    'lessonSetup.hours',
    'lessonSetup.setting',
    'cardProducts',
    ...calendar,
  ],
  lead: ['leads.of'],
  leadTrial: ['leads.of', ...calendar, ...sessions, 'today.of'],
  undo: [...calendar, ...sessions, ...member, 'cardLedger.one', 'reports.of', 'today.of', 'audit.page'],
};

/** A cache holding every sample key, after `kind`'s write: the names whose query is now stale. */
function refetchedBy(kind: WriteKind): Name[] {
  const qc = new QueryClient();
  for (const key of Object.values(sample)) qc.setQueryData(key, 'cached');
  afterWrite(qc, kind);
  return (Object.keys(sample) as Name[]).filter(
    (name) => qc.getQueryCache().find({ queryKey: sample[name], exact: true })!.state.isInvalidated,
  );
}

/** Every key path of the factory (`courses.page`), leaving out the `.all` prefixes. */
function factoryPaths(o: object, at = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => {
    const path = at ? `${at}.${k}` : k;
    if (k === 'all') return [];
    return Array.isArray(v) || typeof v === 'function' ? [path] : factoryPaths(v as object, path);
  });
}

describe('invalidations: each write refetches what it changes, and nothing else', () => {
  it('the sample holds one query of every key the factory makes', () => {
    expect(Object.keys(sample).sort()).toEqual(factoryPaths(keys).sort());
  });

  it('every kind of write has its expectation here', () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(invalidates).sort());
  });

  for (const kind of Object.keys(invalidates) as WriteKind[]) {
    it(`a ${kind} write`, () => {
      expect(refetchedBy(kind).sort()).toEqual([...new Set(expected[kind])].sort());
    });
  }

  it('a key is matched by its whole first part: member-list and member-search are not member', () => {
    const stale = refetchedBy('memberCard');
    expect(stale).toContain('member.one');
    expect(stale).not.toContain('memberList.page');
    expect(refetchedBy('session')).not.toContain('memberSearch.text');
  });

  it('booking writes reach the desk day and the reports; settings of the store do not reach sessions', () => {
    expect(refetchedBy('session')).toEqual(expect.arrayContaining(['today.of', 'reports.of', 'sessions.waitlist']));
    expect(refetchedBy('storeSetting')).not.toContain('sessions.info');
    expect(refetchedBy('teacher')).toEqual(['teachers']);
  });
});
