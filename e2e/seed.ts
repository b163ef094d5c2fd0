import type { Kysely } from 'kysely';
import type { Page } from 'playwright-core';
import type { Database } from '../apps/server/src/db/schema.ts';
import type { Api } from './harness.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of the Monday of this week (+ offset weeks), in Asia/Shanghai. */
export function mondayOf(offsetWeeks = 0): string {
  const now = new Date(Date.now() + 8 * 3600_000);
  const day = now.getUTCDay() || 7;
  const d = new Date(now.getTime() - (day - 1) * 86_400_000 + offsetWeeks * 7 * 86_400_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

export function addDays(date: string, n: number): string {
  const d = new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

let seq = 0;
const uniq = () => `${Date.now() % 100000}${++seq}`;

/** Data a flow needs, made through the API: venue, teacher, course, card product, member with a card. */
export interface Fixture {
  areaId: number;
  roomId: number;
  teacherId: number;
  teacherName: string;
  courseId: number;
  courseName: string;
  productId: number;
  productName: string;
  memberId: number;
  memberName: string;
  memberMobile: string;
  mcId: number;
}

export async function makeFixture(api: Api, tag = ''): Promise<Fixture> {
  const u = uniq();
  const area = await api.ok<{ id: number }>('insert/area', { name: `测试馆${tag}${u}` });
  const room = await api.ok<{ id: number }>('insert/area', { name: `一号教室${tag}${u}`, parentId: area.id });
  const teacherName = `王老师${tag}${u}`;
  const teacher = await api.ok<{ id: number }>('insert/teacher', { name: teacherName });
  const productName = `十次卡${tag}${u}`;
  const product = await api.ok<{ id: number }>('insert/card/product', {
    cardName: productName,
    bigType: 1,
    cardType: 2,
    perCount: 1,
    price: 100000,
    courseIds: [],
  });
  const courseName = `瑜伽${tag}${u}`;
  const course = await api.ok<{ id: number }>('insert/store/course', {
    name: courseName,
    count: 12,
    duration: 60,
    color: '#52c41a',
    cardIds: [product.id],
  });
  const memberName = `李会员${tag}${u}`;
  const memberMobile = `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const member = await api.ok<{ id: number }>('insert/member', { name: memberName, mobile: memberMobile, gender: 2 });
  const mc = await api.ok<{ id: number }>('insert/member/card', {
    mid: member.id,
    cardId: product.id,
    totalCount: 10,
    expireTime: null,
  });
  return {
    areaId: area.id,
    roomId: room.id,
    teacherId: teacher.id,
    teacherName,
    courseId: course.id,
    courseName,
    productId: product.id,
    productName,
    memberId: member.id,
    memberName,
    memberMobile,
    mcId: mc.id,
  };
}

/** Adds a session and answers its id (found back through the by-date list). */
/**
 * A class of the store's today at its last minute (23:59:00-23:59:59): still to come at any hour of
 * the run but that minute, so it can be booked and signed in today. Made a week ahead (creating a
 * class refuses a past time) and moved there in the database.
 */
export async function addSessionTonight(api: Api, f: Fixture, db: Kysely<Database>, today: string): Promise<number> {
  const tid = await addSession(api, f, addDays(today, 7), '09:00', { count: 6 });
  await db
    .updateTable('timetable')
    .set({ startTime: `${today} 23:59:00`, endTime: `${today} 23:59:59` })
    .where('id', '=', tid)
    .execute();
  return tid;
}

export async function addSession(
  api: Api,
  f: Fixture,
  date: string,
  time: string,
  extra: { count?: number; areaId?: number | null } = {},
): Promise<number> {
  await api.ok('insert/timetable', {
    courseId: f.courseId,
    teacherId: f.teacherId,
    reservableCount: extra.count ?? 12,
    date,
    time,
    isOnline: 0,
    areaId: extra.areaId === undefined ? f.roomId : extra.areaId,
    bookId: null,
  });
  const days = await api.ok<{ date: string; list: { id: number; fromTime: string; courseName: string }[] }[]>(
    'query/timetable/by/date',
    { fromDate: date, toDate: date },
  );
  const s = days.flatMap((d) => d.list).find((x) => x.courseName === f.courseName && x.fromTime.slice(11, 16) === time);
  if (!s) throw new Error(`session ${date} ${time} not found after insert`);
  return s.id;
}

/** Another member of the store holding a card of the fixture's product (`total` classes). */
export async function addMemberWithCard(
  api: Api,
  f: Fixture,
  name: string,
  total = 5,
): Promise<{ id: number; cardId: number }> {
  const member = await api.ok<{ id: number }>('insert/member', {
    name,
    mobile: `13${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`,
    gender: 1,
  });
  const card = await api.ok<{ id: number }>('insert/member/card', {
    mid: member.id,
    cardId: f.productId,
    totalCount: total,
    expireTime: null,
  });
  return { id: member.id, cardId: card.id };
}

/**
 * A member of the store signed in on the members' page open in `page` (a phone) with a code the desk
 * gives; waits for the welcome toast to go, so screenshots show the screens.
 */
export async function signInMember(
  page: Page,
  api: Api,
  base: string,
  storeId: number,
  m: { memberId: number; mobile: string; name: string },
  query = '',
): Promise<void> {
  const { code } = await api.ok<{ code: string }>('create/member/login/code', { memberId: m.memberId });
  await page.goto(`${base}/m/?store=${storeId}${query}`);
  await page.getByRole('button', { name: '登录预约' }).tap();
  await page.getByTestId('mobile').locator('input').fill(m.mobile);
  await page.getByTestId('code').locator('input').fill(code);
  await page.getByRole('button', { name: '登录', exact: true }).tap();
  await page.getByText(`${m.name}，你好`).waitFor();
  await page.getByText(`欢迎，${m.name}`).waitFor({ state: 'hidden' });
}

/** A new member of the store (no card), signed in on the members' page open in `page` (`signInMember`). */
export async function signInNewMember(
  page: Page,
  api: Api,
  base: string,
  storeId: number,
  name: string,
  query = '',
): Promise<{ memberId: number; mobile: string }> {
  const mobile = `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const member = await api.ok<{ id: number }>('insert/member', { name, mobile, gender: 2 });
  await signInMember(page, api, base, storeId, { memberId: member.id, mobile, name }, query);
  return { memberId: member.id, mobile };
}
