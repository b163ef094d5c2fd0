import { Button, Spin } from 'antd';
import { lazy, Suspense, useCallback, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { useNavigate, useSearchParams } from '../../shared/router.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import {
  BOOKED_BG,
  BOOKED_BORDER,
  CalendarView,
  FREE_BG,
  LESSON_BG,
  LESSON_BORDER,
  type VisibleRange,
} from './components/calendar-view.tsx';
import { Filters } from './components/filters.tsx';
import { Toolbar } from './components/toolbar.tsx';
import { useCalendarSessions } from './hooks/calendar.ts';
import type { ToolModal, ToolModalProps } from './types.ts';
import './schedule.css';

// Drawers, modals, the picture and the export are loaded on demand.
const SessionDrawer = lazy(() => import('./drawer/session-drawer.tsx'));
const TeacherDayView = lazy(() => import('./components/teacher-day-view.tsx'));
const toolModals: Record<ToolModal, LazyExoticComponent<ComponentType<ToolModalProps>>> = {
  add: lazy(() => import('./modals/add-session-modal.tsx')),
  week: lazy(() => import('./modals/week-arrange-modal.tsx')),
  copy: lazy(() => import('./modals/copy-schedule-modal.tsx')),
  batch: lazy(() => import('./modals/batch-arrange-modal.tsx')),
  dropIn: lazy(() => import('./modals/drop-in-modal.tsx')),
  batchDelete: lazy(() => import('./modals/batch-delete-modal.tsx')),
  export: lazy(() => import('./modals/export-modal.tsx')),
  picture: lazy(() => import('./modals/picture-modal.tsx')),
  lesson: lazy(() => import('./modals/lesson-booking-modal.tsx')),
  lessonSeries: lazy(() => import('./modals/lesson-series-modal.tsx')),
};

const SESSION_PARAM = 'course_calendar_id';

/** /course/calendar (and /course/calendar/detail?course_calendar_id=ID, which opens the drawer). */
export default function SchedulePage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [range, setRange] = useState<VisibleRange | null>(null);
  const [venueId, setVenueId] = useState<number | null>(null);
  const [teacherId, setTeacherId] = useState<number | null>(null);
  const [modal, setModal] = useState<ToolModal | null>(null);
  // 按老师: one day with a column per teacher (its date), instead of the calendar.
  const { today } = useStoreClock();
  const [teacherDay, setTeacherDay] = useState<string | null>(null);
  const [prefill, setPrefill] = useState<ToolModalProps['prefill']>();
  const sessions = useCalendarSessions(range && { ...range, venueId, teacherId });
  const openId = Number(params.get(SESSION_PARAM)) || null;
  // ?date=YYYY-MM-DD opens the calendar on that date (links, the benchmark).
  const [initialDate] = useState(() => {
    const d = params.get('date');
    return d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined;
  });

  const onRange = useCallback(
    (r: VisibleRange) => setRange((old) => (old && old.fromDate === r.fromDate && old.toDate === r.toDate ? old : r)),
    [],
  );
  const onOpen = useCallback(
    (id: number) =>
      setParams((p) => {
        const n = new URLSearchParams(p);
        n.set(SESSION_PARAM, String(id));
        return n;
      }),
    [setParams],
  );
  const onCloseDrawer = () => {
    if (window.location.pathname.endsWith('/detail')) navigate('/course/calendar', { replace: true });
    else
      setParams((p) => {
        const n = new URLSearchParams(p);
        n.delete(SESSION_PARAM);
        return n;
      });
  };

  const Modal = modal ? toolModals[modal] : null;
  return (
    <div className="schedule-page">
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
        <Toolbar
          onOpen={(m) => {
            setPrefill(teacherDay ? { date: teacherDay } : undefined);
            setModal(m);
          }}
        />
        <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
          <Filters venueId={venueId} teacherId={teacherId} onVenue={setVenueId} onTeacher={setTeacherId} />
          <Button onClick={() => setTeacherDay(teacherDay ? null : (initialDate ?? today()))}>
            {teacherDay ? '返回日历' : '按老师看一天'}
          </Button>
          {sessions.isFetching && <Spin size="small" />}
          <span className="legend">
            <i style={{ background: FREE_BG, border: '1px solid #d9d9d9' }} /> 无预约
            <i style={{ background: BOOKED_BG, border: `1px solid ${BOOKED_BORDER}` }} /> 有预约
            <i style={{ background: LESSON_BG, border: `1px solid ${LESSON_BORDER}` }} /> 私教/小班
          </span>
        </div>
        {teacherDay ? (
          <Suspense fallback={<Spin />}>
            <TeacherDayView
              date={teacherDay}
              venueId={venueId}
              onDate={setTeacherDay}
              onOpen={onOpen}
              onBook={(id) => {
                setPrefill({ teacherId: id, date: teacherDay });
                setModal('lesson');
              }}
            />
          </Suspense>
        ) : (
          <CalendarView initialDate={initialDate} sessions={sessions.data ?? []} onRange={onRange} onOpen={onOpen} />
        )}
      </div>
      <Suspense fallback={null}>
        {openId && <SessionDrawer id={openId} onClose={onCloseDrawer} />}
        {Modal && <Modal onClose={() => setModal(null)} shown={range} prefill={prefill} />}
      </Suspense>
    </div>
  );
}
