import {
  PAY_METHODS,
  type ResOf,
  type reportByCourse,
  type reportByDay,
  type reportBySlot,
  type reportByTeacher,
} from '@studio/contract';
import { Card, Space, Statistic, Tabs, Typography } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { yuan } from '../../shared/format.ts';
import { type ChartOption } from './chart.tsx';
import { ReportSection, type Column } from './report-section.tsx';
import { useReports } from './hooks.ts';
import { useRangeChooser } from './range-chooser.tsx';
import { percent, WEEKDAY_ORDER, WEEKDAYS } from './range.ts';

type DayRow = ResOf<typeof reportByDay>[number];
type CourseRow = ResOf<typeof reportByCourse>[number];
type TeacherRow = ResOf<typeof reportByTeacher>[number];
type SlotRow = ResOf<typeof reportBySlot>[number];

const fillColumns = <
  T extends { sessions: number; seats: number; booked: number; fillRate: number },
>(): Column<T>[] => [
  { title: '课程节数', value: (r) => r.sessions },
  { title: '座位数', value: (r) => r.seats },
  { title: '预约人数', value: (r) => r.booked },
  { title: '上座率', value: (r) => percent(r.fillRate) },
];

function Stat({ title, value, suffix, testId }: { title: string; value: ReactNode; suffix?: string; testId: string }) {
  return (
    <Card size="small" style={{ width: 150 }} data-testid={testId}>
      <Statistic title={title} value={value as string} suffix={suffix} />
    </Card>
  );
}

/** 数据报表: a range, the overview, then the trend, courses, teachers and time slots with charts and exports. */
export default function ReportsPage() {
  const { range, chooser } = useRangeChooser();
  const r = useReports(range);
  const o = r.overview.data;

  const dayChart = useMemo<ChartOption | null>(() => {
    const rows = r.byDay.data;
    if (!rows) return null;
    return {
      tooltip: { trigger: 'axis' },
      // The legend on top, the plot below it with room for its own labels (never under the x-axis's).
      legend: { data: ['预约人数', '签到人数', '座位数'], top: 0 },
      grid: { left: 16, right: 24, top: 44, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: rows.map((d) => d.date.slice(5)), axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: '预约人数', type: 'line', data: rows.map((d) => d.booked) },
        { name: '签到人数', type: 'line', data: rows.map((d) => d.signedIn) },
        { name: '座位数', type: 'line', lineStyle: { type: 'dashed' }, data: rows.map((d) => d.seats) },
      ],
    };
  }, [r.byDay.data]);

  const bars = (names: string[], series: { name: string; data: number[] }[]): ChartOption => ({
    tooltip: { trigger: 'axis' },
    legend: { data: series.map((s) => s.name), top: 0 },
    grid: { left: 16, right: 24, top: 44, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: names, axisLabel: { interval: 0, rotate: names.length > 8 ? 30 : 0 } },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((s) => ({ ...s, type: 'bar', barMaxWidth: 36 })),
  });
  const courseChart = useMemo(() => {
    const rows = r.byCourse.data;
    return rows
      ? bars(
          rows.map((c) => c.courseName),
          [
            { name: '预约人数', data: rows.map((c) => c.booked) },
            { name: '座位数', data: rows.map((c) => c.seats) },
          ],
        )
      : null;
  }, [r.byCourse.data]);
  const teacherChart = useMemo(() => {
    const rows = r.byTeacher.data;
    return rows
      ? bars(
          rows.map((t) => t.teacherName),
          [
            { name: '上课节数', data: rows.map((t) => t.sessions) },
            { name: '签到人数', data: rows.map((t) => t.signedIn) },
          ],
        )
      : null;
  }, [r.byTeacher.data]);
  const slotChart = useMemo<ChartOption | null>(() => {
    const rows = r.bySlot.data;
    if (!rows) return null;
    // Every hour of the studio's usual day, widened to any class outside it.
    const first = Math.min(6, ...rows.map((s) => s.hour));
    const last = Math.max(22, ...rows.map((s) => s.hour));
    const hours = Array.from({ length: last - first + 1 }, (_, i) => first + i);
    return {
      tooltip: {
        formatter: (p: { data: [number, number, number, number] }) =>
          `${WEEKDAYS[WEEKDAY_ORDER[p.data[1]]]} ${hours[p.data[0]]}点：上座率 ${p.data[2]}%，${p.data[3]} 节`,
      },
      // The colour scale stands on the right, clear of the hour labels below the grid.
      grid: { left: 16, right: 96, top: 16, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: hours.map((h) => `${h}点`), splitArea: { show: true } },
      yAxis: {
        type: 'category',
        data: WEEKDAY_ORDER.map((w) => WEEKDAYS[w]),
        inverse: true,
        splitArea: { show: true },
      },
      visualMap: {
        min: 0,
        max: 100,
        calculable: true,
        orient: 'vertical',
        right: 8,
        top: 'middle',
        itemHeight: 140,
        text: ['满', '空'],
      },
      series: [
        {
          type: 'heatmap',
          label: { show: true, formatter: (p: { data: number[] }) => `${p.data[2]}%` },
          data: rows.map((s) => [
            hours.indexOf(s.hour),
            WEEKDAY_ORDER.indexOf(s.weekday),
            Math.round(s.fillRate * 100),
            s.sessions,
          ]),
        },
      ],
    };
  }, [r.bySlot.data]);

  return (
    <Card title="数据报表" extra={chooser}>
      <Space wrap size={12} style={{ marginBottom: 16 }} data-testid="report-overview">
        <Stat testId="stat-sessions" title="课程节数" value={o?.sessions ?? '-'} />
        <Stat testId="stat-seats" title="座位数" value={o?.seats ?? '-'} />
        <Stat testId="stat-booked" title="预约人数" value={o?.booked ?? '-'} />
        <Stat testId="stat-fill" title="上座率" value={o ? percent(o.fillRate) : '-'} />
        <Stat testId="stat-signed" title="签到人数" value={o?.signedIn ?? '-'} />
        <Stat testId="stat-noshow" title="爽约人数" value={o?.noShows ?? '-'} />
        {/* Of the people whose coming was recorded (signed in or marked 到店, or not come): who came. */}
        <Stat
          testId="stat-attend"
          title="到课率"
          value={o ? (o.signedIn + o.noShows ? percent(o.signedIn / (o.signedIn + o.noShows)) : '-') : '-'}
        />
        <Stat testId="stat-late" title="迟到取消" value={o?.lateCancels ?? '-'} />
        <Stat testId="stat-count-used" title="次卡课消" value={o?.countUsed ?? '-'} suffix="次" />
        <Stat testId="stat-money-used" title="储值卡课消" value={o ? yuan(o.moneyUsed) : '-'} suffix="元" />
        <Stat testId="stat-cards-sold" title="售卡数" value={o?.cardsSold ?? '-'} suffix="张" />
        <Stat testId="stat-received" title="收款" value={o ? yuan(o.moneyReceived) : '-'} suffix="元" />
        <Stat testId="stat-new-members" title="新会员" value={o?.newMembers ?? '-'} />
        <Stat testId="stat-active-members" title="活跃会员" value={o?.activeMembers ?? '-'} />
      </Space>
      {o && o.moneySplit.length > 0 && <MoneySplit split={o.moneySplit} />}
      <Tabs
        items={[
          {
            key: 'day',
            label: '每日趋势',
            children: (
              <ReportSection<DayRow>
                name="每日趋势"
                testId="report-by-day"
                range={range}
                chart={dayChart}
                rows={r.byDay.data}
                loading={r.byDay.isFetching}
                rowKey={(d) => d.date}
                columns={[
                  { title: '日期', value: (d) => d.date, width: 12 },
                  ...fillColumns<DayRow>(),
                  { title: '签到人数', value: (d) => d.signedIn },
                ]}
              />
            ),
          },
          {
            key: 'course',
            label: '按课程',
            children: (
              <ReportSection<CourseRow>
                name="按课程统计"
                testId="report-by-course"
                range={range}
                chart={courseChart}
                rows={r.byCourse.data}
                loading={r.byCourse.isFetching}
                rowKey={(c) => c.courseId}
                columns={[{ title: '课程', value: (c) => c.courseName, width: 20 }, ...fillColumns<CourseRow>()]}
              />
            ),
          },
          {
            key: 'teacher',
            label: '按老师',
            children: (
              <ReportSection<TeacherRow>
                name="按老师统计"
                testId="report-by-teacher"
                range={range}
                chart={teacherChart}
                rows={r.byTeacher.data}
                loading={r.byTeacher.isFetching}
                rowKey={(t) => t.teacherId}
                columns={[
                  { title: '老师', value: (t) => t.teacherName, width: 16 },
                  { title: '上课节数', value: (t) => t.sessions },
                  { title: '预约人数', value: (t) => t.booked },
                  { title: '签到人数', value: (t) => t.signedIn },
                ]}
              />
            ),
          },
          {
            key: 'slot',
            label: '按时段',
            children: (
              <ReportSection<SlotRow>
                name="按时段统计"
                testId="report-by-slot"
                range={range}
                chart={slotChart}
                rows={r.bySlot.data}
                loading={r.bySlot.isFetching}
                rowKey={(s) => `${s.weekday}-${s.hour}`}
                columns={[
                  { title: '星期', value: (s) => WEEKDAYS[s.weekday] },
                  { title: '开课时间', value: (s) => `${s.hour}:00-${s.hour + 1}:00` },
                  ...fillColumns<SlotRow>(),
                ]}
              />
            ),
          },
        ]}
      />
    </Card>
  );
}

const CHANNEL_LABEL = { desk: '前台', online: '线上' } as const;
const METHOD_LABEL: Record<string, string> = PAY_METHODS;

/** 收款构成: the money received split into 前台 and 线上, each by method (refunds taken off). */
function MoneySplit({ split }: { split: { channel: 'desk' | 'online'; method: string; amount: number }[] }) {
  return (
    <div className="report-money-split" data-testid="money-split" style={{ marginBottom: 16 }}>
      <Typography.Text type="secondary">收款构成：</Typography.Text>
      {(['desk', 'online'] as const).map((ch) => {
        const rows = split.filter((x) => x.channel === ch);
        if (!rows.length) return null;
        const sum = rows.reduce((s, x) => s + x.amount, 0);
        return (
          <span key={ch} style={{ marginRight: 24 }} data-testid={`money-${ch}`}>
            <Typography.Text strong>
              {CHANNEL_LABEL[ch]} {yuan(sum)} 元
            </Typography.Text>
            （{rows.map((x) => `${METHOD_LABEL[x.method] ?? x.method} ${yuan(x.amount)}`).join('，')}）
          </span>
        );
      })}
    </div>
  );
}
