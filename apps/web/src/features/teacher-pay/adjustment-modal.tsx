import { TeacherPayMsg } from '@studio/contract';
import { Form, Input, InputNumber } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { toFen } from '../../shared/format.ts';
import { TeacherSelect } from '../../shared/pickers/teacher-select.tsx';
import { useAddAdjustment } from './hooks.ts';

interface Values {
  teacherId: number;
  yuan: number;
  reason: string;
}

/** 添加调整: an amount added to (or, negative, taken from) a teacher's month, with its reason. */
export default function AdjustmentModal({
  month,
  teacherId,
  onClose,
}: {
  month: string;
  teacherId: number | null;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const add = useAddAdjustment();
  return (
    <FormModal
      title={`添加 ${month} 课时费调整`}
      okText="添加"
      form={form}
      loading={add.loading}
      submit={(v) => add.run({ teacherId: v.teacherId, month, amount: toFen(v.yuan), reason: v.reason.trim() })}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ teacherId: teacherId ?? undefined }}>
        <Form.Item label="老师" name="teacherId" rules={[{ required: true, message: TeacherPayMsg.chooseTeacher }]}>
          <TeacherSelect />
        </Form.Item>
        <Form.Item
          label="金额（元）"
          name="yuan"
          extra="正数为加发，负数为扣减"
          rules={[
            { required: true, message: TeacherPayMsg.adjustment },
            {
              validator: (_, v) => (v === 0 ? Promise.reject(new Error(TeacherPayMsg.adjustment)) : Promise.resolve()),
            },
          ]}
        >
          <InputNumber precision={2} min={-1_000_000} max={1_000_000} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          label="原因"
          name="reason"
          rules={[{ required: true, whitespace: true, message: TeacherPayMsg.reason }]}
        >
          <Input maxLength={200} placeholder="例如：代课交通补贴" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
