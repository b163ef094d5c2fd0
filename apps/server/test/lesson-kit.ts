import { BIG_TYPE_MONEY } from '@studio/contract';
import type { NewRow } from '../src/db/schema.ts';
import type { Factory } from './factory.ts';

/**
 * Lesson types (私教/小班, issue 43) staged straight in the database for the booking suites: a course
 * of a lesson kind, who gives it at which level, its prices, rooms and machines.
 */
export async function lessonType(
  f: Factory,
  o: {
    kind?: 'one_on_one' | 'one_on_two' | 'small_group';
    maxMembers?: number;
    duration?: number;
    cancelCutoffMinutes?: number;
    minNoticeMinutes?: number;
    cardIds: number[];
    teachers: { id: number; level?: 'junior' | 'senior' | 'master' | null }[];
    prices?: { level: string; price: number }[];
    roomIds?: number[];
    equipment?: { id: number; perMember: number }[];
    course?: Partial<NewRow<'course'>>;
  },
) {
  const course = await f.course({
    kind: o.kind ?? 'one_on_one',
    maxMembers: o.maxMembers ?? 1,
    count: o.maxMembers ?? 1,
    duration: o.duration ?? 60,
    cancelCutoffMinutes: o.cancelCutoffMinutes ?? 0,
    minNoticeMinutes: o.minNoticeMinutes ?? 0,
    cardIds: o.cardIds,
    ...o.course,
  });
  const storeId = f.storeId;
  const courseId = course.id;
  await workingHours(
    f,
    o.teachers.map((t) => t.id),
  );
  await f.db
    .insertInto('lessonTeacher')
    .values(o.teachers.map((t) => ({ storeId, courseId, teacherId: t.id, level: t.level ?? null })))
    .execute();
  if (o.prices?.length) {
    await f.db
      .insertInto('lessonPrice')
      .values(o.prices.map((p) => ({ storeId, courseId, ...p })))
      .execute();
  }
  if (o.roomIds?.length) {
    await f.db
      .insertInto('lessonRoom')
      .values(o.roomIds.map((areaId) => ({ storeId, courseId, areaId })))
      .execute();
  }
  if (o.equipment?.length) {
    await f.db
      .insertInto('lessonEquipment')
      .values(o.equipment.map((e) => ({ storeId, courseId, equipmentId: e.id, perMember: e.perMember })))
      .execute();
  }
  return course;
}

/** Teachers without hours yet work every day 06:00-22:00. */
export async function workingHours(f: Factory, teacherIds: number[]) {
  const have = new Set(
    (await f.db.selectFrom('teacherHours').select('teacherId').where('teacherId', 'in', teacherIds).execute()).map(
      (h) => h.teacherId,
    ),
  );
  const rows = teacherIds
    .filter((id) => !have.has(id))
    .flatMap((teacherId) =>
      [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        storeId: f.storeId,
        teacherId,
        weekday,
        startTime: '06:00',
        endTime: '22:00',
      })),
    );
  if (rows.length) await f.db.insertInto('teacherHours').values(rows).execute();
}

/** A store's machines: `count` of them. */
export function equipment(f: Factory, count: number, name = '核心床') {
  return f.db
    .insertInto('equipment')
    .values({ storeId: f.storeId, name, count })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A 储值卡 product (money: fen), charging `perCount` a group class. */
export const moneyProduct = (f: Factory) => f.cardProduct({ bigType: BIG_TYPE_MONEY, perCount: 50_00 });
