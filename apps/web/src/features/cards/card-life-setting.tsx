import { CardLifeMsg, COOLING_OFF_DAYS_DEFAULT, type CardLifeSetting } from '@studio/contract';
import { Button, Form, InputNumber, Radio, Spin } from 'antd';
import { useEffect } from 'react';
import { useCardLifeSetting, useSaveCardLifeSetting } from './life-hooks.ts';

/**
 * 退卡与请假设置 (the manager's): the cooling-off days within which an unopened card is refunded in
 * full (by the desk too), and whether members' leave requests the rules allow are approved at once
 * or wait for the desk (请假审批).
 */
export default function CardLifeSettingForm() {
  const q = useCardLifeSetting();
  const save = useSaveCardLifeSetting();
  const [form] = Form.useForm<CardLifeSetting>();
  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data);
  }, [q.data, form]);
  if (!q.data) return <Spin />;
  return (
    <Form<CardLifeSetting>
      form={form}
      layout="vertical"
      style={{ maxWidth: 520 }}
      initialValues={q.data}
      onFinish={(v) => void save.run(v)}
    >
      <Form.Item
        label="退卡冷静期"
        name="coolingOffDays"
        extra={`售卡次日起算（默认 ${COOLING_OFF_DAYS_DEFAULT} 天）：期内未上课、未请假、未转卡的卡全额退款，前台即可办理；之后按卡种的退卡手续费比例，由店长办理`}
        rules={[{ required: true, type: 'number', min: 0, max: 60, message: CardLifeMsg.coolingDays }]}
      >
        <InputNumber precision={0} min={0} max={60} suffix="天" style={{ width: 160 }} />
      </Form.Item>
      <Form.Item
        label="会员请假审批"
        name="leaveApproval"
        extra="符合卡种请假规则的会员申请：自动批准，或等待前台在「请假审批」中处理"
      >
        <Radio.Group
          options={[
            { value: 'auto', label: '自动批准' },
            { value: 'desk', label: '前台审批' },
          ]}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={save.loading}>
        保存
      </Button>
    </Form>
  );
}
