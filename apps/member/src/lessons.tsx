import {
  amountText,
  BIG_TYPE_MONEY,
  LESSON_KIND_LABEL,
  MEMBER_LESSON_DAYS,
  TEACHER_LEVEL_LABEL,
  type MemberLessonType,
  type OpenLesson,
} from '@studio/contract';
import { Button, DotLoading, Toast } from 'antd-mobile';
import { RightOutline } from 'antd-mobile-icons';
import { useMemo, useState } from 'react';
import { CardChoice } from './card-choice.tsx';
import { addDays, hm, monthDay, weekdayOf, whenText } from './format.ts';
import { useCardsForLesson, useLessonSlots, useLessonTypes, useOpenLessons } from './queries.ts';
import { useStoreToday } from './store-clock.ts';
import { SubHead } from './sub-head.tsx';
import { useBookLesson, useJoinLesson } from './writes.ts';
import './lessons.css';

type Teacher = MemberLessonType['teachers'][number];
/** A chosen teacher, or null: 任意老师 (whoever is free at the time picked). */
type TeacherPick = Teacher | null;
/**
 * A start picked: when, and the teacher who gives it then; `join`: a 小班 already booked at that
 * time (joined, not booked anew).
 */
type SlotPick = { startTime: string; endTime: string; teacher: Teacher; join?: OpenLesson };

/** 12小时, 90分钟, 2天: a cutoff in the member's words. */
export function minutesText(m: number): string {
  if (m > 0 && m % 1440 === 0) return `${m / 1440}天`;
  if (m > 0 && m % 60 === 0) return `${m / 60}小时`;
  return `${m}分钟`;
}

/** What one lesson costs a 储值卡 with the teacher (their level's price, else the type's one price), or null. */
function priceOf(type: MemberLessonType, teacher: Teacher | null): number | null {
  const p =
    type.prices.find((x) => teacher !== null && x.level === teacher.level) ?? type.prices.find((x) => x.level === null);
  return p ? p.price : null;
}

/** The cancel rule of a type, as the member reads it before booking. */
const cancelRule = (type: MemberLessonType) =>
  type.cancelCutoffMinutes > 0
    ? `开课前${minutesText(type.cancelCutoffMinutes)}以前可免费取消，之后取消不退回。`
    : '开课前可随时免费取消。';

/**
 * 约私教 (私教/小班): the member picks a lesson type, a teacher (or 任意老师), a day, a free start time
 * and the card that pays, then confirms. The times offered are the server's (teacher, room and
 * machines free, the notice met); its refusals are shown as it words them.
 */
export function LessonBooking({ onBack, onDone }: { onBack: () => void; onDone: () => void }) {
  const [type, setType] = useState<MemberLessonType | null>(null);
  const [teacher, setTeacher] = useState<TeacherPick | undefined>(undefined);
  const [slot, setSlot] = useState<SlotPick | null>(null);
  const today = useStoreToday();
  const [date, setDate] = useState(today);

  // One step back: the card → the time → the teacher → the type → out.
  const back = () => {
    if (slot) setSlot(null);
    else if (teacher !== undefined) setTeacher(undefined);
    else if (type) setType(null);
    else onBack();
  };
  const title = !type
    ? '约私教'
    : teacher === undefined
      ? '选择老师'
      : !slot
        ? '选择时间'
        : slot.join
          ? '加入小班'
          : '确认预约';

  return (
    <div className="lesson-flow" data-testid="lesson-flow">
      <SubHead title={title} onBack={back} backLabel="返回上一步" />
      {!type && <TypeStep onPick={setType} />}
      {type && teacher === undefined && <TeacherStep type={type} onPick={setTeacher} />}
      {type && teacher !== undefined && !slot && (
        <TimeStep type={type} teacher={teacher} date={date} onDate={setDate} onPick={setSlot} />
      )}
      {type && slot && <ConfirmStep type={type} slot={slot} onDone={onDone} />}
    </div>
  );
}

function TypeStep({ onPick }: { onPick: (t: MemberLessonType) => void }) {
  const { data: types } = useLessonTypes();
  if (!types)
    return (
      <div className="empty">
        <DotLoading color="primary" />
      </div>
    );
  if (!types.length) return <div className="empty">门店暂未开设私教课程</div>;
  return (
    <div className="cards">
      <div className="step-hint">选择课程</div>
      {types.map((t) => {
        const prices = t.prices.map((p) => p.price);
        return (
          <button key={t.id} className="class-card" data-testid={`lesson-type-${t.id}`} onClick={() => onPick(t)}>
            <span className="bar" style={{ background: t.color }} />
            <span className="main">
              <span className="title">{t.name}</span>
              <span className="meta">
                {LESSON_KIND_LABEL[t.kind]}
                {t.kind === 'small_group' ? `（最多${t.maxMembers}人）` : ''} · {t.duration}分钟
                {prices.length ? ` · ${amountText(BIG_TYPE_MONEY, Math.min(...prices))}起` : ''}
              </span>
              {t.description && <span className="meta">{t.description}</span>}
            </span>
            <RightOutline />
          </button>
        );
      })}
    </div>
  );
}

function TeacherStep({ type, onPick }: { type: MemberLessonType; onPick: (t: TeacherPick) => void }) {
  const line = (t: Teacher | null) => {
    const price = priceOf(type, t);
    return [
      t?.level ? TEACHER_LEVEL_LABEL[t.level] : null,
      price !== null ? `${amountText(BIG_TYPE_MONEY, price)}/节` : null,
    ]
      .filter(Boolean)
      .join(' · ');
  };
  return (
    <div className="cards">
      <div className="step-hint">
        {type.name}（{LESSON_KIND_LABEL[type.kind]}，{type.duration}分钟）
      </div>
      <button className="class-card" data-testid="teacher-any" onClick={() => onPick(null)}>
        <span className="main">
          <span className="title">任意老师</span>
          <span className="meta">看所有老师的空闲时间</span>
        </span>
        <RightOutline />
      </button>
      {type.teachers.map((t) => (
        <button
          key={t.teacherId}
          className="class-card"
          data-testid={`teacher-${t.teacherId}`}
          onClick={() => onPick(t)}
        >
          <span className="main">
            <span className="title">{t.name}</span>
            {line(t) && <span className="meta">{line(t)}</span>}
          </span>
          <RightOutline />
        </button>
      ))}
    </div>
  );
}

function TimeStep({
  type,
  teacher,
  date,
  onDate,
  onPick,
}: {
  type: MemberLessonType;
  teacher: TeacherPick;
  date: string;
  onDate: (d: string) => void;
  onPick: (s: SlotPick) => void;
}) {
  const today = useStoreToday();
  const days = Array.from({ length: MEMBER_LESSON_DAYS }, (_, i) => addDays(today, i));
  const { data, error } = useLessonSlots(type.id, teacher?.teacherId ?? null, date);
  const smallGroup = type.kind === 'small_group';
  const { data: open } = useOpenLessons(type.id, teacher?.teacherId ?? null, date, smallGroup);
  const who = (teacherId: number, name: string): Teacher =>
    type.teachers.find((x) => x.teacherId === teacherId) ?? { teacherId, name, level: null };
  // The day's starts in order; with 任意老师 each start goes to the first teacher free then.
  const starts = useMemo(() => {
    const byStart = new Map<string, SlotPick>();
    for (const t of data ?? []) {
      const teacher = type.teachers.find((x) => x.teacherId === t.teacherId) ?? {
        teacherId: t.teacherId,
        name: t.name,
        level: t.level,
      };
      for (const s of t.slots) if (!byStart.has(s.startTime)) byStart.set(s.startTime, { ...s, teacher });
    }
    return [...byStart.values()].sort((a, b) => a.startTime.localeCompare(b.startTime));
  }, [data, type]);

  return (
    <>
      <div className="step-hint pad">
        {type.name} · {teacher ? teacher.name : '任意老师'}
      </div>
      <div className="days" role="tablist" aria-label="选择日期">
        {days.map((d) => (
          <button
            key={d}
            role="tab"
            aria-selected={d === date}
            className={d === date ? 'day active' : 'day'}
            data-testid={`lesson-day-${d}`}
            onClick={() => onDate(d)}
          >
            {d === today ? '今天' : weekdayOf(d)}
            <b>{monthDay(d)}</b>
          </button>
        ))}
      </div>
      <div className="cards">
        {smallGroup && !!open?.length && (
          <>
            <div className="section">可加入的小班</div>
            <div role="list" aria-label="可加入的小班" className="open-lessons">
              {open.map((l) => (
                <button
                  key={l.id}
                  role="listitem"
                  className="class-card open-lesson"
                  data-testid={`open-lesson-${l.id}`}
                  onClick={() => onPick({ ...l, teacher: who(l.teacherId, l.teacherName), join: l })}
                >
                  <span className="main">
                    <span className="title">
                      {hm(l.startTime)}-{hm(l.endTime)}
                    </span>
                    <span className="meta">
                      老师：{l.teacherName} · 已约 {l.booked}/{l.maxMembers}
                      {l.pending ? ' · 待老师确认' : ''}
                    </span>
                  </span>
                  <span className="join">加入</span>
                </button>
              ))}
            </div>
            <div className="section">或约新的时间</div>
          </>
        )}
        {!data && !error && (
          <div className="empty">
            <DotLoading color="primary" />
          </div>
        )}
        {error && <div className="empty">{error.message}</div>}
        {data && !starts.length && <div className="empty">这天没有可约的时间，请换一天</div>}
        {starts.length > 0 && (
          <div className="slot-grid" role="list" aria-label="可约时间">
            {starts.map((s) => (
              <button
                key={s.startTime}
                role="listitem"
                className="slot"
                data-testid={`slot-${hm(s.startTime)}`}
                onClick={() => onPick(s)}
              >
                {hm(s.startTime)}
              </button>
            ))}
          </div>
        )}
        {starts.length > 0 && <div className="hint">每节{type.duration}分钟，点选开始时间</div>}
      </div>
    </>
  );
}

function ConfirmStep({ type, slot, onDone }: { type: MemberLessonType; slot: SlotPick; onDone: () => void }) {
  const { data: cards } = useCardsForLesson(type.id, slot.teacher.teacherId, slot.startTime);
  const [picked, setPicked] = useState<number | null>(null);
  const mcId = picked ?? cards?.find((c) => c.usable)?.id ?? null;
  const chosen = cards?.find((c) => c.id === mcId);
  const book = useBookLesson();
  const join = useJoinLesson();
  const busy = book.isPending || join.isPending;

  const confirm = async () => {
    try {
      const r = slot.join
        ? await join.mutateAsync({ id: slot.join.id, mcId: mcId! })
        : await book.mutateAsync({
            courseId: type.id,
            teacherId: slot.teacher.teacherId,
            date: slot.startTime.slice(0, 10),
            time: hm(slot.startTime),
            mcId: mcId!,
          });
      const done = slot.join ? '已加入小班' : '预约成功';
      Toast.show({
        icon: 'success',
        content: r.status === 'pending' ? '已提交，等待老师确认' : done,
        duration: 2500,
      });
      onDone();
    } catch (e) {
      Toast.show({ content: (e as Error).message, duration: 3000 });
    }
  };

  return (
    <div className="cards">
      <div className="booking" data-testid="lesson-summary">
        <div className="top">
          <span>{type.name}</span>
          <span className="meta">{LESSON_KIND_LABEL[type.kind]}</span>
        </div>
        <div className="meta">{whenText(slot.startTime, slot.endTime)}</div>
        <div className="meta">
          老师：{slot.teacher.name}
          {slot.teacher.level ? `（${TEACHER_LEVEL_LABEL[slot.teacher.level]}）` : ''}
        </div>
        {slot.join && (
          <div className="meta" data-testid="lesson-join-count">
            加入已开的小班 · 已约 {slot.join.booked}/{slot.join.maxMembers}
          </div>
        )}
      </div>
      <CardChoice cards={cards} chosen={mcId} onChoose={setPicked} />
      {cards && cards.length > 0 && !cards.some((c) => c.usable) && (
        <div className="hint">没有能用于这节课的会员卡，请到前台购买私教课包</div>
      )}
      {chosen && (
        <div className="hint" data-testid="lesson-cost">
          预约时扣除 {amountText(chosen.bigType, chosen.perCount)}。{cancelRule(type)}
        </div>
      )}
      <div className="actions">
        <Button block color="primary" size="large" loading={busy} disabled={!mcId} onClick={confirm}>
          {slot.join ? '确认加入' : '确认预约'}
        </Button>
      </div>
    </div>
  );
}
