import { Msg } from '@studio/contract';
import { DatePicker, Form, InputNumber, Modal, Switch, TimePicker } from 'antd';
import type { Dayjs } from 'dayjs';
import { call } from '../../../api/client.ts';
import { useStore } from '../../../api/profile.ts';
import { AreaSelect, CourseSelect, MaterialSelect, TeacherSelect, useCourseCount } from '../components/selects.tsx';
import { insertTimetable } from '../lib/calls.ts';
import { useAction } from '../lib/use-action.ts';
import type { ToolModalProps } from '../schedule-page.tsx';

interface Values {
  courseId?: number;
  teacherId?: number;
  date?: Dayjs;
  time?: Dayjs;
  reservableCount?: number;
  areaId?: number | null;
  bookId?: number | null;
  isOnline?: boolean;
}

const fill = Msg.fillAll;

/** Add one session; the capacity defaults to the course's count. */
export default function AddSessionModal({ onClose }: ToolModalProps) {
  const [form] = Form.useForm<Values>();
  const store = useStore();
  const courseCount = useCourseCount();
  const save = useAction(
    (v: Values) =>
      call(insertTimetable, {
        courseId: v.courseId!,
        teacherId: v.teacherId!,
        reservableCount: v.reservableCount!,
        date: v.date!.format('YYYY-MM-DD'),
        time: v.time!.format('HH:mm'),
        storeId: store.id,
        isOnline: v.isOnline ? 1 : 0,
        areaId: v.areaId ?? null,
        bookId: v.bookId ?? null,
      }),
    Msg.courseSaved,
  );
  const onOk = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (await save.run(v)) onClose();
  };
  return (
    <Modal
      open
      title="添加课程"
      okText="保存"
      cancelText="取消"
      confirmLoading={save.loading}
      onOk={onOk}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ isOnline: false }}>
        <Form.Item label="课程" name="courseId" rules={[{ required: true, message: fill }]}>
          <CourseSelect
            onChange={(id: number) => form.setFieldsValue({ courseId: id, reservableCount: courseCount(id) })}
          />
        </Form.Item>
        <Form.Item label="上课老师" name="teacherId" rules={[{ required: true, message: fill }]}>
          <TeacherSelect />
        </Form.Item>
        <Form.Item label="上课日期" name="date" rules={[{ required: true, message: fill }]}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="上课时间" name="time" rules={[{ required: true, message: fill }]}>
          <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          label="上课人数"
          name="reservableCount"
          rules={[
            { required: true, message: fill },
            { type: 'integer', message: fill },
            { type: 'number', min: 0, message: Msg.countNotNegative },
          ]}
        >
          <InputNumber min={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="场地" name="areaId">
          <AreaSelect />
        </Form.Item>
        <Form.Item label="教材" name="bookId">
          <MaterialSelect />
        </Form.Item>
        <Form.Item label="在线课程" name="isOnline" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
