import { Msg, WEEK_ARRANGE_DEFAULT, WEEK_ARRANGE_MAX, WEEK_ARRANGE_MIN } from '@studio/contract';
import { App, DatePicker, Form, InputNumber, Modal, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { Link } from '../../../shared/router.tsx';
import { useWeekArrange } from '../hooks/batch.ts';
import type { ToolModalProps } from '../types.ts';

interface Values {
  fromDate?: Dayjs;
  weeks?: number | null;
}

/** Instantiate the weekly template from a Monday for 1-200 weeks. */
export default function WeekArrangeModal({ onClose }: ToolModalProps) {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const arrange = useWeekArrange();

  const onOk = async () => {
    if (arrange.busy()) {
      void message.warning(Msg.duplicateOp);
      return;
    }
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    if (await arrange.run(v.fromDate!.format('YYYY-MM-DD'), v.weeks!)) onClose();
  };

  return (
    <Modal
      open
      title="周课表排课"
      okText="开始排课"
      cancelText="取消"
      confirmLoading={arrange.loading}
      onOk={onOk}
      onCancel={onClose}
    >
      <Typography.Paragraph type="secondary">
        按 <Link to="/course/fix_booking_timetable">周固定课表</Link> 从所选周一开始循环排课，并为固定学员预约。
      </Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" initialValues={{ weeks: WEEK_ARRANGE_DEFAULT }}>
        <Form.Item
          label="开课日期（周一）"
          name="fromDate"
          rules={[
            { required: true, message: Msg.weekStartMonday },
            {
              validator: (_, d?: Dayjs) =>
                !d || d.day() === 1 ? Promise.resolve() : Promise.reject(new Error(Msg.weekStartMonday)),
            },
          ]}
        >
          <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.day() !== 1} />
        </Form.Item>
        <Form.Item
          label="循环周数"
          name="weeks"
          rules={[
            { required: true, message: Msg.weeksMin1 },
            { type: 'number', min: WEEK_ARRANGE_MIN, message: Msg.weeksMin1 },
            { type: 'number', max: WEEK_ARRANGE_MAX, message: Msg.weeksMax200 },
          ]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} addonAfter="周" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
