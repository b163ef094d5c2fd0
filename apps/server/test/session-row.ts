import type { Db } from '../src/db/index.ts';
import type { NewRow } from '../src/db/schema.ts';
import type { Factory } from './factory.ts';

/** A session row straight in the database, for tests that only need it to exist (no engine rules). */
export async function insertSession(db: Db, factory: Factory, o: Partial<NewRow<'timetable'>> & { startTime: string }) {
  const courseId = o.courseId ?? (await factory.course()).id;
  const teacherId = o.teacherId ?? (await factory.teacher()).id;
  return db
    .insertInto('timetable')
    .values({
      storeId: factory.storeId,
      courseId,
      teacherId,
      endTime: o.startTime.slice(0, 11) + '23:00:00',
      reservableCount: 10,
      realCount: 0,
      isOnline: 0,
      color: '#1677ff',
      genderLimit: 2,
      ageLimit: 0,
      deleted: 0,
      createdAt: '2026-01-01 00:00:00',
      ...o,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
