import { MAX_FIX_ROWS, MAX_FIX_STUDENTS, Msg } from '@studio/contract';
import type { Tx } from '../../db/index.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { storeCards } from '../reference/public.ts';
import { bookingChecker, getDeductionMode, requireSessionRefs, type SessionForRules } from '../timetable/public.ts';
import { inOwnTx } from '../../db/write-queue.ts';
import { lockStore } from '../../db/locks.ts';
import {
  addFixedStudents,
  addTemplateRow,
  changeTemplateRow,
  countTemplateRows,
  removeFixedStudents,
  removeTemplateRow,
  type FixedStudent,
} from './template-repository.ts';

export interface TemplateRowInput {
  weekday: number;
  time: string;
  courseId: number;
  teacherId: number;
  areaId: number | null;
  reservableCount: number;
  bookId: number | null;
  students: FixedStudent[];
}

/**
 * Checks a template row (the payload schema already capped its seats at the capacity): every id
 * belongs to the store (404), no member appears twice, and every fixed student could be booked
 * into a class of the row now by the engine's rule set (the card rules, the course's gender and
 * age limits, the store's deduction mode). Names the student and the reason.
 */
async function checkRow(tx: Tx, storeId: number, now: string, row: TemplateRowInput): Promise<void> {
  const course = (await requireSessionRefs(tx, storeId, [row])).get(row.courseId)!;
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
    await lockStore(tx, storeId);
    const n = await countTemplateRows(tx, storeId);
    await checkRow(tx, storeId, now, row);
    checkTemplateCaps(n + 1, [row.students.length]);
    const id = await addTemplateRow(tx, storeId, rowValues(row), now);
    await addFixedStudents(tx, storeId, id, row.students);
    return { id };
  });
}

/** Replaces a weekly template row and its fixed students (404 周课表不存在 for another store's row). */
export async function updateTemplateRow(ctx: CallCtx, row: TemplateRowInput & { id: number }): Promise<null> {
  const storeId = ctx.store.id;
  const now = localDateTime(ctx.store.timezone);
  await inOwnTx(ctx.db, async (tx) => {
    if (!(await changeTemplateRow(tx, storeId, row.id, rowValues(row)))) throw notFound('周课表');
    await checkRow(tx, storeId, now, row);
    await removeFixedStudents(tx, storeId, row.id);
    await addFixedStudents(tx, storeId, row.id, row.students);
  });
  return null;
}

/** Removes a weekly template row and its fixed students. */
export async function deleteTemplateRow(ctx: CallCtx, id: number): Promise<null> {
  const storeId = ctx.store.id;
  await inOwnTx(ctx.db, async (tx) => {
    await removeFixedStudents(tx, storeId, id);
    if (!(await removeTemplateRow(tx, storeId, id))) throw notFound('周课表');
  });
  return null;
}
