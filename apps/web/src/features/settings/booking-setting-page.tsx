import { DEDUCT_AT_SIGN_IN, type BookingSetting } from '@studio/contract';
import { Alert, App, Button, Card, Form, Radio, Skeleton, Switch } from 'antd';
import { ApiError } from '../../api/client.ts';
import { deductModeText } from '../../shared/format.ts';
import { PolicyCard } from './policy-card.tsx';
import { useBookingSetting, useSaveBookingSetting, type BookingSettingFields } from './hooks.ts';

interface Values {
  deductionMode: 0 | 1;
  onlineDefault: boolean;
}

/** /course_setting/course_setting: deduction mode, online default and the booking policy. */
export default function BookingSettingPage() {
  const q = useBookingSetting();
  if (q.isPending || !q.data) {
    return (
      <Card title="预约设置">
        <Skeleton active />
      </Card>
    );
  }
  return (
    <>
      <SettingForm setting={q.data} />
      <PolicyCard />
    </>
  );
}

function SettingForm({ setting }: { setting: BookingSetting }) {
  const [form] = Form.useForm<Values>();
  const { message, modal } = App.useApp();
  const mode = Form.useWatch('deductionMode', form) ?? setting.deductionMode;

  const save = useSaveBookingSetting((e, s) => {
    if (e instanceof ApiError && e.status === 409 && !s.confirmPending) {
      // Pending items wait for sign-in: the server explains; staff confirm to switch anyway.
      modal.confirm({
        title: '切换扣费模式',
        content: `${e.message}。仍要切换吗？已有的待签到预约将保持不变，签到时扣费，取消不扣费。`,
        okText: '确认切换',
        cancelText: '取消',
        onOk: () => send({ ...s, confirmPending: 1 }),
      });
    } else {
      void message.error(e.message);
    }
  });
  const send = async (s: BookingSettingFields) => {
    const r = await save.run(s);
    if (r?.data.notice) modal.info({ title: '待签到预约', content: r.data.notice });
  };
  const onFinish = (v: Values) =>
    send({
      deductionMode: v.deductionMode,
      onlineDefault: v.onlineDefault ? 1 : 0,
      // 门店名称 and 时区 are edited in 门店设置; this call saves them too, unchanged.
      timezone: setting.timezone,
      storeName: setting.storeName,
    });

  return (
    <Card title="预约设置">
      <Form<Values>
        form={form}
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
        onFinish={onFinish}
        initialValues={{
          deductionMode: setting.deductionMode as 0 | 1,
          onlineDefault: setting.onlineDefault === 1,
        }}
      >
        <Form.Item label={`扣费模式`} name="deductionMode" extra={deductModeText(mode === DEDUCT_AT_SIGN_IN)}>
          <Radio.Group
            options={[
              { value: 0, label: '预约即扣费' },
              { value: 1, label: '签到后扣费' },
            ]}
          />
        </Form.Item>
        {setting.pendingWaiting > 0 && (
          <Form.Item wrapperCol={{ offset: 4, span: 14 }}>
            <Alert type="warning" showIcon message={`当前有 ${setting.pendingWaiting} 个待签到预约`} />
          </Form.Item>
        )}
        <Form.Item
          label="新课程默认在线教室"
          name="onlineDefault"
          valuePropName="checked"
          extra="开启后，添加课程和批量排课默认是在线课程（有人预约时自动创建在线教室）"
        >
          <Switch />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Button type="primary" htmlType="submit" loading={save.loading}>
            保存
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}
