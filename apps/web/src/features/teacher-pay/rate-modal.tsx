import { COMMISSION_RATE_MAX, TeacherPayMsg } from '@studio/contract';
import { Form, InputNumber } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { useSaveRate } from './hooks.ts';

/** 提成比例: a manager sets a staff member's commission percent. */
export default function RateModal({
  staff,
  onClose,
}: {
  staff: { staffId: number; name: string; rate: number };
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ rate: number }>();
  const save = useSaveRate();
  return (
    <FormModal
      title={`提成比例：${staff.name}`}
      form={form}
      loading={save.loading}
      submit={(v) => save.run(staff.staffId, v.rate)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ rate: staff.rate }}>
        <Form.Item
          label="提成比例（%）"
          name="rate"
          extra="按该员工当月售卡和充值的收款（减去其售出卡的退款）计算；已结算关闭的月份不受影响"
          rules={[{ required: true, message: TeacherPayMsg.rate }]}
        >
          <InputNumber min={0} max={COMMISSION_RATE_MAX} precision={2} suffix="%" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
