import { COMMISSION_RATE_MAX, TeacherPayMsg } from '@studio/contract';
import { Form, InputNumber } from 'antd';
import { FormModal } from '../../shared/form-modal.tsx';
import { toFen } from '../../shared/format.ts';
import { useSaveRate } from './hooks.ts';

/** 提成比例: a manager sets a staff member's commission percent and what each lead of theirs converted pays. */
export default function RateModal({
  staff,
  onClose,
}: {
  staff: { staffId: number; name: string; rate: number; perConversion: number };
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ rate: number; perConversion: number }>();
  const save = useSaveRate();
  return (
    <FormModal
      title={`提成比例：${staff.name}`}
      form={form}
      loading={save.loading}
      submit={(v) => save.run(staff.staffId, v.rate, toFen(v.perConversion ?? 0))}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ rate: staff.rate, perConversion: staff.perConversion / 100 }}
      >
        <Form.Item
          label="提成比例（%）"
          name="rate"
          extra="按该员工当月售卡和充值的收款（减去其售出卡的退款）计算；已结算关闭的月份不受影响"
          rules={[{ required: true, message: TeacherPayMsg.rate }]}
        >
          <InputNumber min={0} max={COMMISSION_RATE_MAX} precision={2} suffix="%" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          label="每成交一位潜客（元）"
          name="perConversion"
          extra="该员工跟进的潜客办卡成交（已成交）一次，当月计一次；0 为不按成交计提成"
          rules={[{ required: true, message: TeacherPayMsg.perConversion }]}
        >
          <InputNumber min={0} max={100_000} precision={2} suffix="元" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
