import { OperateType } from '@studio/contract';
import { addDays, daysBetween, localDateTime } from '../../lib/time.ts';
import type { Db, Tx } from '../../db/index.ts';
import { DEMO_BOOKS, DEMO_COURSES, DEMO_PRODUCTS, DEMO_TEACHERS, DEMO_VENUES } from './demo-data.ts';
import { planDemo, type DemoPlan } from './demo-plan.ts';
import { insertBookingRows, sessionRow, writeSessions, writeTrail } from '../../features/timetable/public.ts';
import { addWeekToTemplate } from '../../features/batch/public.ts';
import { findStoreScope } from '../../lib/store-repository.ts';
import { insertRows } from '../../db/bulk-insert.ts';

const byName = <T extends { id: number; name: string }>(rows: T[]) => new Map(rows.map((r) => [r.name, r.id]));

/** Venues, teachers, card products, courses and materials; answers their ids by name. */
async function insertReference(tx: Tx, storeId: number) {
  const rooms = new Map<string, number>();
  for (const [sort, venue] of DEMO_VENUES.entries()) {
    const v = await tx
      .insertInto('area')
      .values({ storeId, name: venue.name, parentId: null, sort })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = await tx
      .insertInto('area')
      .values(venue.rooms.map((name, i) => ({ storeId, name, parentId: v.id, sort: i })))
      .returning(['id', 'name'])
      .execute();
    for (const r of rows) rooms.set(r.name, r.id);
  }
  const teachers = byName(
    await tx
      .insertInto('teacher')
      .values(
        DEMO_TEACHERS.map((t) => ({ storeId, meetingType: null, meetingCode: null, joinUrl: null, ...t, deleted: 0 })),
      )
      .returning(['id', 'name'])
      .execute(),
  );
  const products = new Map<string, number>();
  for (const p of await tx
    .insertInto('cardProduct')
    .values(
      DEMO_PRODUCTS.map((p) => ({
        storeId,
        cardName: p.cardName,
        bigType: p.bigType,
        cardType: p.cardType,
        perCount: p.perCount,
        price: p.price,
        // what the issue form (发卡) starts from: the product's balance and its validity
        totalCount: p.total,
        validDays: p.validDays,
        enabled: 1,
        deleted: 0,
      })),
    )
    .returning(['id', 'cardName'])
    .execute()) {
    products.set(p.cardName, p.id);
  }
  const courses = byName(
    await tx
      .insertInto('course')
      .values(
        DEMO_COURSES.map(({ rooms: _r, teachers: _t, book: _b, forChildren, ...c }) => ({
          storeId,
          ...c,
          forChildren: forChildren ? 1 : 0,
          sday: null,
          eday: null,
          enabled: 1,
          deleted: 0,
        })),
      )
      .returning(['id', 'name'])
      .execute(),
  );
  await tx
    .insertInto('courseCard')
    .values(
      DEMO_PRODUCTS.flatMap((p) =>
        p.courses.map((c) => ({ storeId, courseId: courses.get(c)!, cardId: products.get(p.cardName)! })),
      ),
    )
    .execute();
  const books = new Map<string, number>();
  for (const [sort, book] of DEMO_BOOKS.entries()) {
    const b = await tx
      .insertInto('material')
      .values({ storeId, name: book.name, parentId: null, level: 1, sort })
      .returning('id')
      .executeTakeFirstOrThrow();
    books.set(book.name, b.id);
    const chapters = await tx
      .insertInto('material')
      .values(book.chapters.map((c, i) => ({ storeId, name: c.name, parentId: b.id, level: 2, sort: i })))
      .returning(['id', 'name'])
      .execute();
    const chapterId = byName(chapters);
    await tx
      .insertInto('material')
      .values(
        book.chapters.flatMap((c) =>
          c.lessons.map((name, i) => ({ storeId, name, parentId: chapterId.get(c.name)!, level: 3, sort: i })),
        ),
      )
      .execute();
  }
  return { rooms, teachers, products, courses, books };
}

type Refs = Awaited<ReturnType<typeof insertReference>>;

/** Members and their cards (balances as the bookings leave them), with their `issue` and `topup` ledger rows. */
async function insertMembers(tx: Tx, storeId: number, staffId: number, plan: DemoPlan, refs: Refs) {
  const memberRows = await tx
    .insertInto('member')
    .values(plan.members.map((m) => ({ storeId, ...m, remark: null })))
    .returning(['id', 'mobile'])
    .execute();
  const idOfMobile = new Map(memberRows.map((r) => [r.mobile, r.id]));
  const memberIds = plan.members.map((m) => idOfMobile.get(m.mobile)!);
  const cardRows = await insertRows(
    tx,
    'memberCard',
    plan.cards.map((c) => ({
      storeId,
      memberId: memberIds[c.memberIndex],
      cardId: refs.products.get(c.product)!,
      totalCount: c.totalCount,
      usedCount: c.usedCount,
      startTime: c.createdAt,
      expireTime: c.expireTime,
      frozen: c.frozen,
      createdAt: c.createdAt,
      // sold 售卡即开卡: started at the sale, valid the product's days (issue 29)
      activateTime: c.createdAt,
      validDays: c.expireTime ? daysBetween(c.createdAt.slice(0, 10), c.expireTime.slice(0, 10)) : null,
    })),
    ['id', 'memberId', 'cardId'],
  );
  const idOfCard = new Map(cardRows.map((r) => [`${String(r.memberId)}:${String(r.cardId)}`, Number(r.id)]));
  const cardIds = plan.cards.map((c) => idOfCard.get(`${memberIds[c.memberIndex]}:${refs.products.get(c.product)}`)!);
  const issues = plan.cards.flatMap((c, i) => {
    const each = c.totalCount / (1 + c.topups);
    const row = { storeId, memberCardId: cardIds[i], amount: each, operatorId: staffId, createdAt: c.createdAt };
    return [{ ...row, kind: 'issue' }, ...Array.from({ length: c.topups }, () => ({ ...row, kind: 'topup' }))];
  });
  await insertRows(tx, 'cardLedger', issues);
  return { memberIds, cardIds };
}

/**
 * Sessions (seats as the bookings leave them) and their allowed cards, through the engine's bulk
 * writer (a teacher or room clash in the plan would be refused there like any other).
 */
async function insertSessions(tx: Tx, storeId: number, plan: DemoPlan, refs: Refs) {
  const courseOf = new Map(DEMO_COURSES.map((c) => [c.name, c]));
  const createdAt = `${addDays(plan.from, -3)} 10:00:00`;
  const cardsOfCourse = (name: string) =>
    DEMO_PRODUCTS.filter((p) => p.courses.some((c) => c === name)).map((p) => refs.products.get(p.cardName)!);
  return writeSessions(
    tx,
    storeId,
    plan.sessions.map((s) => {
      const c = courseOf.get(s.course)!;
      const slot = {
        courseId: refs.courses.get(s.course)!,
        teacherId: refs.teachers.get(s.teacher)!,
        venueId: refs.rooms.get(s.room)!,
        materialId: c.book ? refs.books.get(c.book)! : null,
        startTime: s.startTime,
        endTime: s.endTime,
        reservableCount: s.reservableCount,
        realCount: s.realCount,
        isOnline: 0,
      };
      return sessionRow(storeId, slot, { ...c, sday: null, eday: null }, createdAt);
    }),
    plan.sessions.map((s) => cardsOfCourse(s.course)),
  );
}

/** Bookings with their trail (history, operate type 2, staff booked; `deduct` ledger rows), through the engine's writer. */
async function insertBookings(
  tx: Tx,
  storeId: number,
  staffId: number,
  plan: DemoPlan,
  ids: { memberIds: number[]; cardIds: number[]; sessionIds: number[] },
) {
  const rows = plan.bookings.map((b) => ({
    storeId,
    timetableId: ids.sessionIds[b.sessionIndex],
    memberId: ids.memberIds[b.memberIndex],
    memberCardId: ids.cardIds[b.cardIndex],
    pendingId: null,
    studentCount: b.studentCount,
    usedCount: b.usedCount,
    remark: b.remark,
    operatorId: staffId,
    status: b.status,
    createTime: b.createTime,
  }));
  const reservationIds = await insertBookingRows(tx, 'reservation', rows);
  await writeTrail(
    tx,
    storeId,
    rows.map((r, i) => ({
      ...r,
      reservationId: reservationIds[i],
      operateType: OperateType.ADMIN_BOOKED,
      now: r.createTime,
    })),
  );
}

/**
 * Loads the demo studio into an empty store, in one transaction: venues with rooms, teachers,
 * courses (少儿体适能 marked 少儿), card products, a material tree, 60 members with cards, five weeks
 * of sessions (two back, this week, two ahead) with bookings that pass the real card and limit
 * rules, and the weekly template (周固定课表) made from this week's classes.
 * Seats, balances, history and the card ledger all add up. Deterministic for a given day.
 */
export async function loadDemoData(db: Db, storeId: number, staffId: number): Promise<void> {
  const store = await findStoreScope(db, storeId);
  if (!store) throw new Error(`no store ${storeId} to load the demo into`);
  const plan = planDemo(localDateTime(store.timezone));
  await db.transaction().execute(async (tx) => {
    const refs = await insertReference(tx, storeId);
    const { memberIds, cardIds } = await insertMembers(tx, storeId, staffId, plan, refs);
    const sessionIds = await insertSessions(tx, storeId, plan, refs);
    await insertBookings(tx, storeId, staffId, plan, { memberIds, cardIds, sessionIds });
    // 周固定课表: this week's classes, as 从课表生成 makes it.
    await addWeekToTemplate(tx, storeId, addDays(plan.from, 14), `${addDays(plan.from, -3)} 10:00:00`);
  });
}
