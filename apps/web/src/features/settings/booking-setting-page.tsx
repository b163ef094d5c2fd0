import { DEDUCT_AT_SIGN_IN, type BookingPolicy, type BookingSetting } from '@studio/contract';
import { Alert, App, Button, Card, Form, Radio, Skeleton, Switch, Typography, type FormInstance } from 'antd';
import { useState } from 'react';
import { deductModeText } from '../../shared/format.ts';
import { PolicyCard, type PolicyValues } from './policy-card.tsx';
import { useBookingSetting, useDeductionImpact, useSaveBookingSetting, type DeductionImpact } from './hooks.ts';
import { useBookingPolicy } from '../../shared/booking-policy.ts';
import { useSaveBookingPolicy } from './policy-hooks.ts';

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

const MODE_NAME = { 0: '预约即扣费', 1: '签到后扣费' } as const;

/**
 * What a switch to `to` leaves as it is, named with its numbers: bookings and pendings of classes
 * from today on, each with its way forward (a booking paid when made is marked 到店; a pending is
 * signed in, charged then, or cancelled), and what new bookings do.
 */
function ImpactText({ to, impact }: { to: 0 | 1; impact: DeductionImpact }) {
  const { reservations: n, pendings: m } = impact;
  return (
    <div data-testid="mode-switch-impact">
      <Typography.Paragraph strong style={{ marginBottom: 8 }}>
        今天及以后 {n} 个已预约、{m} 个待签到
      </Typography.Paragraph>
      <ul style={{ paddingInlineStart: 20, margin: 0 }}>
        <li>{n} 个已预约：已扣过费，切换后不再扣费，也不退回；会员到店时在“今日”或课程详情中点“到店”。</li>
        <li>{m} 个待签到：保持不变，到店时照常“签到”（签到时扣费），取消不扣费。</li>
        <li>
          {to === DEDUCT_AT_SIGN_IN ? '切换后新的预约不扣卡，会员签到时扣费。' : '切换后新的预约在预约时直接扣卡。'}
        </li>
      </ul>
    </div>
  );
}

/**
 * Saves what changed: the policy, then the setting. A deduction-mode switch first asks, naming what
 * it leaves as it is (the server's counts), and is then saved confirmed (`confirmPending`).
 */
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
  // The toast says what was saved (a mode switch names the new mode).
  const save = useSaveBookingSetting((e) => void message.error(e.message), null);
  const impact = useDeductionImpact(false);
  const [asking, setAsking] = useState(false);
  const saveAll = async (v: Values, p: PolicyValues, policyChanged: boolean, settingChanged: boolean) => {
    // The policy's save says 操作成功 itself.
    if (policyChanged && !(await savePolicy.run(p))) return;
    if (!settingChanged) return;
    const switched = v.deductionMode !== setting.deductionMode;
    const r = await save.run({
      deductionMode: v.deductionMode,
      onlineDefault: v.onlineDefault ? 1 : 0,
      // 门店名称 and 时区 are edited in 门店设置; this call saves them too, unchanged.
      timezone: setting.timezone,
      storeName: setting.storeName,
      ...(switched ? { confirmPending: 1 as const } : {}),
    });
    if (r && switched) void message.success(r.data.notice ?? `已切换为${MODE_NAME[v.deductionMode]}`);
    else if (r && !policyChanged) void message.success('操作成功');
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
    if (v.deductionMode === setting.deductionMode) {
      await saveAll(v, p, policyChanged, settingChanged);
      return;
    }
    setAsking(true);
    const counts = await impact.fresh().catch(() => null);
    setAsking(false);
    if (!counts) return;
    modal.confirm({
      title: `切换扣费模式：${MODE_NAME[v.deductionMode]}`,
      width: 520,
      content: <ImpactText to={v.deductionMode} impact={counts} />,
      okText: '确认切换',
      cancelText: '取消',
      onOk: () => saveAll(v, p, policyChanged, settingChanged),
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
      <Button type="primary" loading={asking || save.loading || savePolicy.loading} onClick={() => void onSave()}>
        保存
      </Button>
    </div>
  );
}

function SettingForm({ setting, form }: { setting: BookingSetting; form: FormInstance<Values> }) {
  const mode = Form.useWatch('deductionMode', form) ?? setting.deductionMode;
  const switching = mode !== setting.deductionMode;
  const impact = useDeductionImpact(switching);
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
        {setting.pendingWaiting > 0 && mode === setting.deductionMode && (
          <Form.Item wrapperCol={{ offset: 4, span: 14 }}>
            <Alert type="warning" showIcon message={`当前有 ${setting.pendingWaiting} 个待签到预约`} />
          </Form.Item>
        )}
        {switching && (
          <Form.Item wrapperCol={{ offset: 4, span: 14 }}>
            <Alert
              type="warning"
              showIcon
              data-testid="mode-switch-alert"
              message={`切换为${MODE_NAME[mode as 0 | 1]}（保存时确认）`}
              description={
                impact.data ? <ImpactText to={mode as 0 | 1} impact={impact.data} /> : '正在统计受影响的预约…'
              }
            />
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
