import {
  LESSON_KIND_LABEL,
  TEACHER_LEVEL_LABEL,
  type ResOf,
  type reportLessonOutstanding,
  type reportLessonPacks,
  type reportLessons,
  type reportLessonUtilisation,
} from '@studio/contract';
import { Card, DatePicker, Space, Statistic, Tabs, Typography } from 'antd';
import { useState } from 'react';
import dayjs from '../../shared/dayjs.ts';
import { yuan } from '../../shared/format.ts';
import { useLessonReports } from './hooks.ts';
import { useRangeChooser } from './range-chooser.tsx';
import { percent } from './range.ts';
import { ReportSection } from './report-section.tsx';

type LessonRow = ResOf<typeof reportLessons>[number];
type UseRow = ResOf<typeof reportLessonUtilisation>[number];
type PackRow = ResOf<typeof reportLessonPacks>[number];
type OwedRow = ResOf<typeof reportLessonOutstanding>['products'][number];

/** Minutes as hours, one decimal. */
const hours = (minutes: number) => Number((minutes / 60).toFixed(1));
/** A week by its Monday: 12月7日-12月13日. */
const weekText = (monday: string) =>
  `${dayjs(monday).format('M月D日')}-${dayjs(monday).add(6, 'day').format('M月D日')}`;

function Stat({
  title,
  value,
  suffix,
  testId,
}: {
  title: string;
  value: string | number;
  suffix?: string;
  testId: string;
}) {
  return (
    <Card size="small" style={{ width: 170 }} data-testid={testId}>
      <Statistic title={title} value={value} suffix={suffix} />
    </Card>
  );
}

/**
 * 私教报表 (issue 43): lessons and what they brought in by type and teacher, teachers' 排课率 by
 * week, lesson packs sold and consumed, and the lessons still owed on packs (预收款) at the end of a
 * day the manager picks (截至日期, 默认今天).
 */
export default function LessonReportsPage() {
  const { range, chooser } = useRangeChooser();
  const [owedDate, setOwedDate] = useState<string | undefined>();
  const r = useLessonReports(range, owedDate);
  const asOfText = owedDate ? `（截至${dayjs(owedDate).format('M月D日')}）` : '';
  const lessons = r.byType.data;
  const owed = r.outstanding.data;
  const sum = (xs: LessonRow[] | undefined, f: (x: LessonRow) => number) =>
    xs ? xs.reduce((s, x) => s + f(x), 0) : null;
  const taught = sum(lessons, (x) => x.taught);
  const revenue = sum(lessons, (x) => x.revenue);

  return (
    <Card title="私教报表" extra={chooser}>
      <Space wrap size={12} style={{ marginBottom: 16 }} data-testid="lesson-report-overview">
        <Stat testId="stat-lessons" title="私教/小班节数" value={sum(lessons, (x) => x.lessons) ?? '-'} suffix="节" />
        <Stat testId="stat-taught" title="已上课" value={taught ?? '-'} suffix="节" />
        <Stat testId="stat-revenue" title="课消金额" value={revenue === null ? '-' : yuan(revenue)} suffix="元" />
        <Stat
          testId="stat-owed-lessons"
          title={`未消耗课时${asOfText}`}
          value={owed?.total.lessons ?? '-'}
          suffix="节"
        />
        <Stat
          testId="stat-owed-value"
          title={`预收款${asOfText}`}
          value={owed ? yuan(owed.total.value) : '-'}
          suffix="元"
        />
      </Space>
      <Tabs
        items={[
          {
            key: 'type',
            label: '按课程和老师',
            children: (
              <ReportSection<LessonRow>
                name="私教按课程和老师"
                testId="lesson-report-by-type"
                range={range}
                chart={null}
                rows={lessons}
                loading={r.byType.isFetching}
                rowKey={(x) => `${x.courseId}-${x.teacherId}`}
                empty="这段时间没有私教或小班课"
                columns={[
                  { title: '课程', value: (x) => x.courseName, width: 18 },
                  { title: '类型', value: (x) => LESSON_KIND_LABEL[x.kind] },
                  { title: '老师', value: (x) => x.teacherName, width: 12 },
                  { title: '节数', value: (x) => x.lessons },
                  { title: '已上课', value: (x) => x.taught },
                  { title: '预约人数', value: (x) => x.booked },
                  { title: '签到人数', value: (x) => x.signedIn },
                  { title: '课包课消（节）', value: (x) => x.countUsed, width: 14 },
                  { title: '储值卡课消（元）', value: (x) => yuan(x.moneyUsed), width: 16 },
                  { title: '课消金额（元）', value: (x) => yuan(x.revenue), width: 14 },
                ]}
              />
            ),
          },
          {
            key: 'use',
            label: '老师排课率',
            children: (
              <>
                <Typography.Paragraph type="secondary">
                  排课率 = 工作时间内已约的时长（团课和私教）÷ 工作时长；工作时长按每周工作时间、加班和休息计算。
                </Typography.Paragraph>
                <ReportSection<UseRow>
                  name="老师排课率"
                  testId="lesson-report-utilisation"
                  range={range}
                  chart={null}
                  rows={r.utilisation.data}
                  loading={r.utilisation.isFetching}
                  rowKey={(x) => `${x.teacherId}-${x.weekStart}`}
                  empty="这段时间没有老师的工作时间"
                  columns={[
                    { title: '老师', value: (x) => x.teacherName, width: 12 },
                    { title: '周', value: (x) => weekText(x.weekStart), width: 16 },
                    { title: '工作时长（小时）', value: (x) => hours(x.workMinutes), width: 16 },
                    { title: '已约时长（小时）', value: (x) => hours(x.bookedMinutes), width: 16 },
                    { title: '私教时长（小时）', value: (x) => hours(x.lessonMinutes), width: 16 },
                    { title: '排课率', value: (x) => percent(x.rate) },
                  ]}
                />
              </>
            ),
          },
          {
            key: 'packs',
            label: '课包销售与消耗',
            children: (
              <ReportSection<PackRow>
                name="私教课包销售与消耗"
                testId="lesson-report-packs"
                range={range}
                chart={null}
                rows={r.packs.data}
                loading={r.packs.isFetching}
                rowKey={(x) => x.productId}
                empty="还没有私教课包"
                columns={[
                  { title: '课包', value: (x) => x.cardName, width: 18 },
                  {
                    title: '限定',
                    value: (x) =>
                      x.teacherLevel ? `${TEACHER_LEVEL_LABEL[x.teacherLevel]}老师` : x.teacherId ? '指定老师' : '不限',
                  },
                  { title: '售出（张）', value: (x) => x.cardsSold },
                  { title: '售出课时', value: (x) => x.lessonsSold },
                  { title: '收款（元）', value: (x) => yuan(x.moneyReceived), width: 12 },
                  { title: '消耗课时', value: (x) => x.lessonsUsed },
                  { title: '消耗金额（元）', value: (x) => yuan(x.usedValue), width: 14 },
                ]}
              />
            ),
          },
          {
            key: 'owed',
            label: '预收款',
            children: (
              <>
                <Space style={{ marginBottom: 12 }}>
                  <span>截至日期</span>
                  <span data-testid="lesson-owed-date">
                    <DatePicker
                      aria-label="截至日期"
                      placeholder="今天"
                      value={owedDate ? dayjs(owedDate) : null}
                      disabledDate={(d) => d.isAfter(dayjs(), 'day')}
                      onChange={(d) => setOwedDate(d && !d.isSame(dayjs(), 'day') ? d.format('YYYY-MM-DD') : undefined)}
                    />
                  </span>
                </Space>
                <Typography.Paragraph type="secondary" data-testid="lesson-owed-note">
                  截至 {owed?.asOf ?? '-'} 当天结束：未退卡、未过期的私教课包剩余课时 × 每节实付单价（实付金额 ÷
                  总课时）。合计 {owed?.total.cards ?? '-'} 张、{owed?.total.lessons ?? '-'} 节、
                  {owed ? yuan(owed.total.value) : '-'} 元。
                </Typography.Paragraph>
                <ReportSection<OwedRow>
                  name="预收款"
                  fileName={`私教预收款${owed?.asOf ?? ''}`}
                  testId="lesson-report-owed"
                  range={range}
                  chart={null}
                  rows={owed?.products}
                  loading={r.outstanding.isFetching}
                  rowKey={(x) => x.productId}
                  empty="没有未消耗的课时"
                  columns={[
                    { title: '课包', value: (x) => x.cardName, width: 18 },
                    { title: '张数', value: (x) => x.cards },
                    { title: '未消耗课时', value: (x) => x.lessons },
                    { title: '金额（元）', value: (x) => yuan(x.value), width: 12 },
                  ]}
                />
              </>
            ),
          },
        ]}
      />
    </Card>
  );
}
