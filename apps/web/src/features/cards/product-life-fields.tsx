import { CARD_ACTIVATION_NAMES, CARD_ACTIVATIONS, CardLifeProductMsg, MAX_SHARE } from '@studio/contract';
import { DatePicker, Divider, Form, InputNumber, Radio, Space, Switch } from 'antd';

/** A limit field: a whole number, empty for 不限. */
function LimitField({ label, name, max, suffix }: { label: string; name: string; max: number; suffix: string }) {
  return (
    <Form.Item
      label={label}
      name={name}
      rules={[{ type: 'number', min: 1, max, message: `${label}应在1到${max}之间` }]}
    >
      <InputNumber precision={0} min={1} max={max} style={{ width: 150 }} suffix={suffix} placeholder="不限" />
    </Form.Item>
  );
}

/**
 * A product's card life (issue 29): how its cards start (开卡方式), leave (请假), classes per day and
 * week (每日上限 / 每周上限), and the refund fee after the cooling-off days (退卡手续费比例).
 */
export function ProductLifeFields({ expires }: { expires: boolean }) {
  const form = Form.useFormInstance();
  const activation = (Form.useWatch('activation', form) as string | undefined) ?? 'sale';
  const leaveAllowed = Boolean(Form.useWatch('leaveAllowed', form));
  return (
    <>
      {expires && (
        <>
          <Divider titlePlacement="start" plain>
            开卡与请假
          </Divider>
          <Form.Item label="开卡方式" name="activation" extra="有效期从开卡之日起算（有效天数 + 请假天数）">
            <Radio.Group options={CARD_ACTIVATIONS.map((value) => ({ value, label: CARD_ACTIVATION_NAMES[value] }))} />
          </Form.Item>
          {activation === 'first_class' && (
            <Form.Item
              label="最晚开卡天数"
              name="activateWithinDays"
              extra="售卡后这么多天内未上课，也自动开卡"
              rules={[
                { required: true, type: 'number', min: 1, max: 3650, message: CardLifeProductMsg.activateWithin },
              ]}
            >
              <InputNumber precision={0} style={{ width: 200 }} suffix="天" />
            </Form.Item>
          )}
          {activation === 'date' && (
            <Form.Item
              label="开卡日期"
              name="activationDate"
              rules={[{ required: true, message: CardLifeProductMsg.activationDate }]}
            >
              <DatePicker style={{ width: 200 }} />
            </Form.Item>
          )}
          {activation === 'date' && (
            <Form.Item
              label="过期后售出"
              name="lateSaleStartsToday"
              valuePropName="checked"
              extra="开卡日期已过时，售出当天开卡（仍可线上售卖）；不开启则开卡日期过后不在线上售卖"
            >
              <Switch data-testid="late-sale-starts-today" />
            </Form.Item>
          )}
          <Form.Item label="允许请假" name="leaveAllowed" valuePropName="checked" extra="请假期间不能预约，有效期顺延">
            <Switch />
          </Form.Item>
          {leaveAllowed && (
            <Space size="middle" align="start" wrap>
              <LimitField label="请假次数" name="leaveTimes" max={100} suffix="次" />
              <LimitField label="单次最多" name="leaveDaysMax" max={3650} suffix="天" />
              <LimitField label="累计最多" name="leaveDaysTotal" max={3650} suffix="天" />
            </Space>
          )}
        </>
      )}
      <Divider titlePlacement="start" plain>
        预约上限与退卡
      </Divider>
      <Space size="middle" align="start" wrap>
        <LimitField label="每日上限" name="maxPerDay" max={100} suffix="节" />
        <LimitField label="每周上限" name="maxPerWeek" max={700} suffix="节" />
        <Form.Item
          label="退卡手续费比例"
          name="refundFeePercent"
          extra="冷静期后退卡：按未使用比例退款，再扣实付金额的这一比例"
          rules={[{ type: 'number', min: 0, max: 100, message: CardLifeProductMsg.refundFee }]}
        >
          <InputNumber precision={0} min={0} max={100} style={{ width: 150 }} suffix="%" />
        </Form.Item>
        <Form.Item
          label="共享人数"
          name="shareMax"
          extra="家庭卡等多人共享：持卡人之外最多几位会员可用这张卡约课，0 为不共享"
          rules={[{ type: 'number', min: 0, max: MAX_SHARE, message: CardLifeProductMsg.shareMax }]}
        >
          <InputNumber precision={0} min={0} max={MAX_SHARE} style={{ width: 150 }} suffix="人" aria-label="共享人数" />
        </Form.Item>
      </Space>
    </>
  );
}
