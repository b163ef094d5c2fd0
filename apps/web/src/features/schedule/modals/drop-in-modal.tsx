import {
  batchAddMemberReservation,
  Msg,
  queryHasArrangeCourseCount,
  queryHasArrangeCourseTeachers,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { App, Checkbox, DatePicker, Form, InputNumber, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { call } from '../../../api/client.ts';
import { CardPicker } from '../components/card-picker.tsx';
import { MemberPicker } from '../components/member-picker.tsx';
import { CourseSelect } from '../components/selects.tsx';
import { useAction } from '../lib/use-action.ts';
import type { ToolModalProps } from '../schedule-page.tsx';

/** Book one member card into the next N sessions of a course taught by the chosen teachers. */
export default function DropInModal({ onClose }: ToolModalProps) {
  const { message } = App.useApp();
  const [cid, setCid] = useState<number>();
  const [startDate, setStartDate] = useState<Dayjs | null>(null);
  const [memberId, setMemberId] = useState<number>();
  const [mcId, setMcId] = useState<number>();
  const [tids, setTids] = useState<number[]>([]);
  const [times, setTimes] = useState<number | null>(1);
  const date = startDate?.format('YYYY-MM-DD');

  const teachers = useQuery({
    queryKey: ['drop-in-teachers', cid, date],
    queryFn: () => call(queryHasArrangeCourseTeachers, { cid: cid!, startDate: date! }),
    enabled: !!cid && !!date,
  });
  const remaining = useQuery({
    queryKey: ['drop-in-count', cid, date, tids],
    queryFn: () => call(queryHasArrangeCourseCount, { cid: cid!, startDate: date!, tids }),
    enabled: !!cid && !!date && tids.length > 0,
  });

  const save = useAction(
    () => call(batchAddMemberReservation, { mcId: mcId!, cid: cid!, tids, startDate: date!, times: times! }),
    Msg.dropInAdded,
  );
  const onOk = async () => {
    const problem = !cid
      ? Msg.chooseCourse
      : !date
        ? Msg.chooseStartDate
        : !memberId
          ? Msg.chooseMember
          : !mcId
            ? Msg.fillAll
            : !times
              ? Msg.timesNotZero
              : !tids.length
                ? Msg.chooseTeachers
                : null;
    if (problem) {
      void message.error(problem);
      return;
    }
    if (await save.run()) onClose();
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
            value={cid}
            onChange={(v: number) => {
              setCid(v);
              setTids([]);
              setMcId(undefined);
            }}
          />
        </Form.Item>
        <Form.Item label="开始日期" required>
          <DatePicker
            value={startDate}
            onChange={(d) => {
              setStartDate(d);
              setTids([]);
            }}
          />
        </Form.Item>
        <Form.Item label="会员" required>
          <MemberPicker
            value={memberId}
            onChange={(id) => {
              setMemberId(id);
              setMcId(undefined);
            }}
          />
        </Form.Item>
        <Form.Item label="会员卡" required>
          <CardPicker mid={memberId} courseId={cid} value={mcId} onChange={setMcId} />
        </Form.Item>
        <Form.Item label="任课教师" required>
          {!cid || !date ? (
            <Typography.Text type="secondary">先选择课程和开始日期</Typography.Text>
          ) : teachers.data?.length === 0 ? (
            <Typography.Text type="secondary">该日期之后没有这门课程的排课</Typography.Text>
          ) : (
            <Checkbox.Group
              value={tids}
              onChange={(v) => setTids(v as number[])}
              options={(teachers.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            />
          )}
        </Form.Item>
        {tids.length > 0 && (
          <Form.Item label="剩余课程">
            <span data-testid="drop-in-remaining">{remaining.data ?? '…'} 节</span>
          </Form.Item>
        )}
        <Form.Item label="上课次数" required>
          <InputNumber min={0} precision={0} value={times} onChange={setTimes} addonAfter="次" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
