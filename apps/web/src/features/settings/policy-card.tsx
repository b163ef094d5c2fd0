import { PolicyMsg, type BookingPolicy } from '@studio/contract';
import { Card, Form, InputNumber, Radio, Space, Typography, type FormInstance } from 'antd';

/** The fields of the policy this screen edits: the booking window, cancels and the waitlist. */
export type PolicyValues = Pick<
  BookingPolicy,
  | 'openDaysBefore'
  | 'closeMinutesBefore'
  | 'cancelMinutesBefore'
  | 'lateCancel'
  | 'waitlist'
  | 'waitlistCutoffMinutes'
  | 'noShow'
  | 'noShowLimit'
  | 'noShowSuspendDays'
  | 'maxOpenBookings'
>;

const whole = (msg: string) => [{ required: true, message: msg }];

type Values = PolicyValues;

function Minutes({ name, before, after, msg }: { name: keyof Values; before: string; after: string; msg: string }) {
  return (
    <Space>
      <span>{before}</span>
      <Form.Item name={name} noStyle rules={whole(msg)}>
        <InputNumber min={0} precision={0} style={{ width: 100 }} aria-label={`${before}${after}`} />
      </Form.Item>
      <span>{after}</span>
    </Space>
  );
}

/**
 * 预约规则: when members may book and cancel from their phones (staff are not held to it). Saved by
 * the page's one 保存 with the rest of 预约设置.
 */
export function PolicyCard({ policy, form }: { policy: BookingPolicy; form: FormInstance<Values> }) {
  return (
    <Card title="预约规则" style={{ marginTop: 16 }} data-testid="policy-card">
      <Form<Values> form={form} labelCol={{ span: 4 }} wrapperCol={{ span: 16 }} initialValues={policy}>
        <Typography.Paragraph type="secondary" style={{ marginLeft: '16.6%' }}>
          会员在手机上预约和取消时按这些规则执行；前台代约、代取消不受限制，超出规则时会提示并记录。
        </Typography.Paragraph>
        <Form.Item label="开放预约" extra="填 0 表示不限制，排好课即可预约">
          <Minutes name="openDaysBefore" before="开课前" after="天开放预约" msg={PolicyMsg.days} />
        </Form.Item>
        <Form.Item label="截止预约" extra="填 0 表示开课前都可以预约">
          <Minutes name="closeMinutesBefore" before="开课前" after="分钟停止预约" msg={PolicyMsg.minutes} />
        </Form.Item>
        <Form.Item label="免费取消" extra="在此之前取消，退回扣除的次数或金额">
          <Minutes name="cancelMinutesBefore" before="开课前" after="分钟之前可免费取消" msg={PolicyMsg.minutes} />
        </Form.Item>
        <Form.Item label="超过免费取消时间" name="lateCancel" rules={whole(PolicyMsg.lateCancel)}>
          <Radio.Group
            options={[
              { value: 'refuse', label: '不允许会员取消' },
              { value: 'forfeit', label: '允许取消，但不退回扣费' },
            ]}
          />
        </Form.Item>
        <Form.Item label="候补" name="waitlist" rules={whole(PolicyMsg.waitlist)}>
          <Radio.Group
            options={[
              { value: 0, label: '不开启' },
              { value: 1, label: '开启：课程满员后可排队候补，有空位时按顺序自动递补并扣卡' },
            ]}
          />
        </Form.Item>
        <Form.Item label="候补截止" extra="此后不再递补，也不能再加入候补；填 0 表示开课前都可递补">
          <Minutes name="waitlistCutoffMinutes" before="开课前" after="分钟停止递补" msg={PolicyMsg.minutes} />
        </Form.Item>
        <Form.Item
          label="爽约（签到后扣费模式）"
          name="noShow"
          rules={whole(PolicyMsg.noShow)}
          extra="会员预约后到下课仍未签到，即为爽约"
        >
          <Radio.Group
            options={[
              { value: 'none', label: '不扣费' },
              { value: 'forfeit', label: '按一次上课扣除会员卡' },
            ]}
          />
        </Form.Item>
        <Form.Item label="暂停在线预约" extra="填 0 表示不暂停；前台可在会员详情中解除">
          <Space>
            <span>30天内爽约</span>
            <Form.Item name="noShowLimit" noStyle rules={whole(PolicyMsg.count)}>
              <InputNumber min={0} precision={0} style={{ width: 80 }} aria-label="30天内爽约次数" />
            </Form.Item>
            <span>次，暂停在线预约</span>
            <Form.Item name="noShowSuspendDays" noStyle rules={whole(PolicyMsg.days)}>
              <InputNumber min={0} precision={0} style={{ width: 80 }} aria-label="暂停在线预约天数" />
            </Form.Item>
            <span>天</span>
          </Space>
        </Form.Item>
        <Form.Item
          label="期限卡同时预约"
          extra="期限卡（每节课不扣次数或金额）最多同时预约几节还没上的课；填 0 表示不限制。次卡和储值卡按余额限制"
        >
          <Space>
            <span>最多同时预约</span>
            <Form.Item name="maxOpenBookings" noStyle rules={whole(PolicyMsg.bookings)}>
              <InputNumber min={0} max={100} precision={0} style={{ width: 80 }} aria-label="期限卡最多同时预约节数" />
            </Form.Item>
            <span>节</span>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
