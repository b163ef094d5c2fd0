import { LeftOutlined, PlusOutlined, RightOutlined } from '@ant-design/icons';
import '../teacher-day.css';
import { bookLesson, LESSON_KIND_LABEL } from '@studio/contract';
import { Button, DatePicker, Empty, Space, Spin } from 'antd';
import { useMemo } from 'react';
import dayjs from '../../../shared/dayjs.ts';
import { useCan, useRole } from '../../../shared/profile.ts';
import { useTeachers } from '../../../shared/reference.ts';
import { useStoreClock } from '../../../shared/store-time.ts';
import { useCalendarSessions } from '../hooks/calendar.ts';
import { useLessonTypes, useTeacherDayHours } from '../hooks/lessons.ts';
import type { CalendarSession } from '../types.ts';
import { BOOKED_BG, FREE_BG, LESSON_BG } from './calendar-view.tsx';

interface Props {
  date: string;
  venueId: number | null;
  onDate: (date: string) => void;
  onOpen: (id: number) => void;
  /** 约私教 with this teacher on the shown day. */
  onBook: (teacherId: number) => void;
}

/** Pixels per minute of the day's grid (an hour 60 px). */
const PX = 1;
const minutesOf = (t: string) => Number(t.slice(11, 13)) * 60 + Number(t.slice(14, 16));
/** Minutes after midnight of `HH:mm`. */
const clockOf = (hm: string) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5));

/** The day's hours: 06:00-23:00, widened to whole hours around every session shown. */
function hours(sessions: CalendarSession[]): [number, number] {
  let min = 6 * 60;
  let max = 23 * 60;
  for (const s of sessions) {
    min = Math.min(min, Math.floor(minutesOf(s.fromTime) / 60) * 60);
    const end = s.toTime.slice(0, 10) > s.fromTime.slice(0, 10) ? 24 * 60 : minutesOf(s.toTime);
    max = Math.max(max, Math.ceil(end / 60) * 60);
  }
  return [min, max];
}

/**
 * One day with a column per teacher (the store's teachers; a teacher's own account: theirs), group
 * classes and lessons (私教/小班) placed at their times, each opening its drawer; a column's 约私教
 * books a lesson with that teacher on the day.
 */
export default function TeacherDayView({ date, venueId, onDate, onOpen, onBook }: Props) {
  const { today } = useStoreClock();
  const teacherRole = useRole() === 'teacher';
  const canBook = useCan(bookLesson);
  const teachers = useTeachers();
  // 约私教 is offered in the columns of teachers who give a lesson type.
  const types = useLessonTypes(canBook);
  const givers = new Set((types.data ?? []).flatMap((t) => t.teachers.map((x) => x.teacherId)));
  const sessions = useCalendarSessions({ fromDate: date, toDate: date, venueId, teacherId: null });
  // Each teacher's working hours and the free part of them (the server's one free-time rule).
  const dayHours = useTeacherDayHours(date);
  const hoursOf = useMemo(() => new Map((dayHours.data ?? []).map((h) => [h.teacherId, h])), [dayHours.data]);
  const list = useMemo(() => sessions.data ?? [], [sessions.data]);
  const columns = useMemo(() => {
    const cols = new Map<number, string>();
    if (!teacherRole) for (const t of teachers.data ?? []) cols.set(t.id, t.name);
    for (const s of list) if (!cols.has(s.teacherId)) cols.set(s.teacherId, s.teacherName);
    return [...cols].map(([id, name]) => ({ id, name, sessions: list.filter((s) => s.teacherId === id) }));
  }, [teachers.data, list, teacherRole]);
  const [min, max] = hours(list);
  const height = (max - min) * PX;
  const shift = (days: number) => onDate(dayjs(date).add(days, 'day').format('YYYY-MM-DD'));

  return (
    <section className="teacher-day" aria-label="老师日视图">
      <div className="teacher-day-bar">
        <Space>
          <Button icon={<LeftOutlined />} aria-label="前一天" onClick={() => shift(-1)} />
          <Button icon={<RightOutlined />} aria-label="后一天" onClick={() => shift(1)} />
          <Button onClick={() => onDate(today())}>今天</Button>
          <DatePicker
            aria-label="日期"
            allowClear={false}
            value={dayjs(date)}
            onChange={(d) => d && onDate(d.format('YYYY-MM-DD'))}
          />
        </Space>
        <h2 className="teacher-day-title">
          {date} {['周日', '周一', '周二', '周三', '周四', '周五', '周六'][dayjs(date).day()]} · 按老师
        </h2>
        {sessions.isFetching && <Spin size="small" />}
        <span className="teacher-day-legend" aria-label="图例">
          <span className="teacher-day-swatch teacher-day-swatch-free" />
          空闲
          <span className="teacher-day-swatch teacher-day-swatch-work" />
          工作时间内已排课
          <span className="teacher-day-swatch teacher-day-swatch-off" />
          非工作时间
        </span>
      </div>
      {!columns.length ? (
        <Empty description="当天没有老师的课程" />
      ) : (
        <div className="teacher-day-scroll">
          <div
            className="teacher-day-grid"
            style={{ gridTemplateColumns: `56px repeat(${columns.length}, minmax(150px, 1fr))` }}
          >
            <div className="teacher-day-corner" />
            {columns.map((c) => (
              <div key={c.id} className="teacher-day-head">
                <span className="teacher-day-name">{c.name}</span>
                {canBook && givers.has(c.id) && (
                  <Button
                    size="small"
                    type="link"
                    icon={<PlusOutlined />}
                    aria-label={`为${c.name}约私教`}
                    onClick={() => onBook(c.id)}
                  >
                    约私教
                  </Button>
                )}
              </div>
            ))}
            <div className="teacher-day-axis" style={{ height }}>
              {Array.from({ length: (max - min) / 60 }, (_, i) => (
                <span key={i} style={{ top: i * 60 * PX }}>
                  {String((min + i * 60) / 60).padStart(2, '0')}:00
                </span>
              ))}
            </div>
            {columns.map((c) => (
              <div key={c.id} className="teacher-day-col" style={{ height }} data-teacher-id={c.id}>
                {(['work', 'free'] as const).flatMap((kind) =>
                  (hoursOf.get(c.id)?.[kind] ?? []).map((h) => {
                    const from = Math.max(clockOf(h.startTime), min);
                    const to = Math.min(clockOf(h.endTime), max);
                    if (to <= from) return null;
                    const label = `${kind === 'free' ? '空闲' : '工作时间'} ${h.startTime}-${h.endTime}`;
                    return (
                      <div
                        key={`${kind}-${h.startTime}`}
                        className={`teacher-day-${kind}`}
                        data-span={`${h.startTime}-${h.endTime}`}
                        title={label}
                        style={{ top: (from - min) * PX, height: (to - from) * PX }}
                      >
                        {kind === 'free' && to - from >= 30 && <span className="teacher-day-free-label">空闲</span>}
                      </div>
                    );
                  }),
                )}
                {c.sessions.map((s) => (
                  <DayEvent key={s.id} s={s} top={(minutesOf(s.fromTime) - min) * PX} onOpen={onOpen} />
                ))}
              </div>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}

function DayEvent({ s, top, onOpen }: { s: CalendarSession; top: number; onOpen: (id: number) => void }) {
  const end = s.toTime.slice(0, 10) > s.fromTime.slice(0, 10) ? 24 * 60 : minutesOf(s.toTime);
  const time = `${s.fromTime.slice(11, 16)}-${s.toTime.slice(11, 16)}`;
  const lesson = s.lesson;
  const who = lesson ? lesson.members.join('、') || '无会员' : `${s.realCount}/${s.reservableCount}`;
  return (
    <button
      type="button"
      className={`teacher-day-event${lesson ? ' teacher-day-lesson' : ''}`}
      data-session-id={s.id}
      style={{
        top,
        height: Math.max(36, (end - minutesOf(s.fromTime)) * PX),
        background: lesson ? LESSON_BG : s.realCount > 0 ? BOOKED_BG : FREE_BG,
        borderLeftColor: s.color || '#1677ff',
      }}
      onClick={() => onOpen(s.id)}
    >
      <span className="session-event-title">
        <span className="session-name">
          {lesson && <span className="session-lesson">{LESSON_KIND_LABEL[lesson.kind]}</span>}
          {s.courseName}
        </span>
        {lesson?.pending && <span className="session-state session-state-pending">待确认</span>}
      </span>
      {lesson ? (
        <>
          <span className="session-line">{time}</span>
          <span className="session-line session-members">{who}</span>
        </>
      ) : (
        <span className="session-line">
          {time} · {who}
        </span>
      )}
    </button>
  );
}
