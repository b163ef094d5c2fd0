import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Msg, WEEKDAY_NAMES } from '@studio/contract';
import { App, Button, Checkbox, DatePicker, Form, InputNumber, Modal, Select, Space, Switch, TimePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { CardPicker } from '../../../shared/pickers/card-picker.tsx';
import { MemberPicker } from '../../../shared/pickers/member-picker.tsx';
import { CourseSelect, useCourseCapacity } from '../../../shared/pickers/course-select.tsx';
import { TeacherSelect } from '../../../shared/pickers/teacher-select.tsx';
import { VenueSelect } from '../../../shared/pickers/venue-select.tsx';
import { useOnlineDefault } from '../../../shared/reference.ts';
import { useBatchArrange } from '../hooks/batch.ts';
import type { ToolModalProps } from '../types.ts';

interface StudentRow {
  key: number;
  memberId?: number;
  cardId?: number;
}

/** Monday first, as the calendar; values are JavaScript weekdays (0 = Sunday). */
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0];
let rowKey = 0;

/** Create sessions on ticked weekdays from a start date, with fixed students booked into each. */
export default function BatchArrangeModal({ onClose }: ToolModalProps) {
  const { message } = App.useApp();
  const capacityOf = useCourseCapacity();
  const [courseId, setCourseId] = useState<number>();
  const [students, setStudents] = useState<number | null>(null);
  const [teacherId, setTeacherId] = useState<number>();
  const [startDate, setStartDate] = useState<Dayjs | null>(null);
  const [venueId, setVenueId] = useState<number | null>(null);
  const [times, setTimes] = useState<Record<number, Dayjs | null>>({});
  const [ticked, setTicked] = useState<number[]>([]);
  const [arrangeTimes, setArrangeTimes] = useState<number | null>(null);
  // null: not switched by staff, the store's 新课程默认在线教室 (预约设置) applies.
  const [onlineChoice, setIsOnline] = useState<boolean | null>(null);
  const onlineDefault = useOnlineDefault();
  const isOnline = onlineChoice ?? onlineDefault ?? false;
  const [rows, setRows] = useState<StudentRow[]>([{ key: rowKey++ }]);

  const save = useBatchArrange();
  const fail = (m: string) => {
    void message.error(m);
    return false;
  };

  const addRow = () => {
    const i = rows.findIndex((r) => !r.memberId || !r.cardId);
    if (i >= 0) return fail(Msg.completeStudent(i + 1));
    if (rows.length >= (students ?? 0)) return fail(Msg.studentsCap);
    setRows([...rows, { key: rowKey++ }]);
    return true;
  };
  const setRow = (key: number, patch: Partial<StudentRow>) =>
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const onOk = async () => {
    if (!courseId) return fail(Msg.chooseCourse);
    if (!students) return fail(Msg.studentsNotZero);
    if (!teacherId) return fail(Msg.chooseTeacher);
    if (!startDate) return fail(Msg.chooseStartDate);
    if (!ticked.length) return fail(Msg.chooseWeekdays);
    if (!arrangeTimes) return fail(Msg.arrangeTimes);
    for (const d of WEEKDAYS) if (ticked.includes(d) && !times[d]) return fail(Msg.weekdayTime(WEEKDAY_NAMES[d]));
    const chosen = rows.filter((r) => r.memberId || r.cardId);
    const bad = rows.findIndex((r) => r.memberId && !r.cardId);
    if (bad >= 0) return fail(Msg.completeStudent(bad + 1));
    if (chosen.length > students) return fail(Msg.studentsCap);
    const ok = await save.run({
      courseId,
      teacherId,
      venueId,
      capacity: students,
      startDate: startDate.format('YYYY-MM-DD'),
      sessions: arrangeTimes,
      weekTimes: ticked.map((weekday) => ({ weekday, time: times[weekday]!.format('HH:mm') })),
      cardIds: chosen.map((r) => r.cardId!),
      online: isOnline,
    });
    if (ok) onClose();
    return ok;
  };

  return (
    <Modal
      open
      title="批量排课"
      okText="开始排课"
      cancelText="取消"
      width={720}
      confirmLoading={save.loading}
      onOk={() => void onOk()}
      onCancel={onClose}
      styles={{ body: { maxHeight: 'calc(100vh - 220px)', overflowY: 'auto' } }}
    >
      <Form layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 18 }}>
        <Form.Item label="课程" required>
          <CourseSelect
            value={courseId}
            onChange={(v: number) => {
              setCourseId(v);
              setStudents(capacityOf(v) ?? null);
              setRows([{ key: rowKey++ }]);
            }}
          />
        </Form.Item>
        <Form.Item label="上课人数" required>
          <InputNumber
            min={0}
            precision={0}
            value={students}
            onChange={setStudents}
            style={{ width: 160 }}
            aria-label="上课人数"
          />
        </Form.Item>
        <Form.Item label="上课老师" required>
          <TeacherSelect value={teacherId} onChange={setTeacherId} />
        </Form.Item>
        <Form.Item label="场地">
          <VenueSelect value={venueId} onChange={setVenueId} />
        </Form.Item>
        <Form.Item label="开课日期" required>
          <DatePicker value={startDate} onChange={setStartDate} />
        </Form.Item>
        <Form.Item label="每周规律" required>
          <Space direction="vertical" size={4}>
            {WEEKDAYS.map((d) => (
              <Space key={d}>
                <Checkbox
                  checked={ticked.includes(d)}
                  onChange={(e) => setTicked(e.target.checked ? [...ticked, d] : ticked.filter((x) => x !== d))}
                >
                  周{WEEKDAY_NAMES[d]}
                </Checkbox>
                <TimePicker
                  format="HH:mm"
                  minuteStep={5}
                  size="small"
                  placeholder="开课时间"
                  disabled={!ticked.includes(d)}
                  value={times[d] ?? null}
                  onChange={(t) => setTimes({ ...times, [d]: t })}
                />
              </Space>
            ))}
          </Space>
        </Form.Item>
        <Form.Item label="排课次数" required>
          <InputNumber
            min={0}
            precision={0}
            value={arrangeTimes}
            onChange={setArrangeTimes}
            addonAfter="节"
            aria-label="排课次数"
          />
        </Form.Item>
        <Form.Item label="在线课程">
          <Switch checked={isOnline} onChange={setIsOnline} aria-label="在线课程" />
        </Form.Item>
        <Form.Item label="固定学员">
          <Space direction="vertical" style={{ width: '100%' }}>
            {rows.map((r, i) => (
              <div key={r.key} style={{ display: 'flex', gap: 8, alignItems: 'flex-start' }}>
                <span style={{ lineHeight: '32px', whiteSpace: 'nowrap' }}>学生{i + 1}</span>
                <div style={{ width: 200, flex: 'none' }}>
                  {courseId ? (
                    <MemberPicker
                      value={r.memberId}
                      onChange={(id) => setRow(r.key, { memberId: id, cardId: undefined })}
                    />
                  ) : (
                    <Select
                      style={{ width: '100%' }}
                      placeholder={Msg.courseFirstThenStudent}
                      open={false}
                      onClick={() => void message.warning(Msg.courseFirst)}
                    />
                  )}
                </div>
                <div style={{ width: 200, flex: 'none' }}>
                  <CardPicker
                    memberId={r.memberId}
                    courseId={courseId}
                    value={r.cardId}
                    onChange={(v) => setRow(r.key, { cardId: v })}
                  />
                </div>
                <Button
                  icon={<DeleteOutlined />}
                  disabled={rows.length <= 1}
                  onClick={() => setRows(rows.filter((x) => x.key !== r.key))}
                />
              </div>
            ))}
            {!courseId && <span style={{ color: '#8c8c8c' }}>{Msg.courseFirstThenStudent}</span>}
            <Button icon={<PlusOutlined />} onClick={addRow} disabled={!courseId}>
              添加学生
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Modal>
  );
}
