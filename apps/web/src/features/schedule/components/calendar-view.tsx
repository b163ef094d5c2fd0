import type { DatesSetArg, EventClickArg, EventContentArg, EventInput, PluginDef } from '@fullcalendar/core';
import zhCn from '@fullcalendar/core/locales/zh-cn';
import dayGridPlugin from '@fullcalendar/daygrid';
import FullCalendar from '@fullcalendar/react';
import timeGridPlugin from '@fullcalendar/timegrid';
import { LESSON_KIND_LABEL } from '@studio/contract';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import dayjs from '../../../shared/dayjs.ts';
import { storeDateTime, useStoreClock } from '../../../shared/store-time.ts';
import type { CalendarSession } from '../types.ts';

/** Classes without bookings stay white; booked ones a red tint clearly apart from white (legend too). */
export const FREE_BG = '#ffffff';
export const BOOKED_BG = '#ffdcd6';
export const BOOKED_BORDER = '#ffa39e';
/** Lessons (私教/小班) a lavender tint, apart from both (#262626 on it 13:1). */
export const LESSON_BG = '#efe6ff';
export const LESSON_BORDER = '#9254de';

export interface VisibleRange {
  fromDate: string;
  toDate: string;
}

interface Props {
  /** First date to show (`YYYY-MM-DD`); today when absent. */
  initialDate?: string;
  sessions: CalendarSession[];
  onRange: (r: VisibleRange) => void;
  onOpen: (id: number) => void;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (v: unknown) => String(v ?? '').replace(/[&<>"']/g, (c) => ESC[c]);

/**
 * One event's content as HTML rather than JSX: a React portal per event made a 300-session week
 * several times slower to paint. `now`: the store's wall clock (`YYYY-MM-DD HH:mm:ss`).
 */
function eventHtml({ event, view }: EventContentArg, now: string): { html: string } {
  const s = event.extendedProps.session as CalendarSession;
  const time = `${s.fromTime.slice(11, 16)}-${s.toTime.slice(11, 16)}`;
  const compact = view.type === 'dayGridMonth';
  const online = s.isOnline ? '<span class="session-online">线上</span>' : '';
  // A lesson (私教/小班) shows its kind, 待确认 and its members instead of a count of seats.
  const lesson = s.lesson;
  const kind = lesson ? `<span class="session-lesson">${LESSON_KIND_LABEL[lesson.kind]}</span>` : '';
  const pending = lesson?.pending ? '<span class="session-state session-state-pending">待确认</span>' : '';
  // Ended and full classes look different from open ones (the store's clock; the server decides).
  const ended = s.toTime <= now;
  const full = s.realCount >= s.reservableCount;
  const state = ended
    ? '<span class="session-state session-state-ended">已结束</span>'
    : full
      ? '<span class="session-state session-state-full">已满</span>'
      : '';
  const who = lesson
    ? `<div class="session-line session-members">${esc(lesson.members.join('、') || '无会员')}</div>`
    : '';
  const lines = compact
    ? `<div class="session-line">${time}</div>`
    : `<div class="session-line"><span class="session-time">${s.fromTime.slice(11, 16)}<span class="session-end">-${s.toTime.slice(11, 16)}</span></span> <span class="session-teacher">${esc(s.teacherName)}</span></div><div class="session-line session-venue">${esc(s.areaName || '无场地')}</div>`;
  return {
    html:
      `<div class="session-event${ended ? ' session-ended' : ''}${full && !lesson ? ' session-full' : ''}${lesson ? ' session-lesson-event' : ''}" data-session-id="${s.id}" title="${esc(s.courseName)} ${time}">` +
      `<div class="session-event-title"><span class="session-name">${online}${kind}${esc(s.courseName)}</span>` +
      (lesson
        ? `<span class="session-count">${ended ? state : pending}</span></div>${who}`
        : `<span class="session-count" title="已预约/上限">${state}${s.realCount}/${s.reservableCount}</span></div>`) +
      (s.waitCount ? `<div class="session-line session-wait">候补 ${s.waitCount}</div>` : '') +
      `${lines}</div>`,
  };
}

/** Title in year-month-day (spec section 9); FullCalendar hands the title range with an inclusive end. */
function titleText(arg: { start: { marker: Date }; end?: { marker: Date } }): string {
  const start = dayjs(arg.start.marker.toISOString().slice(0, 10));
  const end = arg.end ? dayjs(arg.end.marker.toISOString().slice(0, 10)) : start;
  if (start.isSame(end, 'day')) return start.format('YYYY-MM-DD');
  if (start.date() === 1 && end.add(1, 'day').date() === 1) return start.format('YYYY-MM');
  return `${start.format('YYYY-MM-DD')} – ${end.format('YYYY-MM-DD')}`;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const hhmmss = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00`;

/**
 * The hours the day and week views show: 06:00-23:00, widened to the whole hours around every shown
 * session's start and end (the server accepts any time of day: no session may be invisible).
 */
function slotRange(sessions: CalendarSession[]): [string, string] {
  let min = 6 * 60;
  let max = 23 * 60;
  for (const s of sessions) {
    const start = minutesOf(s.fromTime.slice(11, 16));
    const end = s.toTime.slice(0, 10) > s.fromTime.slice(0, 10) ? 24 * 60 : minutesOf(s.toTime.slice(11, 16));
    min = Math.min(min, Math.floor(start / 60) * 60);
    max = Math.max(max, Math.ceil(end / 60) * 60);
  }
  return [hhmmss(min), hhmmss(max)];
}

/**
 * Where the day and week views open: an hour before now (`now`: the store's wall clock) when today
 * is shown, else the hour of the first class of the range; null while that range's classes are not
 * known yet.
 */
function scrollTarget(from: string, to: string, sessions: CalendarSession[], now: string): string | null {
  const today = now.slice(0, 10);
  if (today >= from && today <= to) return hhmmss(Math.max(0, Number(now.slice(11, 13)) - 1) * 60);
  const first = sessions
    .filter((s) => s.fromTime.slice(0, 10) >= from && s.fromTime.slice(0, 10) <= to)
    .map((s) => s.fromTime.slice(11, 13))
    .sort()[0];
  return first === undefined ? null : `${first}:00:00`;
}

/**
 * The schedule calendar. Times are the store's wall clock: FullCalendar runs in UTC mode and gets
 * the strings without a zone, and "now" (the now-line, 已结束, where the view opens) is the store's
 * clock too (store-time.ts), so nothing depends on the browser's time zone.
 */
export const CalendarView = memo(function CalendarView({ initialDate, sessions, onRange, onOpen }: Props) {
  const { timeZone } = useStoreClock();
  const content = useCallback((arg: EventContentArg) => eventHtml(arg, storeDateTime(timeZone)), [timeZone]);
  const events = useMemo<EventInput[]>(
    () =>
      sessions.map((s) => ({
        id: String(s.id),
        start: s.fromTime.replace(' ', 'T'),
        end: s.toTime.replace(' ', 'T'),
        backgroundColor: s.lesson ? LESSON_BG : s.realCount > 0 ? BOOKED_BG : FREE_BG,
        borderColor: s.color || '#1677ff',
        textColor: '#262626',
        extendedProps: { session: s },
      })),
    [sessions],
  );
  // Fixed for the life of the view: a new value on every render would make FullCalendar re-render all.
  const [now] = useState(() => storeDateTime(timeZone).replace(' ', 'T'));
  const [slotMin, slotMax] = useMemo(() => slotRange(sessions), [sessions]);
  // The calendar scrolls inside its own box (the toolbar stays in view) and opens each range at
  // now or at its first class, once per range.
  const ref = useRef<FullCalendar>(null);
  // 列表 (the week as a list) is fetched when first asked for: most days nobody opens it, and its
  // plugin was 4 KB of the first load. Until then its button is a stand-in of the same name.
  const [listPlugin, setListPlugin] = useState<PluginDef | null>(null);
  const plugins = useMemo(
    () => (listPlugin ? [dayGridPlugin, timeGridPlugin, listPlugin] : [dayGridPlugin, timeGridPlugin]),
    [listPlugin],
  );
  const customButtons = useMemo(
    () =>
      listPlugin
        ? undefined
        : {
            listWeek: {
              text: '列表',
              click: () => void import('@fullcalendar/list').then((m) => setListPlugin(m.default)),
            },
          },
    [listPlugin],
  );
  useEffect(() => {
    if (listPlugin) ref.current?.getApi().changeView('listWeek');
  }, [listPlugin]);
  const shown = useRef<{ from: string; to: string; done: boolean } | null>(null);
  const latest = useRef(sessions);
  latest.current = sessions;
  const zone = useRef(timeZone);
  zone.current = timeZone;
  const scrollOnce = () => {
    const r = shown.current;
    if (!r || r.done) return;
    const target = scrollTarget(r.from, r.to, latest.current, storeDateTime(zone.current));
    if (!target) return;
    r.done = true;
    ref.current?.getApi().scrollToTime(target);
  };
  useEffect(scrollOnce, [sessions]);
  const box = useRef<HTMLDivElement>(null);
  const onDates = (arg: DatesSetArg) => {
    // The toolbar's ‹ › are icon fonts FullCalendar marks role="img" without a text: the buttons
    // carry their names (上周 / 下周, the locale's hints), the icons are hidden from screen readers.
    requestAnimationFrame(() =>
      box.current?.querySelectorAll('.fc-button .fc-icon').forEach((icon) => icon.setAttribute('aria-hidden', 'true')),
    );
    const from = arg.startStr.slice(0, 10);
    const to = dayjs(arg.endStr.slice(0, 10)).subtract(1, 'day').format('YYYY-MM-DD');
    shown.current = { from, to, done: false };
    requestAnimationFrame(scrollOnce);
    onRange({ fromDate: from, toDate: to });
  };
  return (
    <div className="calendar-box" ref={box}>
      <FullCalendar
        ref={ref}
        plugins={plugins}
        customButtons={customButtons}
        locale={zhCn}
        firstDay={1}
        timeZone="UTC"
        now={now}
        initialView="timeGridWeek"
        initialDate={initialDate}
        headerToolbar={{
          left: 'prev,next today',
          center: 'title',
          right: 'timeGridDay,timeGridWeek,dayGridMonth,listWeek',
        }}
        buttonText={{ today: '今天', day: '日', week: '周', month: '月', list: '列表' }}
        titleFormat={titleText}
        allDaySlot={false}
        slotMinTime={slotMin}
        slotMaxTime={slotMax}
        slotDuration="00:30:00"
        expandRows
        height="100%"
        nowIndicator
        dayMaxEvents={4}
        eventDisplay="block"
        eventMinHeight={62}
        slotEventOverlap={false}
        eventTimeFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        slotLabelFormat={{ hour: '2-digit', minute: '2-digit', hour12: false }}
        events={events}
        eventContent={content}
        datesSet={onDates}
        // A month cell is named by its date (aria-labelledby) but also holds the classes' text, which
        // the name then leaves out (axe: label-content-name-mismatch): the cell goes by its content.
        dayCellDidMount={({ el }) => el.removeAttribute('aria-labelledby')}
        eventClick={(arg: EventClickArg) => {
          arg.jsEvent.preventDefault();
          onOpen(Number(arg.event.id));
        }}
        noEventsText="暂无课程"
      />
    </div>
  );
});
