import {
  LESSON_KIND_LABEL,
  LessonMsg,
  TEACHER_LEVEL_LABEL,
  type LessonType,
  type ParsedReqOf,
  type insertEquipment,
  type insertLessonType,
  type insertTeacherHoursException,
  type lessonFreeSlots,
  type TeacherDayHours,
  type updateTeacherWeeklyHours,
} from '@studio/contract';
import { inOwnTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { groupBy } from '../../lib/group.ts';
import { addDays, daysBetween, minutesBetween, storeNow } from '../../lib/time.ts';
import { lessonReportReads } from '../reports/public.ts';
import { ownTeacherFilter, requireTeacher } from '../reference/public.ts';
import {
  changeEquipment,
  changeTypeRow,
  deleteHoursException,
  dropEquipmentUse,
  equipmentOf,
  findHoursException,
  hoursExceptions,
  insertEquipmentRow,
  insertHoursException,
  insertTypeRow,
  lessonTypes,
  ownIds,
  replaceTypeParts,
  replaceWeeklyHours,
  storeHours,
  typeParts,
  weeklyHours,
} from './repository.ts';
import { loadFreeSlots, teacherFreeSpans, workingSpans, type Span } from './slots.ts';

type TypeInput = ParsedReqOf<typeof insertLessonType>;

/** 1对1 takes one member, 1对2 two, 小班 2-6 as set. */
function maxMembersOf(i: TypeInput): number {
  if (i.kind === 'one_on_one') return 1;
  if (i.kind === 'one_on_two') return 2;
  const n = i.maxMembers ?? 6;
  if (n < 2 || n > 6) throw badRequest(LessonMsg.maxMembers);
  return n;
}

/**
 * The prices to keep: with levels among the teachers, one per level used (each must be given);
 * without, the one price given with no level ('' in the table; none given: none kept).
 */
function pricesOf(i: TypeInput): { level: string; price: number }[] {
  const levels = [...new Set(i.teachers.map((t) => t.level).filter((l) => l !== null))];
  if (!levels.length) {
    const p = i.prices.find((x) => x.level === null);
    return p ? [{ level: '', price: p.price }] : [];
  }
  return levels.map((level) => {
    const p = i.prices.find((x) => x.level === level);
    if (!p) throw badRequest(LessonMsg.priceMissing(TEACHER_LEVEL_LABEL[level]));
    return { level, price: p.price };
  });
}

/** The type's row and parts from its input, every id checked to be the store's (404 otherwise). */
async function typeOf(ctx: CallCtx, i: TypeInput) {
  const storeId = ctx.store.id;
  const teachers = [...new Map(i.teachers.map((t) => [t.teacherId, t])).values()];
  const areaIds = [...new Set(i.areaIds)];
  const equipment = [...new Map(i.equipment.map((e) => [e.equipmentId, e])).values()];
  const [t, a, e] = await Promise.all([
    ownIds(
      ctx.db,
      storeId,
      'teacher',
      teachers.map((x) => x.teacherId),
    ),
    ownIds(ctx.db, storeId, 'area', areaIds),
    ownIds(
      ctx.db,
      storeId,
      'equipment',
      equipment.map((x) => x.equipmentId),
    ),
  ]);
  if (teachers.some((x) => !t.has(x.teacherId))) throw notFound('老师');
  if (areaIds.some((x) => !a.has(x))) throw notFound('场地');
  if (equipment.some((x) => !e.has(x.equipmentId))) throw notFound('器械');
  const row = {
    name: i.name,
    kind: i.kind,
    maxMembers: maxMembersOf(i),
    duration: i.duration,
    minNoticeMinutes: i.minNoticeMinutes,
    cancelCutoffMinutes: i.cancelCutoffMinutes,
    slotStep: i.slotStep,
    color: i.color.toLowerCase(),
    description: i.description,
  };
  return { row, parts: { teachers, prices: pricesOf(i), areaIds, equipment } };
}

const describeType = (row: { name: string; kind: string }) =>
  `${LESSON_KIND_LABEL[row.kind as keyof typeof LESSON_KIND_LABEL]} ${row.name}`;

/** Adds a lesson type with who gives it, its prices, rooms and machines. */
export async function createLessonType(ctx: CallCtx, input: TypeInput) {
  const { row, parts } = await typeOf(ctx, input);
  const storeId = ctx.store.id;
  return inOwnTx(ctx.db, async (tx) => {
    const c = await insertTypeRow(tx, {
      storeId,
      ...row,
      // a lesson's seats are its members; the group-class columns keep their neutral values
      count: row.maxMembers,
      genderLimit: 2,
      ageLimit: 0,
      enabled: 1,
      deleted: 0,
    });
    await replaceTypeParts(tx, storeId, c.id, parts);
    audit(tx, {
      kind: 'reference',
      summary: '新增私教课程',
      target: `课程 ${describeType(row)}`,
      targets: [{ type: 'course', id: c.id }],
    });
    return c;
  });
}

async function mustFindType(ctx: CallCtx, id: number) {
  const [t] = await lessonTypes(ctx.db, ctx.store.id, id);
  if (!t) throw notFound('课程');
  return t;
}

/** Changes a lesson type and replaces its parts (lessons already booked keep their time and room). */
export async function editLessonType(ctx: CallCtx, input: TypeInput & { id: number }) {
  await mustFindType(ctx, input.id);
  const { row, parts } = await typeOf(ctx, input);
  const storeId = ctx.store.id;
  await inOwnTx(ctx.db, async (tx) => {
    await changeTypeRow(tx, storeId, input.id, { ...row, count: row.maxMembers });
    await replaceTypeParts(tx, storeId, input.id, parts);
    audit(tx, {
      kind: 'reference',
      summary: '修改私教课程',
      target: `课程 ${describeType(row)}`,
      targets: [{ type: 'course', id: input.id }],
    });
  });
  return null;
}

/** Enables (1) or disables (0) a lesson type: a disabled type offers no free times. */
export async function setLessonTypeEnabled(ctx: CallCtx, id: number, enabled: 0 | 1) {
  const t = await mustFindType(ctx, id);
  await changeTypeRow(ctx.db, ctx.store.id, id, { enabled });
  audit(ctx.db, {
    kind: 'reference',
    summary: enabled ? '启用私教课程' : '停用私教课程',
    target: `课程 ${describeType(t)}`,
    targets: [{ type: 'course', id }],
  });
  return null;
}

/** The store's lesson types with their parts, oldest first. */
export async function listLessonTypes(ctx: CallCtx): Promise<LessonType[]> {
  const types = await lessonTypes(ctx.db, ctx.store.id);
  const p = await typeParts(
    ctx.db,
    ctx.store.id,
    types.map((t) => t.id),
  );
  const teachers = groupBy(p.teachers, (x) => x.courseId);
  const prices = groupBy(p.prices, (x) => x.courseId);
  const areas = groupBy(p.areas, (x) => x.courseId);
  const equipment = groupBy(p.equipment, (x) => x.courseId);
  return types.map((t) => ({
    ...t,
    kind: t.kind as LessonType['kind'],
    teachers: (teachers.get(t.id) ?? []).map(({ teacherId, name, level }) => ({ teacherId, name, level })),
    prices: (prices.get(t.id) ?? []).map(({ level, price }) => ({
      level: level === '' ? null : (level as 'junior' | 'senior' | 'master'),
      price,
    })),
    areas: (areas.get(t.id) ?? []).map(({ id, name }) => ({ id, name })),
    equipment: (equipment.get(t.id) ?? []).map(({ equipmentId, name, perMember }) => ({
      equipmentId,
      name,
      perMember,
    })),
  }));
}

type EquipmentInput = ParsedReqOf<typeof insertEquipment>;

async function checkRoom(ctx: CallCtx, areaId: number | null) {
  if (areaId !== null && !(await ownIds(ctx.db, ctx.store.id, 'area', [areaId])).has(areaId)) throw notFound('场地');
}

export function listEquipment(ctx: CallCtx) {
  return equipmentOf(ctx.db, ctx.store.id);
}

export async function createEquipment(ctx: CallCtx, input: EquipmentInput) {
  await checkRoom(ctx, input.areaId);
  const e = await insertEquipmentRow(ctx.db, { storeId: ctx.store.id, ...input });
  audit(ctx.db, { kind: 'reference', summary: '新增器械', target: `器械 ${input.name}×${input.count}` });
  return e;
}

async function mustFindEquipment(ctx: CallCtx, id: number) {
  const [e] = await equipmentOf(ctx.db, ctx.store.id, id);
  if (!e) throw notFound('器械');
  return e;
}

export async function editEquipment(ctx: CallCtx, input: EquipmentInput & { id: number }) {
  const before = await mustFindEquipment(ctx, input.id);
  await checkRoom(ctx, input.areaId);
  const { id, ...fields } = input;
  await changeEquipment(ctx.db, ctx.store.id, id, fields);
  audit(ctx.db, {
    kind: 'reference',
    summary: '修改器械',
    target: `器械 ${input.name}`,
    before: { 名称: before.name, 数量: before.count },
    after: { 名称: input.name, 数量: input.count },
  });
  return null;
}

export async function removeEquipment(ctx: CallCtx, id: number) {
  const e = await mustFindEquipment(ctx, id);
  await changeEquipment(ctx.db, ctx.store.id, id, { deleted: 1 });
  await dropEquipmentUse(ctx.db, ctx.store.id, id);
  audit(ctx.db, { kind: 'reference', summary: '删除器械', target: `器械 ${e.name}` });
  return null;
}

/**
 * The teacher whose hours a call reads or sets: a teacher account only its own (403), others any
 * live teacher of the store (404 otherwise).
 */
async function hoursTeacher(ctx: CallCtx, teacherId: number) {
  const own = ownTeacherFilter(ctx.post);
  if (own !== undefined && own !== teacherId) throw forbidden(LessonMsg.ownHoursOnly);
  return requireTeacher(ctx.db, ctx.store.id, teacherId);
}

export async function teacherHours(ctx: CallCtx, input: { teacherId: number; from?: string; to?: string }) {
  await hoursTeacher(ctx, input.teacherId);
  const [weekly, exceptions] = await Promise.all([
    weeklyHours(ctx.db, ctx.store.id, input.teacherId),
    hoursExceptions(ctx.db, ctx.store.id, input.teacherId, input.from, input.to),
  ]);
  return { teacherId: input.teacherId, weekly, exceptions };
}

/** Spans of one weekday must not overlap (one span per stretch of work). */
function checkWeekly(weekly: ParsedReqOf<typeof updateTeacherWeeklyHours>['weekly']) {
  for (const w of weekly) if (w.startTime >= w.endTime) throw badRequest(LessonMsg.span);
  for (const [weekday, spans] of groupBy(weekly, (w) => w.weekday)) {
    const sorted = [...spans].sort((a, b) => a.startTime.localeCompare(b.startTime));
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i].startTime < sorted[i - 1].endTime) throw badRequest(LessonMsg.spanOverlap(weekday));
    }
  }
}

export async function setWeeklyHours(ctx: CallCtx, input: ParsedReqOf<typeof updateTeacherWeeklyHours>) {
  const t = await hoursTeacher(ctx, input.teacherId);
  checkWeekly(input.weekly);
  const before = await weeklyHours(ctx.db, ctx.store.id, input.teacherId);
  const words = (ws: readonly { weekday: number; startTime: string; endTime: string }[]) =>
    ws.map((w) => `周${'一二三四五六日'[w.weekday - 1]} ${w.startTime}-${w.endTime}`).join('、') || '无';
  await inOwnTx(ctx.db, async (tx) => {
    await replaceWeeklyHours(tx, ctx.store.id, input.teacherId, input.weekly);
    audit(tx, {
      kind: 'reference',
      summary: '设置老师工作时间',
      target: `老师 ${t.name}`,
      targets: [{ type: 'teacher', id: t.id }],
      before: { 每周工作时间: words(before) },
      after: {
        每周工作时间: words(
          [...input.weekly].sort((a, b) => a.weekday - b.weekday || a.startTime.localeCompare(b.startTime)),
        ),
      },
    });
  });
  return null;
}

export async function addHoursException(ctx: CallCtx, input: ParsedReqOf<typeof insertTeacherHoursException>) {
  const t = await hoursTeacher(ctx, input.teacherId);
  const hasSpan = input.startTime !== null && input.endTime !== null;
  if (input.kind === 'extra' && !hasSpan) throw badRequest(LessonMsg.extraSpan);
  if ((input.startTime === null) !== (input.endTime === null)) throw badRequest(LessonMsg.span);
  if (hasSpan && input.startTime! >= input.endTime!) throw badRequest(LessonMsg.span);
  const e = await insertHoursException(ctx.db, {
    storeId: ctx.store.id,
    ...input,
    createdAt: storeNow(ctx),
  });
  const what = input.kind === 'off' ? '休息' : '加班';
  audit(ctx.db, {
    kind: 'reference',
    summary: `添加老师${what}`,
    target: `老师 ${t.name} ${input.date} ${hasSpan ? `${input.startTime}-${input.endTime}` : '全天'}${what}`,
    targets: [{ type: 'teacher', id: t.id }],
  });
  return e;
}

export async function removeHoursException(ctx: CallCtx, id: number) {
  const e = await findHoursException(ctx.db, ctx.store.id, id);
  if (!e) throw notFound('记录');
  const t = await hoursTeacher(ctx, e.teacherId);
  await deleteHoursException(ctx.db, ctx.store.id, id);
  audit(ctx.db, {
    kind: 'reference',
    summary: `删除老师${e.kind === 'off' ? '休息' : '加班'}`,
    target: `老师 ${t.name} ${e.date}`,
    targets: [{ type: 'teacher', id: t.id }],
  });
  return null;
}

/** The longest range of dates one question of free times covers. */
const MAX_DAYS = 42;

/** A type's free start times, grouped by day, then teacher (names and levels from the type's teachers). */
export async function freeSlotsByDay(
  ctx: { db: CallCtx['db']; store: CallCtx['store'] },
  input: ParsedReqOf<typeof lessonFreeSlots>,
) {
  const days = daysBetween(input.from, input.to);
  if (days < 0 || days >= MAX_DAYS) throw badRequest(LessonMsg.range);
  const { slots, teachers } = await loadFreeSlots(ctx.db, {
    storeId: ctx.store.id,
    courseId: input.courseId,
    teacherIds: input.teacherIds,
    from: input.from,
    to: input.to,
    members: input.members,
    now: storeNow(ctx),
  });
  const who = new Map(teachers.map((t) => [t.teacherId, t]));
  return [...groupBy(slots, (s) => s.startTime.slice(0, 10))].map(([date, daySlots]) => ({
    date,
    teachers: [...groupBy(daySlots, (s) => s.teacherId)].map(([teacherId, ts]) => ({
      teacherId,
      name: who.get(teacherId)?.name ?? '',
      level: who.get(teacherId)?.level ?? null,
      slots: ts.map(({ startTime, endTime, areaId }) => ({ startTime, endTime, areaId })),
    })),
  }));
}

/** `HH:mm` of minutes after midnight (the day's end: 24:00). */
const clock = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const spansText = (spans: Span[]) => spans.map((x) => ({ startTime: clock(x.start), endTime: clock(x.end) }));

/**
 * Each teacher's hours of a day (the teachers' day view): when they work (`workingSpans`) and the
 * part free (`teacherFreeSpans`, the finder's rule: less their live group classes and lessons), for
 * every teacher with hours (a teacher account: only their own).
 */
export async function teacherDayHours(ctx: CallCtx, input: { date: string }): Promise<TeacherDayHours> {
  const own = ownTeacherFilter(ctx.post);
  const day = { storeId: ctx.store.id, from: input.date, to: input.date };
  const [hours, sessions] = await Promise.all([
    storeHours(ctx.db, ctx.store.id, input.date, input.date),
    lessonReportReads.teacherSessions(ctx.db, day),
  ]);
  const midnight = `${input.date} 00:00:00`;
  const dayEnd = `${addDays(input.date, 1)} 00:00:00`;
  const ids = [...new Set([...hours.weekly, ...hours.exceptions].map((h) => h.teacherId))].filter(
    (id) => own === undefined || id === own,
  );
  return ids
    .sort((a, b) => a - b)
    .map((teacherId) => {
      const weekly = hours.weekly.filter((h) => h.teacherId === teacherId);
      const exceptions = hours.exceptions.filter((e) => e.teacherId === teacherId);
      const busy = sessions
        .filter((x) => x.teacherId === teacherId)
        .map((x) => ({
          start: minutesBetween(midnight, x.startTime),
          end: minutesBetween(midnight, x.endTime < dayEnd ? x.endTime : dayEnd),
        }));
      return {
        teacherId,
        work: spansText(workingSpans(input.date, weekly, exceptions)),
        free: spansText(teacherFreeSpans(input.date, weekly, exceptions, busy)),
      };
    })
    .filter((t) => t.work.length > 0);
}
