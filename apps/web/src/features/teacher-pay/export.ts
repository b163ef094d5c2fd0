// The 课时费 and 销售提成 workbooks: one sheet per teacher (or seller) and a 汇总 sheet first.
import { LESSON_KIND_LABEL, PAY_METHODS, PAYMENT_KINDS, TEACHER_LEVEL_LABEL } from '@studio/contract';
import type { Sheet } from '../../shared/xlsx.ts';
import type { CommissionRow, TeacherPayStatement } from './types.ts';

/** Fen as a yuan number with 2 decimals (a number cell Excel can sum). */
const y = (fen: number) => Math.round(fen) / 100;

/** A statement row's kind in words: 团课, or 1对1 / 1对2 / 小班 with the teacher's level (1对1·高级). */
export const lessonText = (r: Pick<TeacherPayStatement['teachers'][number]['rows'][number], 'lesson' | 'level'>) =>
  r.lesson ? `${LESSON_KIND_LABEL[r.lesson]}${r.level ? `·${TEACHER_LEVEL_LABEL[r.level]}` : ''}` : '团课';

/** The month's teacher pay: 汇总 (one line a teacher and the total), then each teacher's classes and adjustments. */
export function statementSheets(s: TeacherPayStatement): Sheet[] {
  const summary: Sheet = {
    name: '汇总',
    columns: [
      { header: '老师', width: 16 },
      { header: '课程节数', width: 10 },
      { header: '课时费（元）', width: 14 },
      { header: '调整（元）', width: 12 },
      { header: '应发合计（元）', width: 16 },
    ],
    rows: [
      ...s.teachers.map((t) => [t.teacherName, t.rows.length, y(t.classTotal), y(t.adjustmentTotal), y(t.total)]),
      [
        '合计',
        s.teachers.reduce((n, t) => n + t.rows.length, 0),
        y(s.teachers.reduce((n, t) => n + t.classTotal, 0)),
        y(s.teachers.reduce((n, t) => n + t.adjustmentTotal, 0)),
        y(s.total),
      ],
    ],
  };
  const perTeacher = s.teachers.map((t): Sheet => ({
    name: t.teacherName,
    columns: [
      { header: '日期', width: 12 },
      { header: '时间', width: 8 },
      { header: '课程', width: 16 },
      { header: '类型', width: 12 },
      { header: '上课方式', width: 10 },
      { header: '预约人数', width: 10 },
      { header: '到课人数', width: 10 },
      { header: '计费规则', width: 40 },
      { header: '金额（元）', width: 12 },
    ],
    rows: [
      ...t.rows.map((r) => [
        r.date,
        r.time,
        r.courseName,
        lessonText(r),
        r.online ? '线上' : '到店',
        r.booked,
        r.came,
        r.rule,
        y(r.amount),
      ]),
      ['课时费合计', null, null, null, null, null, null, null, y(t.classTotal)],
      ...t.adjustments.map((a) => [
        '调整',
        a.createdAt.slice(0, 10),
        null,
        null,
        null,
        null,
        null,
        a.reason,
        y(a.amount),
      ]),
      ['应发合计', null, null, null, null, null, null, null, y(t.total)],
    ],
  }));
  return [summary, ...perTeacher];
}

/** The month's commission: 汇总 (one line a seller and the total), then each seller's payments and conversions. */
export function commissionSheets(rows: CommissionRow[]): Sheet[] {
  const summary: Sheet = {
    name: '汇总',
    columns: [
      { header: '员工', width: 14 },
      { header: '销售收款（元）', width: 16 },
      { header: '退款（元）', width: 12 },
      { header: '净额（元）', width: 12 },
      { header: '提成比例（%）', width: 14 },
      { header: '成交潜客', width: 10 },
      { header: '成交提成（元）', width: 14 },
      { header: '提成（元）', width: 12 },
    ],
    rows: [
      ...rows.map((r) => [
        r.name,
        y(r.sales),
        y(r.refunds),
        y(r.sales - r.refunds),
        r.rate,
        r.conversions.length,
        y(r.conversionPay),
        y(r.commission),
      ]),
      [
        '合计',
        y(rows.reduce((n, r) => n + r.sales, 0)),
        y(rows.reduce((n, r) => n + r.refunds, 0)),
        y(rows.reduce((n, r) => n + r.sales - r.refunds, 0)),
        null,
        rows.reduce((n, r) => n + r.conversions.length, 0),
        y(rows.reduce((n, r) => n + r.conversionPay, 0)),
        y(rows.reduce((n, r) => n + r.commission, 0)),
      ],
    ],
  };
  const perSeller = rows.map((r): Sheet => ({
    name: r.name,
    columns: [
      { header: '时间', width: 20 },
      { header: '类型', width: 8 },
      { header: '会员', width: 12 },
      { header: '卡种', width: 16 },
      { header: '金额（元）', width: 12 },
      { header: '收款方式', width: 10 },
      { header: '渠道', width: 8 },
    ],
    rows: [
      ...r.items.map((i) => [
        i.time,
        PAYMENT_KINDS[i.kind],
        i.memberName,
        i.cardName,
        i.kind === 'refund' ? -y(i.amount) : y(i.amount),
        PAY_METHODS[i.method as keyof typeof PAY_METHODS] ?? i.method,
        i.channel === 'online' ? '线上' : '前台',
      ]),
      // Each lead of theirs converted: its name, the card, and what the conversion pays.
      ...r.conversions.map((c) => [c.convertedAt, '成交潜客', c.name, c.cardName, y(r.perConversion), null, null]),
    ],
  }));
  return [summary, ...perSeller];
}
