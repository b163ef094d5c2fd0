import type { Executor } from '../../db/index.ts';

/** A session with what online rooms and messages need: course and teacher, seats, online state. */
export async function onlineSession(db: Executor, id: number, storeId?: number) {
  let q = db
    .selectFrom('timetable as t')
    .innerJoin('course as c', 'c.id', 't.courseId')
    .innerJoin('teacher as te', 'te.id', 't.teacherId')
    .select([
      't.id',
      't.storeId',
      't.startTime',
      't.endTime',
      't.realCount',
      't.reservableCount',
      't.isOnline',
      't.meetingId',
      't.meetingInfo',
      't.meetingError',
      't.deleted',
      'c.name as courseName',
      'te.id as teacherId',
      'te.name as teacherName',
      'te.meetingType',
      'te.meetingCode',
      'te.joinUrl',
    ])
    .where('t.id', '=', id);
  if (storeId !== undefined) q = q.where('t.storeId', '=', storeId);
  return q.executeTakeFirst();
}
export type OnlineSession = NonNullable<Awaited<ReturnType<typeof onlineSession>>>;

/** Member names by id (one store). */
export async function memberNames(db: Executor, storeId: number, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('member')
    .select(['id', 'name'])
    .where('storeId', '=', storeId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** bigType of member cards by card id (1 count card, else money in fen). */
export async function cardKinds(db: Executor, storeId: number, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('memberCard as mc')
    .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
    .select(['mc.id', 'p.bigType'])
    .where('mc.storeId', '=', storeId)
    .where('mc.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.bigType]));
}
