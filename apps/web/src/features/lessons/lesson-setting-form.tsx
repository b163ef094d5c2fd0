import { LessonBookingMsg, type LessonBookingSetting } from '@studio/contract';
import { Button, Form, InputNumber, Spin, Switch } from 'antd';
import { useEffect } from 'react';
import { useLessonSetting, useSaveLessonSetting } from './hooks.ts';

interface Values {
  teacherConfirms: boolean;
  confirmHours: number;
}

/**
 * 私教/小班 → 预约设置 (the manager's): whether a booked lesson waits for its teacher to confirm
 * (待确认), and how long before an unconfirmed one is released and its members told.
 */
export default function LessonSettingForm() {
  const q = useLessonSetting();
  const save = useSaveLessonSetting();
  const [form] = Form.useForm<Values>();
  const confirms = Form.useWatch('teacherConfirms', form);
  const initial = (s: LessonBookingSetting): Values => ({
    teacherConfirms: s.teacherConfirms === 1,
    confirmHours: s.confirmHours,
  });
  useEffect(() => {
    if (q.data) form.setFieldsValue(initial(q.data));
  }, [q.data, form]);
  if (!q.data) return <Spin />;
  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 520 }}
      initialValues={initial(q.data)}
      onFinish={(v) =>
        void save.run({
          teacherConfirms: v.teacherConfirms ? 1 : 0,
          confirmHours: v.confirmHours ?? q.data.confirmHours,
        })
      }
    >
      <Form.Item
        label="需老师确认"
        name="teacherConfirms"
        valuePropName="checked"
        extra="开启后，会员或前台约的私教课先是“待确认”，老师确认后才算约好；关闭则预约即确认"
      >
        <Switch />
      </Form.Item>
      {confirms && (
        <Form.Item
          label="确认时限"
          name="confirmHours"
          extra="超过时限老师仍未确认的预约将自动取消，并通知会员"
          rules={[{ required: true, type: 'number', min: 1, max: 72, message: LessonBookingMsg.confirmHours }]}
        >
          <InputNumber precision={0} suffix="小时" style={{ width: 160 }} />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" loading={save.loading}>
        保存
      </Button>
    </Form>
  );
}
