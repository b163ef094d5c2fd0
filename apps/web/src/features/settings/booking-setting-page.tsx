import { DEDUCT_AT_SIGN_IN, type BookingPolicy, type BookingSetting } from '@studio/contract';
import { Alert, App, Button, Card, Form, Radio, Skeleton, Switch, type FormInstance } from 'antd';
import { ApiError } from '../../api/client.ts';
import { deductModeText } from '../../shared/format.ts';
import { PolicyCard, type PolicyValues } from './policy-card.tsx';
import { useBookingSetting, useSaveBookingSetting, type BookingSettingFields } from './hooks.ts';
import { useBookingPolicy, useSaveBookingPolicy } from './policy-hooks.ts';

interface Values {
  deductionMode: 0 | 1;
  onlineDefault: boolean;
}

/**
 * /course_setting/course_setting: deduction mode, online default and the booking policy, saved by
 * one 保存 at the foot of the page (what changed of each).
 */
export default function BookingSettingPage() {
  const q = useBookingSetting();
  const policy = useBookingPolicy();
  const [settingForm] = Form.useForm<Values>();
  const [policyForm] = Form.useForm<PolicyValues>();
  if (!q.data || !policy.data) {
    return (
      <Card title="预约设置">
        <Skeleton active />
      </Card>
    );
  }
  return (
    <>
      <SettingForm setting={q.data} form={settingForm} />
      <PolicyCard policy={policy.data} form={policyForm} />
      <SaveButton setting={q.data} policy={policy.data} settingForm={settingForm} policyForm={policyForm} />
    </>
  );
}

/** Saves what changed: the policy, then the setting (a mode switch with pendings asks to confirm first). */
function SaveButton({
  setting,
  policy,
  settingForm,
  policyForm,
}: {
  setting: BookingSetting;
  policy: BookingPolicy;
  settingForm: FormInstance<Values>;
  policyForm: FormInstance<PolicyValues>;
}) {
  const { message, modal } = App.useApp();
  const savePolicy = useSaveBookingPolicy();
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
  const onSave = async () => {
    const [v, p] = await Promise.all([
      settingForm.validateFields().catch(() => null),
      policyForm.validateFields().catch(() => null),
    ]);
    if (!v || !p) return;
    const onlineDefault = v.onlineDefault ? 1 : 0;
    const settingChanged = v.deductionMode !== setting.deductionMode || onlineDefault !== setting.onlineDefault;
    const policyChanged = (Object.keys(p) as (keyof PolicyValues)[]).some((k) => p[k] !== policy[k]);
    if (!settingChanged && !policyChanged) {
      void message.info('没有需要保存的修改');
      return;
    }
    if (policyChanged && !(await savePolicy.run(p))) return;
    if (settingChanged)
      await send({
        deductionMode: v.deductionMode,
        onlineDefault,
        // 门店名称 and 时区 are edited in 门店设置; this call saves them too, unchanged.
        timezone: setting.timezone,
        storeName: setting.storeName,
      });
  };
  return (
    // Kept in sight at the foot of the screen: one save for the whole page.
    <div
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 2,
        marginTop: 16,
        padding: '12px 24px',
        background: '#fff',
        borderTop: '1px solid #f0f0f0',
      }}
    >
      <Button type="primary" loading={save.loading || savePolicy.loading} onClick={() => void onSave()}>
        保存
      </Button>
    </div>
  );
}

function SettingForm({ setting, form }: { setting: BookingSetting; form: FormInstance<Values> }) {
  const mode = Form.useWatch('deductionMode', form) ?? setting.deductionMode;
  return (
    <Card title="预约设置">
      <Form<Values>
        form={form}
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 14 }}
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
      </Form>
    </Card>
  );
}
