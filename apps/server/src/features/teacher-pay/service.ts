import {
  amountText,
  BIG_TYPE_MONEY,
  payRuleScopeText,
  SellerMsg,
  TeacherPayMsg,
  unruledClassText,
  type addTeacherPayAdjustment,
  type CommissionRow,
  type deleteTeacherPayRule,
  type ParsedReqOf,
  type PayHeads,
  type PayRule,
  type PayRuleKind,
  type PayStatementRow,
  type ResOf,
  type queryPayMonthList,
  type TeacherPayStatement,
  type TeacherStatement,
  type updateSaleSeller,
  type updateSalesCommissionRate,
  type updateTeacherPayRule,
} from '@studio/contract';
import { isUniqueViolation } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { localDateTime } from '../../lib/time.ts';
import { ownTeacherFilter, requireCourse, requireTeacher, requireTeachers } from '../reference/public.ts';
import { findStaffOfStore, requireSeller } from '../staff/public.ts';
import {
  closedAmong,
  closingOf,
  closings,
  deleteClosing,
  insertClosing,
  type CloseKind,
} from './closing-repository.ts';
import { computeCommission, sellerOfSale } from './commission.ts';
import { addMonths, monthOf } from './month.ts';
import {
  deleteRule,
  insertAdjustment,
  insertRule,
  paymentWithSeller,
  putRate,
  rateOf,
  ratesOfStaff,
  replaceRule,
  ruleAt,
  rulesOf,
  setPaymentSeller,
  staffNames,
  type RuleScope,
} from './repository.ts';
import { ruleSummary, tiersOf, tiersToJson } from './rules.ts';
import { computeStatement, grandTotal } from './statement.ts';

const now = (ctx: CallCtx) => localDateTime(ctx.store.timezone);
const yuan = (fen: number) => amountText(BIG_TYPE_MONEY, fen);
const KIND_LABEL: Record<CloseKind, string> = { teacher: '课时费', commission: '销售提成' };

// ---- rules ------------------------------------------------------------------------------

/** The store's pay rules (of one teacher, when given), teacher by teacher, oldest first. */
export async function ruleList(ctx: CallCtx, teacherId: number | null): Promise<PayRule[]> {
  if (teacherId) await requireTeachers(ctx.db, ctx.store.id, [teacherId]);
  const rows = await rulesOf(ctx.db, ctx.store.id, teacherId);
  return rows.map((r) => {
    const rule = {
      kind: r.kind as PayRuleKind,
      amount: Number(r.amount),
      tiers: tiersOf(r.tiers),
      heads: r.heads as PayHeads,
      minimum: Number(r.minimum),
    };
    const scope = { courseName: r.courseName ?? null, lessons: Number(r.lessons), level: r.level };
    return {
      id: r.id,
      teacherId: r.teacherId,
      teacherName: r.teacherName,
      courseId: r.courseId,
      ...scope,
      scope: payRuleScopeText(scope),
      ...rule,
      fromDate: r.fromDate,
      summary: ruleSummary(rule),
    };
  });
}

/** 409 when the teacher pay of the month holding `date` is closed: a rule starting then would rewrite it. */
async function refuseRuleInClosedMonth(tx: Executor, storeId: number, date: string) {
  const [closed] = await closedAmong(tx, storeId, 'teacher', [monthOf(date)]);
  if (closed) throw conflict(TeacherPayMsg.ruleInClosedMonth(closed));
}

/**
 * A rule's scope as stored: with a course, that course's (`lessons` 0); without, all courses or
 * (`lessons` 1) all 私教/小班 types. A teacher level only for a lesson scope (a lesson type, or all
 * of them): 400 otherwise.
 */
function scopeOf(
  course: { id: number; kind: string } | null,
  input: { lessons: number; level: RuleScope['level'] },
): RuleScope {
  const lessons = course ? 0 : input.lessons;
  const forLessons = course ? course.kind !== 'group' : lessons === 1;
  if (input.level && !forLessons) throw badRequest(TeacherPayMsg.levelNotLesson);
  return { courseId: course?.id ?? null, lessons, level: input.level ?? null };
}

/**
 * Sets a teacher's rule for a course (or all courses, or all 私教/小班; for lessons optionally one
 * teacher level) from a date on: a rule of the same teacher, scope and date is changed, otherwise
 * one is added. Refused when the date is in a closed month.
 */
export async function saveRule(ctx: CallCtx, input: ParsedReqOf<typeof updateTeacherPayRule>): Promise<null> {
  const storeId = ctx.store.id;
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const teacher = await requireTeacher(tx, storeId, input.teacherId);
    const course = input.courseId ? await requireCourse(tx, storeId, input.courseId) : null;
    const where = scopeOf(course, input);
    await refuseRuleInClosedMonth(tx, storeId, input.fromDate);
    const fields = {
      kind: input.kind,
      amount: input.kind === 'tiered' ? 0 : input.amount,
      tiers: input.kind === 'tiered' ? tiersToJson(input.tiers) : null,
      heads: input.kind === 'tiered' ? input.heads : 'came',
      minimum: input.minimum,
      updatedAt: now(ctx),
    };
    const had = await ruleAt(tx, storeId, teacher.id, where, input.fromDate);
    const text = (r: { kind: string; amount: number; tiers: string | null; heads: string; minimum: number }) =>
      ruleSummary({
        kind: r.kind as PayRuleKind,
        amount: Number(r.amount),
        tiers: tiersOf(r.tiers),
        heads: r.heads as PayHeads,
        minimum: Number(r.minimum),
      });
    const scope = `${teacher.name} ${payRuleScopeText({ ...where, courseName: course?.name ?? null })} ${input.fromDate}起`;
    audit(tx, {
      kind: 'staff',
      summary: `${had ? '修改' : '设置'}课时费规则：${scope} ${text(fields)}`,
      targets: [{ type: 'teacher', id: teacher.id }, ...(course ? [{ type: 'course' as const, id: course.id }] : [])],
      ...(had ? { before: { 规则: text(had) }, after: { 规则: text(fields) } } : { after: { 规则: text(fields) } }),
    });
    if (had) await replaceRule(tx, had.id, fields);
    else {
      try {
        await insertRule(tx, {
          storeId,
          teacherId: teacher.id,
          ...where,
          fromDate: input.fromDate,
          ...fields,
        });
      } catch (e) {
        // The same rule added by another request at the same moment.
        if (isUniqueViolation(e)) throw conflict(TeacherPayMsg.ruleTaken);
        throw e;
      }
    }
  });
  return null;
}

/** Deletes a teacher's rule of a scope and date (none: nothing changes). Refused when the date is in a closed month. */
export async function removeRule(ctx: CallCtx, input: ParsedReqOf<typeof deleteTeacherPayRule>): Promise<null> {
  const storeId = ctx.store.id;
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await requireTeachers(tx, storeId, [input.teacherId]);
    await refuseRuleInClosedMonth(tx, storeId, input.fromDate);
    const where = { courseId: input.courseId, lessons: input.courseId ? 0 : input.lessons, level: input.level };
    const had = await ruleAt(tx, storeId, input.teacherId, where, input.fromDate);
    // A rule found is the store's, its course too (a deleted course's rule can still go); else the course must be.
    if (!had && input.courseId) await requireCourse(tx, storeId, input.courseId);
    audit(tx, {
      kind: 'staff',
      summary: had
        ? `删除课时费规则：${input.fromDate}起`
        : `删除课时费规则：${input.fromDate}起（没有这条规则，未改变）`,
      targets: [{ type: 'teacher', id: input.teacherId }],
    });
    if (had) await deleteRule(tx, had.id);
  });
  return null;
}

// ---- statements ---------------------------------------------------------------------------

/**
 * The teacher pay of a month: a closed month as it was closed (its snapshot), an open one as it
 * stands. A teacher account gets its own statement whatever it asks for; others may name a teacher
 * of the store (deleted ones too: their months remain) or none for all.
 */
export async function statement(ctx: CallCtx, month: string, asked: number | null): Promise<TeacherPayStatement> {
  const storeId = ctx.store.id;
  const own = ownTeacherFilter(ctx.post);
  const teacherId = own ?? asked;
  if (own === undefined && teacherId) await requireTeachers(ctx.db, storeId, [teacherId]);
  const closing = await closingOf(ctx.db, storeId, 'teacher', month);
  let teachers: TeacherStatement[];
  if (closing) {
    const all = (JSON.parse(closing.snapshot) as { teachers: TeacherStatement[] }).teachers.map((t) => ({
      ...t,
      // Months closed before lessons were paid have no lesson marks: their rows are all group classes.
      rows: t.rows.map((r: PayStatementRow) => ({ ...r, lesson: r.lesson ?? null, level: r.level ?? null })),
    }));
    teachers = teacherId ? all.filter((t) => t.teacherId === teacherId) : all;
  } else teachers = await computeStatement(ctx.db, storeId, month, teacherId);
  return {
    month,
    teachers,
    closed: !!closing,
    closing: closing ? { closedAt: closing.closedAt, closedBy: closing.closedByName } : null,
    total: grandTotal(teachers),
  };
}

/** Adds an amount (either sign) with its reason to a teacher's month; refused in a closed month. */
export async function addAdjustment(
  ctx: CallCtx,
  input: ParsedReqOf<typeof addTeacherPayAdjustment>,
): Promise<{ id: number }> {
  const storeId = ctx.store.id;
  const id = await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await requireTeachers(tx, storeId, [input.teacherId]);
    if (await closingOf(tx, storeId, 'teacher', input.month)) throw conflict(TeacherPayMsg.monthClosed(input.month));
    audit(tx, {
      kind: 'staff',
      summary: `课时费调整 ${input.month}：${yuan(input.amount)}，${input.reason}`,
      targets: [{ type: 'teacher', id: input.teacherId }],
    });
    return insertAdjustment(tx, {
      storeId,
      teacherId: input.teacherId,
      month: input.month,
      amount: input.amount,
      reason: input.reason,
      staffId: ctx.staff.id,
      createdAt: now(ctx),
    });
  });
  return { id };
}

/** A month's sales commission: a closed month as it was closed, an open one as it stands. */
export async function commission(ctx: CallCtx, month: string): Promise<CommissionRow[]> {
  const closing = await closingOf(ctx.db, ctx.store.id, 'commission', month);
  if (closing) {
    // Months closed before conversions were paid (issue 44, item 4) read back with none.
    return (JSON.parse(closing.snapshot) as { rows: CommissionRow[] }).rows.map((r) => ({
      ...r,
      conversions: r.conversions ?? [],
      perConversion: r.perConversion ?? 0,
      conversionPay: r.conversionPay ?? 0,
    }));
  }
  return computeCommission(ctx.db, ctx.store.id, month);
}

/**
 * Names another 销售员 for a sale or top-up (a manager; issue 42, item 12): the commission counts
 * them from then on, and the refunds of what it paid for follow. Refused (409) for a refund or a
 * transfer fee, and while the commission of the sale's month is closed (reopen it first). Written to
 * the audit log with the seller before and after.
 */
export async function changeSaleSeller(ctx: CallCtx, input: ParsedReqOf<typeof updateSaleSeller>): Promise<null> {
  const storeId = ctx.store.id;
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const sale = await paymentWithSeller(tx, storeId, input.id);
    if (!sale) throw notFound('收款记录');
    if (sale.kind !== 'sale' && sale.kind !== 'topup') throw conflict(SellerMsg.notSale);
    const seller = await requireSeller(tx, storeId, input.sellerId);
    const [closed] = await closedAmong(tx, storeId, 'commission', [monthOf(sale.createdAt)]);
    if (closed) throw conflict(SellerMsg.monthClosed(closed));
    const was = sellerOfSale(sale);
    const names = await staffNames(tx, was === null ? [] : [was]);
    const before = was === null ? '无' : (names.get(was) ?? '');
    audit(tx, {
      kind: 'card',
      summary: `更改销售员：${sale.kind === 'sale' ? '售卡' : '充值'} ${sale.cardName} ${yuan(Number(sale.amount))}（${sale.createdAt.slice(0, 16)}），${before} → ${seller.name}`,
      targets: [
        { type: 'card', id: sale.memberCardId },
        { type: 'member', id: sale.memberId },
        { type: 'staff', id: seller.id },
      ],
      before: { 销售员: before },
      after: { 销售员: seller.name },
    });
    await setPaymentSeller(tx, storeId, sale.id, seller.id);
  });
  return null;
}

// ---- closing --------------------------------------------------------------------------------

/**
 * Closes a month of teacher pay or commission, once it has ended: its statement, computed in the
 * same transaction, is kept as it is (and answered from then on); edits that would change it are
 * refused until a manager reopens it.
 */
export async function closeMonth(ctx: CallCtx, kind: CloseKind, month: string, confirmed = false): Promise<null> {
  const storeId = ctx.store.id;
  const at = now(ctx);
  if (`${addMonths(month, 1)}-01 00:00:00` > at) throw conflict(TeacherPayMsg.notEnded(month));
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (await closingOf(tx, storeId, kind, month)) throw conflict(TeacherPayMsg.alreadyClosed(month));
    let snapshot: string;
    let summary: string;
    if (kind === 'teacher') {
      const teachers = await computeStatement(tx, storeId, month);
      const unruled = teachers.flatMap((t) =>
        t.rows.filter((r) => r.ruleId === null).map((r) => unruledClassText({ ...r, teacherName: t.teacherName })),
      );
      if (unruled.length && !confirmed) throw conflict(TeacherPayMsg.unruledClasses(month, unruled));
      snapshot = JSON.stringify({ teachers });
      summary = `结算关闭 ${month} 课时费：${teachers.length} 位老师，合计 ${yuan(grandTotal(teachers))}${unruled.length ? `；确认 ${unruled.length} 节课没有规则（按 0 元计）：${unruled.join('、')}` : ''}`;
    } else {
      const rows = await computeCommission(tx, storeId, month);
      snapshot = JSON.stringify({ rows });
      const total = rows.reduce((s, r) => s + r.commission, 0);
      summary = `结算关闭 ${month} 销售提成：${rows.length} 位员工，合计 ${yuan(total)}`;
    }
    audit(tx, { kind: 'staff', target: `${KIND_LABEL[kind]} ${month}`, summary });
    const done = await insertClosing(tx, {
      storeId,
      kind,
      month,
      closedBy: ctx.staff.id,
      closedByName: ctx.staff.name,
      closedAt: at,
      snapshot,
    });
    if (!done) throw conflict(TeacherPayMsg.alreadyClosed(month));
  });
  return null;
}

/** Reopens a closed month (a manager, with the reason in the audit log): it is computed live again. */
export async function reopenMonth(ctx: CallCtx, kind: CloseKind, month: string, reason: string): Promise<null> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (!(await deleteClosing(tx, ctx.store.id, kind, month))) throw conflict(TeacherPayMsg.notClosed(month));
    audit(tx, {
      kind: 'staff',
      target: `${KIND_LABEL[kind]} ${month}`,
      summary: `重新打开 ${month} ${KIND_LABEL[kind]}，原因：${reason}`,
      before: { 状态: '已结算关闭' },
      after: { 状态: '已重新打开', 原因: reason },
    });
  });
  return null;
}

/** The store's closed months, newest first. */
export async function closedMonths(ctx: CallCtx): Promise<ResOf<typeof queryPayMonthList>> {
  const rows = await closings(ctx.db, ctx.store.id);
  return rows.map((r) => ({
    kind: r.kind as CloseKind,
    month: r.month,
    closedAt: r.closedAt,
    closedBy: r.closedByName,
  }));
}

// ---- commission rates -----------------------------------------------------------------------

/** Every staff member of the store with their commission rate (percent; 0 when unset) and per-conversion fen. */
export async function rateList(ctx: CallCtx) {
  const rows = await ratesOfStaff(ctx.db, ctx.store.id);
  return rows.map((r) => ({
    staffId: r.staffId,
    name: r.name,
    role: r.role,
    enabled: Number(r.enabled),
    rate: r.rateBp / 100,
    perConversion: r.perConversion,
  }));
}

/** Sets a staff member's commission rate (and per-conversion amount, when given); months not closed use them from now on. */
export async function saveRate(ctx: CallCtx, input: ParsedReqOf<typeof updateSalesCommissionRate>): Promise<null> {
  const storeId = ctx.store.id;
  const rateBp = Math.round(input.rate * 100);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const staff = await findStaffOfStore(tx, storeId, input.staffId);
    if (!staff) throw notFound('员工');
    const before = await rateOf(tx, storeId, staff.id);
    const perConversion = input.perConversion ?? before.perConversion;
    const words = (r: { rateBp: number; perConversion: number }) => ({
      提成比例: `${r.rateBp / 100}%`,
      每成交一位潜客: yuan(r.perConversion),
    });
    audit(tx, {
      kind: 'staff',
      summary: `销售提成比例：${staff.name} ${rateBp / 100}%，每成交一位潜客 ${yuan(perConversion)}`,
      targets: [{ type: 'staff', id: staff.id }],
      before: words(before),
      after: words({ rateBp, perConversion }),
    });
    await putRate(tx, storeId, staff.id, { rateBp, perConversion }, now(ctx));
  });
  return null;
}
