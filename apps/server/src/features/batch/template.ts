import { MAX_FIX_ROWS, MAX_FIX_STUDENTS, Msg } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { storeCards } from '../reference/public.ts';
import { bookingChecker, getDeductionMode, type SessionForRules } from '../timetable/public.ts';
import { requireArea, requireCourse, requireMaterial, requireTeacher } from '../reference/public.ts';
import { inOwnTx } from '../../db/write-queue.ts';

export interface TemplateRowInput {
  weekday: number;
  time: string;
  courseId: number;
  teacherId: number;
  areaId: number | null;
  reservableCount: number;
  bookId: number | null;
  students: { mcId: number; studentCount: number }[];
}

/**
 * Checks a template row (the payload schema already capped its seats at the capacity): every id
 * belongs to the store (404), no member appears twice, and every fixed student could be booked
 * into a class of the row now by the engine's rule set (the card rules, the course's gender and
 * age limits, the store's deduction mode). Names the student and the reason.
 */
async function checkRow(tx: Tx, storeId: number, now: string, row: TemplateRowInput): Promise<void> {
  const course = await requireCourse(tx, storeId, row.courseId);
  await requireTeacher(tx, storeId, row.teacherId);
  await requireArea(tx, storeId, row.areaId);
  await requireMaterial(tx, storeId, row.bookId);
  const cards = await storeCards(
    tx,
    storeId,
    row.students.map((s) => s.mcId),
  );
  const checker = bookingChecker({ mode: await getDeductionMode(tx, storeId) });
  // A class of the row as if it started now (its limits and cards are the course's).
  const session: SessionForRules = {
    ...course,
    key: 0,
    startTime: now,
    endTime: '9999-12-31 23:59:59',
    reservableCount: row.reservableCount,
    realCount: 0,
    allowedCardIds: course.cardIds,
  };
  for (const [i, s] of row.students.entries()) {
    const card = cards.get(s.mcId)!;
    const member = { id: card.memberId, gender: card.gender, birthday: card.birthday };
    const reason = checker.take({ session, member, card, studentCount: s.studentCount }, now);
    if (reason === Msg.alreadyBooked) throw conflict(Msg.sameMemberTwice(card.memberName));
    if (reason) throw conflict(Msg.fixStudentUnusable(i + 1, card.memberName, reason));
  }
}

async function writeStudents(tx: Tx, storeId: number, fixId: number, students: TemplateRowInput['students']) {
  if (!students.length) return;
  await tx
    .insertInto('fixStudent')
    .values(students.map((s) => ({ storeId, fixId, memberCardId: s.mcId, studentCount: s.studentCount })))
    .execute();
}

const rowValues = (row: TemplateRowInput) => ({
  weekday: row.weekday,
  time: row.time,
  courseId: row.courseId,
  teacherId: row.teacherId,
  areaId: row.areaId,
  reservableCount: row.reservableCount,
  bookId: row.bookId,
});

/**
 * The template caps, checked again on the server for what the payload schema cannot see (the
 * store's row count) and for rows stored before the caps: over MAX_FIX_ROWS rows or
 * MAX_FIX_STUDENTS fixed students in a row is refused. They bound the longest write transaction.
 */
export function checkTemplateCaps(rows: number, studentsPerRow: number[]): void {
  if (rows > MAX_FIX_ROWS) throw badRequest(Msg.fixRowsMax(MAX_FIX_ROWS));
  if (studentsPerRow.some((n) => n > MAX_FIX_STUDENTS)) throw badRequest(Msg.fixStudentsMax(MAX_FIX_STUDENTS));
}

/** Adds a weekly template row with its fixed students (at most MAX_FIX_ROWS rows per store). */
export async function insertTemplateRow(ctx: CallCtx, row: TemplateRowInput): Promise<{ id: number }> {
  const storeId = ctx.store.id;
  const now = localDateTime(ctx.store.timezone);
  return inOwnTx(ctx.db, async (tx) => {
    // Two inserts at once must not both pass the count: on PostgreSQL they queue on the store row.
    // NO KEY UPDATE, so the foreign-key checks of bookings inserted meanwhile do not wait on it.
    if (ctx.dialect === 'postgres') {
      await tx.selectFrom('store').select('id').where('id', '=', storeId).forNoKeyUpdate().execute();
    }
    const { n } = await tx
      .selectFrom('fixTimetable')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('storeId', '=', storeId)
      .executeTakeFirstOrThrow();
    await checkRow(tx, storeId, now, row);
    checkTemplateCaps(Number(n) + 1, [row.students.length]);
    const { id } = await tx
      .insertInto('fixTimetable')
      .values({ storeId, ...rowValues(row), createdAt: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeStudents(tx, storeId, id, row.students);
    return { id };
  });
}

/** Replaces a weekly template row and its fixed students (404 周课表不存在 for another store's row). */
export async function updateTemplateRow(ctx: CallCtx, row: TemplateRowInput & { id: number }): Promise<null> {
  const storeId = ctx.store.id;
  const now = localDateTime(ctx.store.timezone);
  await inOwnTx(ctx.db, async (tx) => {
    const res = await tx
      .updateTable('fixTimetable')
      .set(rowValues(row))
      .where('id', '=', row.id)
      .where('storeId', '=', storeId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw notFound('周课表');
    await checkRow(tx, storeId, now, row);
    await tx.deleteFrom('fixStudent').where('fixId', '=', row.id).where('storeId', '=', storeId).execute();
    await writeStudents(tx, storeId, row.id, row.students);
  });
  return null;
}

/** Removes a weekly template row and its fixed students. */
export async function deleteTemplateRow(ctx: CallCtx, id: number): Promise<null> {
  const storeId = ctx.store.id;
  await inOwnTx(ctx.db, async (tx) => {
    await tx.deleteFrom('fixStudent').where('fixId', '=', id).where('storeId', '=', storeId).execute();
    const res = await tx
      .deleteFrom('fixTimetable')
      .where('id', '=', id)
      .where('storeId', '=', storeId)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) !== 1) throw notFound('周课表');
  });
  return null;
}
