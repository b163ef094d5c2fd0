import {
  CalendarOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  FieldTimeOutlined,
  PictureOutlined,
  PlusOutlined,
  ScheduleOutlined,
  UserAddOutlined,
  UserOutlined,
} from '@ant-design/icons';
import {
  batchAddMemberReservation,
  batchArrangeCourse,
  batchArrangeWeekCourse,
  batchCancelTimetable,
  batchExportReservation,
  bookLesson,
  bookLessonSeries,
  cardProductList,
  copyTimetable,
  insertStoreCourse,
  insertTimetable,
  queryFixTimetableList,
  sendTimetablePicture,
  storeCourseList,
  updateBookingSetting,
  type CallDef,
} from '@studio/contract';
import { Button, Space } from 'antd';
import { useRole, roleCan } from '../../../shared/profile.ts';
import { Link } from '../../../shared/router.tsx';
import type { ToolModal } from '../types.ts';

type Gate = Pick<CallDef, 'roles'>;

/** Each button with the call it makes: shown only to the roles that may make it. */
const buttons: {
  key: ToolModal;
  label: string;
  icon: React.ReactNode;
  call: Gate;
  danger?: boolean;
  primary?: boolean;
}[] = [
  { key: 'add', label: '添加课程', icon: <PlusOutlined />, call: insertTimetable, primary: true },
  { key: 'lesson', label: '约私教', icon: <UserOutlined />, call: bookLesson },
  { key: 'week', label: '周课表排课', icon: <ScheduleOutlined />, call: batchArrangeWeekCourse },
  { key: 'copy', label: '复制课表', icon: <CopyOutlined />, call: copyTimetable },
  { key: 'batch', label: '批量排课', icon: <CalendarOutlined />, call: batchArrangeCourse },
  { key: 'dropIn', label: '安插固定上课学员', icon: <UserAddOutlined />, call: batchAddMemberReservation },
  { key: 'batchDelete', label: '批量删除', icon: <DeleteOutlined />, call: batchCancelTimetable, danger: true },
  { key: 'export', label: '导出预约', icon: <DownloadOutlined />, call: batchExportReservation },
  { key: 'picture', label: '生成周课表图片', icon: <PictureOutlined />, call: sendTimetablePicture },
  { key: 'lessonSeries', label: '固定时段私教', icon: <FieldTimeOutlined />, call: bookLessonSeries },
];

/** Links to the related screens, each with the call its screen needs. */
const links: { to: string; label: string; call: Gate }[] = [
  { to: '/card/list', label: '会员卡', call: cardProductList },
  { to: '/course/list', label: '课程管理', call: storeCourseList },
  { to: '/course/edit/0', label: '新建课程', call: insertStoreCourse },
  { to: '/course_setting/course_setting', label: '预约设置', call: updateBookingSetting },
  { to: '/course/fix_booking_timetable', label: '周固定课表', call: queryFixTimetableList },
];

/** The schedule's action buttons and links to the related screens (those of the staff member's role). */
export function Toolbar({ onOpen }: { onOpen: (m: ToolModal) => void }) {
  const role = useRole();
  const shown = buttons.filter((b) => roleCan(role, b.call));
  const linked = links.filter((l) => roleCan(role, l.call));
  if (!shown.length && !linked.length) return null;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'space-between' }}>
      <Space wrap size={8}>
        {shown.map((b) => (
          <Button
            key={b.key}
            icon={b.icon}
            type={b.primary ? 'primary' : 'default'}
            danger={b.danger}
            onClick={() => onOpen(b.key)}
          >
            {b.label}
          </Button>
        ))}
      </Space>
      <Space wrap size={4}>
        {linked.map((l) => (
          <Link key={l.to} to={l.to} style={{ padding: '0 6px' }}>
            {l.label}
          </Link>
        ))}
      </Space>
    </div>
  );
}
