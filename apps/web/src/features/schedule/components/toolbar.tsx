import {
  CalendarOutlined,
  CopyOutlined,
  DeleteOutlined,
  DownloadOutlined,
  PictureOutlined,
  PlusOutlined,
  ScheduleOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { Button, Space } from 'antd';
import { Link } from '../../../shared/router.tsx';
import type { ToolModal } from '../types.ts';

const buttons: { key: ToolModal; label: string; icon: React.ReactNode; danger?: boolean; primary?: boolean }[] = [
  { key: 'add', label: '添加课程', icon: <PlusOutlined />, primary: true },
  { key: 'week', label: '周课表排课', icon: <ScheduleOutlined /> },
  { key: 'copy', label: '复制课表', icon: <CopyOutlined /> },
  { key: 'batch', label: '批量排课', icon: <CalendarOutlined /> },
  { key: 'dropIn', label: '安插固定上课学员', icon: <UserAddOutlined /> },
  { key: 'batchDelete', label: '批量删除', icon: <DeleteOutlined />, danger: true },
  { key: 'export', label: '导出预约', icon: <DownloadOutlined /> },
  { key: 'picture', label: '生成周课表图片', icon: <PictureOutlined /> },
];

const links = [
  { to: '/card/list', label: '会员卡' },
  { to: '/course/list', label: '课程管理' },
  { to: '/course/edit/0', label: '新建课程' },
  { to: '/course_setting/course_setting', label: '预约设置' },
  { to: '/course/fix_booking_timetable', label: '周固定课表' },
];

/** The schedule's action buttons and links to the related screens. */
export function Toolbar({ onOpen }: { onOpen: (m: ToolModal) => void }) {
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, justifyContent: 'space-between' }}>
      <Space wrap size={8}>
        {buttons.map((b) => (
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
        {links.map((l) => (
          <Link key={l.to} to={l.to} style={{ padding: '0 6px' }}>
            {l.label}
          </Link>
        ))}
      </Space>
    </div>
  );
}
