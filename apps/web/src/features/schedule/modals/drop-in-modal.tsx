import { Msg } from '@studio/contract';
import { App, Checkbox, DatePicker, Form, InputNumber, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { CardPicker } from '../../../shared/pickers/card-picker.tsx';
import { MemberPicker } from '../../../shared/pickers/member-picker.tsx';
import { CourseSelect } from '../../../shared/pickers/course-select.tsx';
import { useDropIn, useDropInCount, useDropInTeachers } from '../hooks/batch.ts';
import type { ToolModalProps } from '../types.ts';

/** Book one member card into the next N sessions of a course taught by the chosen teachers. */
export default function DropInModal({ onClose }: ToolModalProps) {
  const { message } = App.useApp();
  const [courseId, setCourseId] = useState<number>();
  const [startDate, setStartDate] = useState<Dayjs | null>(null);
  const [memberId, setMemberId] = useState<number>();
  const [cardId, setCardId] = useState<number>();
  const [teacherIds, setTeacherIds] = useState<number[]>([]);
  const [times, setTimes] = useState<number | null>(1);
  const date = startDate?.format('YYYY-MM-DD');

  const teachers = useDropInTeachers(courseId, date);
  const remaining = useDropInCount(courseId, date, teacherIds);
  const save = useDropIn();
  const onOk = async () => {
    const problem = !courseId
      ? Msg.chooseCourse
      : !date
        ? Msg.chooseStartDate
        : !memberId
          ? Msg.chooseMember
          : !cardId
            ? Msg.fillAll
            : !times
              ? Msg.timesNotZero
              : !teacherIds.length
                ? Msg.chooseTeachers
                : null;
    if (problem) {
      void message.error(problem);
      return;
    }
    const added = await save.run({
      cardId: cardId!,
      courseId: courseId!,
      teacherIds,
      startDate: date!,
      times: times!,
    });
    if (added) onClose();
  };

  return (
    <Modal
      open
      title="安插固定上课学员"
      okText="确定"
      cancelText="取消"
      width={600}
      confirmLoading={save.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Form layout="horizontal" labelCol={{ span: 5 }} wrapperCol={{ span: 18 }}>
        <Form.Item label="课程" required>
          <CourseSelect
            value={courseId}
            onChange={(v: number) => {
              setCourseId(v);
              setTeacherIds([]);
              setCardId(undefined);
            }}
          />
        </Form.Item>
        <Form.Item label="开始日期" required>
          <DatePicker
            value={startDate}
            onChange={(d) => {
              setStartDate(d);
              setTeacherIds([]);
            }}
          />
        </Form.Item>
        <Form.Item label="会员" required>
          <MemberPicker
            value={memberId}
            onChange={(id) => {
              setMemberId(id);
              setCardId(undefined);
            }}
          />
        </Form.Item>
        <Form.Item label="会员卡" required>
          <CardPicker memberId={memberId} courseId={courseId} value={cardId} onChange={setCardId} />
        </Form.Item>
        <Form.Item label="任课教师" required>
          {!courseId || !date ? (
            <Typography.Text type="secondary">先选择课程和开始日期</Typography.Text>
          ) : teachers.data?.length === 0 ? (
            <Typography.Text type="secondary">该日期之后没有这门课程的排课</Typography.Text>
          ) : (
            <Checkbox.Group
              value={teacherIds}
              onChange={(v) => setTeacherIds(v as number[])}
              options={(teachers.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            />
          )}
        </Form.Item>
        {teacherIds.length > 0 && (
          <Form.Item label="剩余课程">
            <span data-testid="drop-in-remaining">{remaining.data ?? '…'} 节</span>
          </Form.Item>
        )}
        <Form.Item label="上课次数" required htmlFor="drop-in-times">
          <InputNumber id="drop-in-times" min={0} precision={0} value={times} onChange={setTimes} addonAfter="次" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
