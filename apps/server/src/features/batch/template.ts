import {
  MAX_FIX_ROWS,
  MAX_FIX_STUDENTS,
  Msg,
  TemplateMsg,
  type ParsedReqOf,
  type ResOf,
  type WeekTemplateRow,
  type insertFixTimetableFromWeek,
} from '@studio/contract';
import type { Executor, Tx } from '../../db/index.ts';
import { audit, type AuditTarget } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { addDays, localDateTime, weekday } from '../../lib/time.ts';
import { storeCards } from '../cards/public.ts';
import { bookingChecker, getDeductionMode, requireSessionRefs, type SessionForRules } from '../timetable/public.ts';
import { inOwnTx } from '../../lib/write-queue.ts';
import { lockStore } from '../../db/locks.ts';
import { sessionsAsTemplateRows } from './repository.ts';
import {
  addFixedStudents,
  addTemplateRow,
  addTemplateRows,
  changeTemplateRow,
  clearTemplate,
  countTemplateRows,
  removeFixedStudents,
  removeTemplateRow,
  templateRows,
  type FixedStudent,
  type TemplateRowValues,
} from './template-repository.ts';

export interface TemplateRowInput {
  weekday: number;
  time: string;
  courseId: number;
  teacherId: number;
  venueId: number | null;
  reservableCount: number;
  materialId: number | null;
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
    row.students.map((s) => s.memberCardId),
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
    const card = cards.get(s.memberCardId)!;
    const member = { id: card.memberId, gender: card.gender, birthday: card.birthday };
    const reason = checker.take({ session, member, card, studentCount: s.studentCount }, now);
    if (reason === Msg.alreadyBooked) throw conflict(Msg.sameMemberTwice(card.memberName));
    if (reason) throw conflict(Msg.fixStudentUnusable(i + 1, card.memberName, reason));
  }
}

const rowValues = (row: TemplateRowInput): TemplateRowValues => ({
  weekday: row.weekday,
  time: row.time,
  courseId: row.courseId,
  teacherId: row.teacherId,
  venueId: row.venueId,
  reservableCount: row.reservableCount,
  materialId: row.materialId,
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

/** What a template row's entry is about: the row, its teacher and its fixed students' cards (and so their members). */
function templateTargets(id: number, row: TemplateRowInput): AuditTarget[] {
  return [
    { type: 'template', id },
    { type: 'teacher', id: row.teacherId },
    ...row.students.map((s) => ({ type: 'card' as const, id: s.memberCardId })),
  ];
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
    audit(tx, { kind: 'session', targets: templateTargets(id, row) });
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
    audit(tx, { kind: 'session', targets: templateTargets(row.id, row) });
  });
  return null;
}

/** Removes a weekly template row and its fixed students. */
export async function deleteTemplateRow(ctx: CallCtx, id: number): Promise<null> {
  const storeId = ctx.store.id;
  await inOwnTx(ctx.db, async (tx) => {
    await removeFixedStudents(tx, storeId, id);
    if (!(await removeTemplateRow(tx, storeId, id))) throw notFound('周课表');
    audit(tx, { kind: 'session', targets: [{ type: 'template', id }] });
  });
  return null;
}

// ---- 从课表生成: a week of the timetable as the template ---------------------------------

/** The classes of the week starting on Monday `fromDate` as weekly template rows (no fixed students), Monday first then by time. */
export async function weekTemplateRows(ex: Executor, storeId: number, fromDate: string): Promise<WeekTemplateRow[]> {
  const sessions = await sessionsAsTemplateRows(ex, storeId, fromDate, addDays(fromDate, 6));
  return sessions.map((s) => ({
    weekday: weekday(s.startTime.slice(0, 10)),
    time: s.startTime.slice(11, 16),
    courseId: s.courseId,
    courseName: s.courseName,
    teacherId: s.teacherId,
    teacherName: s.teacherName,
    areaId: s.areaId,
    areaName: s.areaName ?? null,
    reservableCount: s.reservableCount,
    bookId: s.bookId,
  }));
}

const valuesOf = (r: WeekTemplateRow): TemplateRowValues => ({
  weekday: r.weekday,
  time: r.time,
  courseId: r.courseId,
  teacherId: r.teacherId,
  venueId: r.areaId,
  reservableCount: r.reservableCount,
  materialId: r.bookId,
});

/** What makes two template rows the same class: weekday, time, course, teacher and venue. */
const sameClass = (r: { weekday: number; time: string; courseId: number; teacherId: number; areaId: number | null }) =>
  `${r.weekday}|${r.time}|${r.courseId}|${r.teacherId}|${r.areaId ?? ''}`;

/** Writes the classes of a week as template rows (the demo seed: its current week). */
export async function addWeekToTemplate(tx: Tx, storeId: number, fromDate: string, createdAt: string): Promise<number> {
  const rows = (await weekTemplateRows(tx, storeId, fromDate)).slice(0, MAX_FIX_ROWS);
  await addTemplateRows(tx, storeId, rows.map(valuesOf), createdAt);
  return rows.length;
}

type FromWeekInput = ParsedReqOf<typeof insertFixTimetableFromWeek>;
type FromWeekAnswer = ResOf<typeof insertFixTimetableFromWeek>;

/**
 * 从课表生成: the live classes of the week starting on Monday `fromDate` become the weekly template's
 * rows (weekday, time, course, teacher, venue, seats, material; no fixed students). `replace` removes
 * the current rows and their fixed students first; `add` keeps them and leaves out the week's classes
 * the template has already. A week without classes is refused (400), so is a template past
 * MAX_FIX_ROWS rows; every course, teacher, venue and material must still be the store's (404, as
 * when a row is saved alone). `dryRun` answers the same plan without writing (the confirm's
 * preview); the write is one audited transaction.
 */
export async function templateFromWeek(ctx: CallCtx, input: FromWeekInput): Promise<FromWeekAnswer> {
  const storeId = ctx.store.id;
  const plan = async (ex: Executor): Promise<FromWeekAnswer> => {
    const [week, existing] = await Promise.all([
      weekTemplateRows(ex, storeId, input.fromDate),
      templateRows(ex, storeId),
    ]);
    if (!week.length) throw badRequest(TemplateMsg.weekEmpty);
    await requireSessionRefs(ex, storeId, week.map(valuesOf));
    const have = new Set(existing.map(sameClass));
    const duplicates = week.filter((r) => have.has(sameClass(r))).length;
    const rows = input.mode === 'add' ? week.filter((r) => !have.has(sameClass(r))) : week;
    checkTemplateCaps(input.mode === 'add' ? existing.length + rows.length : rows.length, []);
    return {
      count: rows.length,
      rows,
      existing: existing.length,
      existingStudents: existing.reduce((n, r) => n + r.students.length, 0),
      duplicates,
    };
  };
  if (input.dryRun) return plan(ctx.db);
  const now = localDateTime(ctx.store.timezone);
  return inOwnTx(ctx.db, async (tx) => {
    // One change of the template at a time (the row count, as when a row is added).
    await lockStore(tx, storeId);
    const p = await plan(tx);
    if (input.mode === 'replace') await clearTemplate(tx, storeId);
    await addTemplateRows(tx, storeId, p.rows.map(valuesOf), now);
    const before =
      input.mode === 'replace'
        ? `替换原有${p.existing}行${p.existingStudents ? `（含${p.existingStudents}位固定学员）` : ''}`
        : `添加到原有${p.existing}行${p.duplicates ? `，已有的${p.duplicates}节未重复添加` : ''}`;
    audit(tx, {
      kind: 'session',
      summary: '从课表生成周课表',
      target: `${input.fromDate}起一周的课：生成${p.count}行，${before}`,
    });
    return p;
  });
}
