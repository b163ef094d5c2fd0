import type { MemberIdentity } from '@studio/contract';
import { DotLoading, Tag } from 'antd-mobile';
import { useMemo, useState } from 'react';
import type { StoreInfo } from './api.ts';
import { addDays, hm, mineText, monthDay, mondayOf, phaseText, weekdayOf } from './format.ts';
import { useTimetable } from './queries.ts';
import { useStoreToday } from './store-clock.ts';
import { SessionSheet } from './session-sheet.tsx';

/** This week and next, by day: each class with its seats, and the member's state on it. */
export function Timetable({
  store,
  me,
  onLogin,
}: {
  store: StoreInfo;
  me: MemberIdentity | null;
  onLogin: () => void;
}) {
  const today = useStoreToday();
  const from = mondayOf(today);
  const to = addDays(from, 13);
  const { data: days, error } = useTimetable(store.storeId, me !== null, from, to);
  const [date, setDate] = useState(today);
  const [openId, setOpenId] = useState<number | null>(null);

  const day = useMemo(() => days?.find((d) => d.date === date), [days, date]);
  const open = day?.sessions.find((s) => s.id === openId) ?? null;

  // A failed first load says why; a failed refetch keeps the classes already shown.
  if (!days && error) return <div className="empty">{error.message}</div>;
  if (!days)
    return (
      <div className="empty">
        <DotLoading color="primary" />
      </div>
    );
  return (
    <>
      <div className="week-label">{date < addDays(from, 7) ? '本周' : '下周'}</div>
      <div className="days" role="tablist">
        {days.map((d) => (
          <button
            key={d.date}
            role="tab"
            aria-selected={d.date === date}
            className={d.date === date ? 'day active' : 'day'}
            data-testid={`day-${d.date}`}
            onClick={() => setDate(d.date)}
          >
            {d.date === today ? '今天' : weekdayOf(d.date)}
            <b>{monthDay(d.date)}</b>
          </button>
        ))}
      </div>
      <div className="cards">
        {!day?.sessions.length && <div className="empty">这天没有课程</div>}
        {day?.sessions.map((s) => {
          const mine = mineText(s);
          const closed = phaseText(s);
          const left = s.reservableCount - s.realCount;
          return (
            <button
              key={s.id}
              className={s.phase === 'ended' ? 'class-card ended' : 'class-card'}
              data-testid={`session-${s.id}`}
              onClick={() => setOpenId(s.id)}
            >
              <span className="bar" style={{ background: s.color }} />
              <span className="main">
                <span className="title">
                  {s.courseName}
                  {s.isOnline && (
                    <Tag color="primary" fill="outline">
                      线上
                    </Tag>
                  )}
                </span>
                <span className="meta" style={{ display: 'block' }}>
                  {hm(s.fromTime)}-{hm(s.toTime)} · {s.teacherName}
                  {s.areaName ? ` · ${s.areaName}` : ''}
                </span>
              </span>
              <span className="side">
                {mine ? (
                  <Tag color={mine.color}>{mine.text}</Tag>
                ) : closed ? (
                  <span className={`phase phase-${s.phase}`} data-testid="phase">
                    {closed}
                  </span>
                ) : left > 0 ? (
                  <span className="seats-left">余{left}位</span>
                ) : (
                  <span className="seats-full">已满{s.waitCount ? ` · 候补${s.waitCount}` : ''}</span>
                )}
                <span className="seats-count">
                  {s.realCount}/{s.reservableCount}
                </span>
              </span>
            </button>
          );
        })}
      </div>
      <SessionSheet
        store={store}
        session={open}
        signedIn={me !== null}
        onClose={() => setOpenId(null)}
        onLogin={onLogin}
      />
    </>
  );
}
