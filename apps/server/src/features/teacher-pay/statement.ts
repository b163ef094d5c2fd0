import type { LessonKind, PayHeads, PayRuleKind, TeacherLevel, TeacherStatement } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { adjustmentsOf, classesOfMonth, rulesOf } from './repository.ts';
import { classPay, ruleFor, ruleSummary, tiersOf, type PayRuleFacts } from './rules.ts';

/** The store's rules (of one teacher, when given) as the statement applies them, by teacher. */
export async function rulesByTeacher(ex: Executor, storeId: number, teacherId?: number | null) {
  const byTeacher = new Map<number, PayRuleFacts[]>();
  for (const r of await rulesOf(ex, storeId, teacherId)) {
    const facts: PayRuleFacts = {
      id: r.id,
      teacherId: r.teacherId,
      courseId: r.courseId,
      lessons: Number(r.lessons) === 1,
      level: r.level,
      kind: r.kind as PayRuleKind,
      amount: Number(r.amount),
      tiers: tiersOf(r.tiers),
      heads: r.heads as PayHeads,
      minimum: Number(r.minimum),
      fromDate: r.fromDate,
    };
    byTeacher.set(r.teacherId, [...(byTeacher.get(r.teacherId) ?? []), facts]);
  }
  return byTeacher;
}

/**
 * A month's teacher pay as it stands now (an open month, or the snapshot taken when closing): every
 * live class of the month under the teacher who taught it (the session's teacher: a substitute is
 * paid, not the teacher it replaced), online and in the studio alike, and every 私教/小班 lesson
 * beside them (marked with its kind and the teacher's level), each paid by the rule in force that
 * day; the month's adjustments under it; totals. Teachers in id order, classes in time order.
 */
export async function computeStatement(
  ex: Executor,
  storeId: number,
  month: string,
  teacherId?: number | null,
): Promise<TeacherStatement[]> {
  const classes = await classesOfMonth(ex, storeId, month, teacherId);
  const rules = await rulesByTeacher(ex, storeId, teacherId);
  const adjustments = await adjustmentsOf(ex, storeId, month, teacherId);
  const teachers = new Map<number, TeacherStatement>();
  const of = (id: number, name: string) => {
    let t = teachers.get(id);
    if (!t) {
      t = { teacherId: id, teacherName: name, rows: [], adjustments: [], classTotal: 0, adjustmentTotal: 0, total: 0 };
      teachers.set(id, t);
    }
    return t;
  };
  for (const c of classes) {
    const date = c.startTime.slice(0, 10);
    const heads = { booked: c.realCount, came: c.came };
    const lesson = c.kind === 'group' ? null : (c.kind as LessonKind);
    const level = lesson ? ((c.level ?? null) as TeacherLevel | null) : null;
    const rule = ruleFor(rules.get(c.teacherId) ?? [], c.courseId, date, lesson ? { level } : undefined);
    const amount = rule ? classPay(rule, heads) : 0;
    const t = of(c.teacherId, c.teacherName);
    t.rows.push({
      tid: c.id,
      date,
      time: c.startTime.slice(11, 16),
      courseId: c.courseId,
      courseName: c.courseName,
      online: Number(c.isOnline) ? 1 : 0,
      lesson,
      level,
      ...heads,
      ruleId: rule?.id ?? null,
      rule: rule ? ruleSummary(rule) : '未设置规则',
      amount,
    });
    t.classTotal += amount;
  }
  for (const a of adjustments) {
    const t = of(a.teacherId, a.teacherName);
    const amount = Number(a.amount);
    t.adjustments.push({ id: a.id, amount, reason: a.reason, staffName: a.staffName ?? '', createdAt: a.createdAt });
    t.adjustmentTotal += amount;
  }
  const out = [...teachers.values()].sort((a, b) => a.teacherId - b.teacherId);
  for (const t of out) t.total = t.classTotal + t.adjustmentTotal;
  return out;
}

/** The sum of the teachers' totals. */
export const grandTotal = (teachers: readonly { total: number }[]) => teachers.reduce((s, t) => s + t.total, 0);
