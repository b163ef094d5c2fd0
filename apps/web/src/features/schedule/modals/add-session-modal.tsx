import { Msg } from '@studio/contract';
import { Form, Switch } from 'antd';
import { useEffect } from 'react';
import { CourseSelect, useCourseCapacity } from '../../../shared/pickers/course-select.tsx';
import { FormModal } from '../../../shared/form-modal.tsx';
import { useOnlineDefault } from '../../../shared/reference.ts';
import { SessionFormItems, sessionFields, type SessionFormValues } from '../components/session-fields.tsx';
import { useAddSession } from '../hooks/session.ts';
import type { ToolModalProps } from '../types.ts';

interface Values extends SessionFormValues {
  courseId?: number;
  online?: boolean;
}

const fill = Msg.fillAll;

/** Add one session; the capacity defaults to the course's count. */
export default function AddSessionModal({ onClose }: ToolModalProps) {
  const [form] = Form.useForm<Values>();
  const capacityOf = useCourseCapacity();
  const save = useAddSession();
  // Starts from the store's 新课程默认在线教室 (预约设置), unless staff already switched it.
  const online = useOnlineDefault();
  useEffect(() => {
    if (online !== undefined && !form.isFieldTouched('online')) form.setFieldValue('online', online);
  }, [online, form]);
  return (
    <FormModal
      title="添加课程"
      cancelText="取消"
      destroyOnHidden
      form={form}
      loading={save.loading}
      submit={(v) => save.run({ ...sessionFields(v), courseId: v.courseId!, online: !!v.online })}
      onCancel={onClose}
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ online: false }}>
        <Form.Item label="课程" name="courseId" rules={[{ required: true, message: fill }]}>
          <CourseSelect onChange={(id: number) => form.setFieldsValue({ courseId: id, capacity: capacityOf(id) })} />
        </Form.Item>
        <SessionFormItems
          rules={{
            teacher: [{ required: true, message: fill }],
            date: [{ required: true, message: fill }],
            time: [{ required: true, message: fill }],
            capacity: [
              { required: true, message: fill },
              { type: 'integer', message: fill },
              { type: 'number', min: 0, message: Msg.countNotNegative },
            ],
          }}
          capacityInput={{ min: 0 }}
        />
        <Form.Item label="在线课程" name="online" valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
