import { Msg } from '@studio/contract';
import { App, DatePicker, Form, InputNumber, Modal, TimePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from '../../../app/dayjs.ts';
import { call } from '../../../api/client.ts';
import { AreaSelect, MaterialSelect, TeacherSelect } from '../components/selects.tsx';
import { updateTimetableCount, type SessionInfo } from '../lib/calls.ts';
import { useAction } from '../lib/use-action.ts';

interface Values {
  teacherId?: number;
  date?: Dayjs;
  time?: Dayjs;
  count?: number;
  areaId?: number | null;
  bookId?: number | null;
}

/** Edit a session's teacher, date, time, capacity, venue and material. */
export default function EditSessionModal({ session, onClose }: { session: SessionInfo; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const save = useAction(
    (v: Values) =>
      call(updateTimetableCount, {
        id: session.id,
        teacherId: v.teacherId!,
        date: v.date!.format('YYYY-MM-DD'),
        time: v.time!.format('HH:mm'),
        count: v.count!,
        areaId: v.areaId ?? null,
        bookId: v.bookId ?? null,
      }),
    Msg.sessionUpdated,
  );
  const onOk = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      void message.error(Msg.submitFailed);
      return;
    }
    if (await save.run(v)) onClose();
  };
  const start = dayjs(session.startTime);
  return (
    <Modal
      open
      title="编辑课程"
      okText="保存"
      cancelText="取消"
      confirmLoading={save.loading}
      onOk={onOk}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          teacherId: session.teacherId,
          date: start,
          time: start,
          count: session.reservableCount,
          areaId: session.areaId,
          bookId: session.bookId,
        }}
      >
        <Form.Item
          label="上课老师"
          name="teacherId"
          rules={[{ required: true, type: 'number', min: 1, message: Msg.chooseTeacher }]}
        >
          <TeacherSelect />
        </Form.Item>
        <Form.Item label="上课日期" name="date" rules={[{ required: true, message: Msg.chooseDate }]}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="上课时间" name="time" rules={[{ required: true, message: Msg.chooseTime }]}>
          <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          label="上课人数"
          name="count"
          rules={[{ required: true, type: 'number', min: 0, message: Msg.countNotNegative }]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="场地" name="areaId">
          <AreaSelect />
        </Form.Item>
        <Form.Item label="教材" name="bookId">
          <MaterialSelect />
        </Form.Item>
      </Form>
    </Modal>
  );
}
