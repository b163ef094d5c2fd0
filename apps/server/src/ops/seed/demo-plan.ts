import { chargeFor } from '../../features/cards/public.ts';
import { bookingChecker, type SessionForRules } from '../../features/timetable/rules.ts';
import { addDays, addMinutes, weekday } from '../../lib/time.ts';
import {
  DEMO_COURSES,
  DEMO_PRODUCTS,
  FEMALE_GIVEN,
  MALE_GIVEN,
  MOBILE_PREFIXES,
  REMARKS,
  SLOTS,
  SURNAMES,
  type CourseName,
  type DemoCourse,
  type ProductName,
  type RoomName,
  type TeacherName,
} from './demo-data.ts';

export interface PlanMember {
  name: string;
  mobile: string;
  gender: number;
  birthday: string;
  createdAt: string;
}
export interface PlanCard {
  memberIndex: number;
  product: ProductName;
  /** How many times the card was topped up by one product balance right after issue. */
  topups: number;
  totalCount: number;
  usedCount: number;
  expireTime: string | null;
  frozen: number;
  createdAt: string;
}
export interface PlanSession {
  course: CourseName;
  teacher: TeacherName;
  room: RoomName;
  startTime: string;
  endTime: string;
  reservableCount: number;
  realCount: number;
}
export interface PlanBooking {
  sessionIndex: number;
  memberIndex: number;
  cardIndex: number;
  studentCount: number;
  usedCount: number;
  status: number;
  createTime: string;
  remark: string | null;
}
export interface DemoPlan {
  /** Monday two weeks before this week: the first day with sessions. */
  from: string;
  members: PlanMember[];
  cards: PlanCard[];
  sessions: PlanSession[];
  bookings: PlanBooking[];
}

const MEMBERS = 60;
const CHILDREN = 10;
const DAYS = 35;

/** mulberry32: a small seeded generator, so the demo is the same on every machine for a given day. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const shuffle = <T>(list: readonly T[]): T[] => {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return { next, int, pick, shuffle };
}
type Rng = ReturnType<typeof generator>;

const pad = (n: number) => String(n).padStart(2, '0');
const at = (date: string, rng: Rng) => `${date} ${pad(rng.int(9, 20))}:${pad(rng.int(0, 59))}:00`;
const overlaps = (list: { start: string; end: string }[], start: string, end: string) =>
  list.some((b) => b.start < end && start < b.end);

function planMembers(rng: Rng, today: string, from: string) {
  const year = Number(today.slice(0, 4));
  const names = new Set<string>();
  const mobiles = new Set<string>();
  const members: PlanMember[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const child = i % (MEMBERS / CHILDREN) === 3;
    const gender = rng.next() < (child ? 0.5 : 0.62) ? 2 : 1;
    let name = '';
    while (!name || names.has(name)) name = rng.pick(SURNAMES) + rng.pick(gender === 2 ? FEMALE_GIVEN : MALE_GIVEN);
    names.add(name);
    let mobile = '';
    while (!mobile || mobiles.has(mobile))
      mobile = rng.pick(MOBILE_PREFIXES) + String(rng.int(0, 99_999_999)).padStart(8, '0');
    mobiles.add(mobile);
    const age = child ? rng.int(5, 11) : rng.int(20, 55);
    const birthday = `${year - age}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
    members.push({ name, mobile, gender, birthday, createdAt: at(addDays(from, -rng.int(90, 200)), rng) });
  }
  return members;
}

function planCards(rng: Rng, members: PlanMember[], from: string) {
  const cards: PlanCard[] = [];
  members.forEach((m, memberIndex) => {
    const child = Number(from.slice(0, 4)) - Number(m.birthday.slice(0, 4)) < 13;
    const first: ProductName = child
      ? '20次卡'
      : rng.pick(['10次卡', '10次卡', '10次卡', '20次卡', '20次卡', '1000元储值卡', '1000元储值卡'] as const);
    const products: ProductName[] = [first];
    if (!child && rng.next() < 0.35)
      products.push(rng.pick(DEMO_PRODUCTS.filter((p) => p.cardName !== first)).cardName);
    for (const name of products) {
      const product = DEMO_PRODUCTS.find((p) => p.cardName === name)!;
      const issued = addDays(from, -rng.int(4, 85));
      const topups = rng.int(0, product.bigType === 1 ? 2 : 1);
      cards.push({
        memberIndex,
        product: name,
        topups,
        totalCount: product.total * (1 + topups),
        usedCount: 0,
        expireTime: product.validDays ? `${addDays(issued, product.validDays)} 23:59:59` : null,
        frozen: memberIndex % 29 === 17 ? 1 : 0,
        createdAt: at(issued, rng),
      });
    }
  });
  return cards;
}

function planSessions(rng: Rng, from: string) {
  const sessions: PlanSession[] = [];
  const courseOf = new Map(DEMO_COURSES.map((c) => [c.name, c]));
  for (let d = 0; d < DAYS; d++) {
    const date = addDays(from, d);
    const weekend = weekday(date) === 0 || weekday(date) === 6;
    const count = weekend ? rng.int(5, 6) : rng.int(4, 6);
    const slots = rng
      .shuffle(SLOTS)
      .slice(0, count)
      .sort((a, b) => a.time.localeCompare(b.time));
    const busy = new Map<string, { start: string; end: string }[]>();
    const list = (key: string) => busy.get(key) ?? busy.set(key, []).get(key)!;
    for (const slot of slots) {
      const start = `${date} ${slot.time}:00`;
      placing: for (const name of rng.shuffle(slot.courses)) {
        const course = courseOf.get(name)!;
        const end = addMinutes(start, course.duration);
        for (const teacher of rng.shuffle(course.teachers)) {
          if (overlaps(list(`t:${teacher}`), start, end)) continue;
          for (const room of course.rooms) {
            if (overlaps(list(`r:${room}`), start, end)) continue;
            list(`t:${teacher}`).push({ start, end });
            list(`r:${room}`).push({ start, end });
            sessions.push({
              course: name,
              teacher,
              room,
              startTime: start,
              endTime: end,
              reservableCount: course.count,
              realCount: 0,
            });
            break placing;
          }
        }
      }
    }
  }
  return sessions;
}

/** How full a session gets: past classes fuller, classes weeks ahead emptier. */
function fillRate(rng: Rng, s: PlanSession, now: string, from: string) {
  if (s.endTime <= now) return 0.25 + rng.next() * 0.45;
  const week = Math.floor((Date.parse(s.startTime.slice(0, 10)) - Date.parse(from)) / (7 * 86_400_000));
  if (week <= 2) return 0.2 + rng.next() * 0.35;
  if (week === 3) return 0.1 + rng.next() * 0.3;
  return 0.05 + rng.next() * 0.2;
}

function planBookings(rng: Rng, plan: Omit<DemoPlan, 'bookings'>, now: string) {
  const bookings: PlanBooking[] = [];
  const productId = (name: ProductName) => DEMO_PRODUCTS.findIndex((p) => p.cardName === name) + 1;
  const courseOf = new Map<CourseName, DemoCourse>(DEMO_COURSES.map((c) => [c.name, c]));
  const memberBusy = plan.members.map(() => [] as { start: string; end: string }[]);
  const cardsOf = plan.members.map((_, i) => plan.cards.flatMap((c, ci) => (c.memberIndex === i ? [ci] : [])));
  // Every booking goes through the engine's rule set, with the balances and seats the plan has taken so far.
  const checker = bookingChecker({ mode: 0 });
  const cardOf = plan.cards.map((c, ci) => ({
    ...c,
    ...DEMO_PRODUCTS[productId(c.product) - 1],
    id: ci,
    memberId: c.memberIndex,
    cardId: productId(c.product),
    leavePeriods: '[]',
    sharedWith: '[]',
    activateTime: c.createdAt,
    activation: 'sale',
  }));
  plan.sessions.forEach((s, sessionIndex) => {
    const course = courseOf.get(s.course)!;
    const session: SessionForRules = {
      ...course,
      sday: null,
      eday: null,
      key: sessionIndex,
      startTime: s.startTime,
      endTime: s.endTime,
      reservableCount: s.reservableCount,
      realCount: 0,
      allowedCardIds: DEMO_PRODUCTS.flatMap((p, i) => (p.courses.includes(s.course) ? [i + 1] : [])),
    };
    const seats = Math.round(s.reservableCount * fillRate(rng, s, now, plan.from));
    for (const memberIndex of rng.shuffle(plan.members.map((_, i) => i))) {
      if (s.realCount >= seats) break;
      const m = plan.members[memberIndex];
      const member = { id: memberIndex, gender: m.gender, birthday: m.birthday };
      // Booked before the class starts (and not after now): the rules as they stood then.
      const at = s.startTime < now ? s.startTime : now;
      if (checker.check({ session, member, card: null, studentCount: 1 }, at)) continue;
      if (overlaps(memberBusy[memberIndex], s.startTime, s.endTime)) continue;
      const studentCount = seats - s.realCount >= 2 && rng.next() < 0.06 ? 2 : 1;
      const intent = (ci: number) => ({ session, member, card: cardOf[ci], studentCount });
      const cardIndex = cardsOf[memberIndex].find((ci) => !checker.check(intent(ci), at));
      if (cardIndex === undefined) continue;
      checker.take(intent(cardIndex), at);
      const card = plan.cards[cardIndex];
      const usedCount = chargeFor(cardOf[cardIndex], studentCount);
      card.usedCount += usedCount;
      s.realCount += studentCount;
      memberBusy[memberIndex].push({ start: s.startTime, end: s.endTime });
      const booked = addMinutes(s.startTime, -rng.int(2 * 60, 72 * 60));
      bookings.push({
        sessionIndex,
        memberIndex,
        cardIndex,
        studentCount,
        usedCount,
        status: s.endTime <= now && rng.next() < 0.85 ? 2 : 1,
        createTime: booked < now ? booked : now,
        remark: rng.next() < 0.08 ? rng.pick(REMARKS) : null,
      });
    }
  });
  return bookings;
}

/**
 * The demo studio's members, cards, sessions and bookings for the five weeks around `now`
 * (store-local `YYYY-MM-DD HH:mm:ss`): two weeks back, this week and two ahead, Monday first.
 * Every booking passes the real card, gender and age rules; seats and balances add up.
 */
export function planDemo(now: string, seed = 20_261_121): DemoPlan {
  const rng = generator(seed);
  const today = now.slice(0, 10);
  const from = addDays(today, -((weekday(today) + 6) % 7) - 14);
  const members = planMembers(rng, today, from);
  const cards = planCards(rng, members, from);
  const sessions = planSessions(rng, from);
  const bookings = planBookings(rng, { from, members, cards, sessions }, now);
  return { from, members, cards, sessions, bookings };
}
