import { RightOutline } from 'antd-mobile-icons';
import { useLessonTypes } from './queries.ts';
import './lessons.css';

/** The entry on the timetable: shown when the store has lessons to book (the steps come when tapped). */
export function LessonEntry({ onOpen }: { onOpen: () => void }) {
  const { data: types } = useLessonTypes();
  if (!types?.length) return null;
  return (
    <button className="lesson-entry" data-testid="lesson-entry" onClick={onOpen}>
      <span>
        <b>约私教</b>
        <span className="sub">选课程、老师和时间，一对一或小班上课</span>
      </span>
      <RightOutline />
    </button>
  );
}
