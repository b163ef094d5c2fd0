import { CopyOutlined, DeleteOutlined, PlusOutlined, ScheduleOutlined } from '@ant-design/icons';
import { WEEKDAY_NAMES } from '@studio/contract';
import { Button, Card, Empty, Popconfirm, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { WeekArrangeModal } from '../schedule/index.ts';
import FromWeekModal from './from-week-modal.tsx';
import TemplateRowModal from './template-row-modal.tsx';
import { useDeleteTemplateRow, useWeeklyTemplate, type TemplateRow } from './hooks.ts';
import './weekly-template.css';

/** Monday first; weekday numbers are JavaScript's (0 = Sunday). */
const WEEK = [1, 2, 3, 4, 5, 6, 0];

type Editing = { row: TemplateRow | null; weekday: number };

/** /course/fix_booking_timetable: the weekly template (Monday to Sunday) and its fixed students. */
export default function WeeklyTemplatePage() {
  const q = useWeeklyTemplate();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [arranging, setArranging] = useState(false);
  const [fromWeek, setFromWeek] = useState(false);
  const del = useDeleteTemplateRow();
  const rows = q.data ?? [];

  return (
    <Card
      title={<Space>周固定课表 {q.isFetching && <Spin size="small" />}</Space>}
      extra={
        <Space>
          <Button icon={<CopyOutlined />} onClick={() => setFromWeek(true)}>
            从课表生成
          </Button>
          <Button icon={<PlusOutlined />} onClick={() => setEditing({ row: null, weekday: 1 })}>
            添加课程
          </Button>
          <Button type="primary" icon={<ScheduleOutlined />} onClick={() => setArranging(true)} disabled={!rows.length}>
            周课表排课
          </Button>
        </Space>
      }
      styles={{ body: { padding: 12 } }}
    >
      <div className="fix-grid" data-testid="fix-grid">
        {WEEK.map((wd) => {
          const list = rows.filter((r) => r.weekday === wd).sort((a, b) => a.time.localeCompare(b.time));
          return (
            <div className="fix-day" key={wd} data-weekday={wd}>
              <div className="fix-day-head">
                <span>周{WEEKDAY_NAMES[wd]}</span>
                <Button
                  size="small"
                  type="text"
                  icon={<PlusOutlined />}
                  aria-label={`周${WEEKDAY_NAMES[wd]}添加课程`}
                  onClick={() => setEditing({ row: null, weekday: wd })}
                />
              </div>
              {list.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="无课程" />}
              {list.map((r) => {
                const seats = r.students.reduce((s, x) => s + x.studentCount, 0);
                return (
                  <div
                    className="fix-row"
                    key={r.id}
                    data-testid="fix-row"
                    onClick={() => setEditing({ row: r, weekday: wd })}
                  >
                    <div className="fix-row-top">
                      <Typography.Text strong>{r.time}</Typography.Text>
                      <Popconfirm
                        title="确定删除这节固定课吗？"
                        onConfirm={(e) => {
                          e?.stopPropagation();
                          void del.run(r.id);
                        }}
                        onCancel={(e) => e?.stopPropagation()}
                      >
                        <DeleteOutlined className="fix-del" onClick={(e) => e.stopPropagation()} />
                      </Popconfirm>
                    </div>
                    <div className="fix-course">{r.courseName}</div>
                    <div className="fix-meta">
                      {r.teacherName}
                      {r.areaName ? ` · ${r.areaName}` : ''}
                    </div>
                    <div className="fix-meta">
                      固定学员 {seats}/{r.reservableCount}
                    </div>
                    {r.students.map((s) => (
                      <Tag key={s.id} className="fix-student">
                        {s.memberName}
                        {s.studentCount > 1 ? ` ×${s.studentCount}` : ''}
                      </Tag>
                    ))}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
      {editing && <TemplateRowModal row={editing.row} weekday={editing.weekday} onClose={() => setEditing(null)} />}
      {arranging && <WeekArrangeModal onClose={() => setArranging(false)} />}
      {fromWeek && <FromWeekModal onClose={() => setFromWeek(false)} />}
    </Card>
  );
}
