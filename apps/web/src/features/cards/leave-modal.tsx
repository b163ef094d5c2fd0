import { CardLifeMsg, type MemberCardRow } from '@studio/contract';
import { Alert, DatePicker, Descriptions, Form, Input, List } from 'antd';
import type { Dayjs } from 'dayjs';
import { amountText } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { useStoreClock } from '../../shared/store-time.ts';
import { useAddLeave, useLeavePreview } from './life-hooks.ts';

interface Values {
  range: [Dayjs, Dayjs];
  reason: string;
}

/**
 * 请假 at the desk: the dates and reason; before confirming, the server's preview says how many days,
 * the card's new expiry, whether the product's rules allow it, and which booked classes inside it
 * will be cancelled and refunded (the confirm then cancels them).
 */
export default function LeaveModal({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const clock = useStoreClock();
  const range = Form.useWatch('range', form);
  const dates =
    range?.[0] && range[1] ? { fromDate: range[0].format('YYYY-MM-DD'), toDate: range[1].format('YYYY-MM-DD') } : null;
  const preview = useLeavePreview(card.id, dates);
  const p = dates ? preview.data : undefined;
  const save = useAddLeave();
  const n = p?.bookings.length ?? 0;
  return (
    <FormModal<Values, unknown>
      title={`请假：${card.cardName}`}
      okText={n ? `确认请假并取消${n}节课` : '确认请假'}
      okButtonProps={{ disabled: Boolean(p?.refusal) }}
      form={form}
      loading={save.loading}
      submit={(v) =>
        save.run({
          mcId: card.id,
          fromDate: v.range[0].format('YYYY-MM-DD'),
          toDate: v.range[1].format('YYYY-MM-DD'),
          reason: v.reason,
          cancelBookings: n > 0,
        })
      }
      onCancel={onClose}
      width={560}
    >
      <Form<Values> form={form} layout="vertical">
        <Form.Item
          label="请假日期（含首尾两天）"
          name="range"
          rules={[{ required: true, message: CardLifeMsg.fromDate }]}
        >
          <DatePicker.RangePicker
            style={{ width: 320 }}
            disabledDate={(d) => d.isBefore(clock.day(), 'day')}
            data-testid="leave-range"
          />
        </Form.Item>
        <Form.Item
          label="请假原因"
          name="reason"
          rules={[{ required: true, whitespace: true, message: CardLifeMsg.reason }]}
        >
          <Input maxLength={200} placeholder="如：出差、生病" />
        </Form.Item>
      </Form>
      {p && (
        <div data-testid="leave-preview">
          {p.refusal && <Alert type="error" showIcon message={p.refusal} style={{ marginBottom: 12 }} />}
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label="请假天数">{p.days} 天</Descriptions.Item>
            <Descriptions.Item label="请假后到期">{p.expireTime?.slice(0, 10) ?? '永久有效'}</Descriptions.Item>
          </Descriptions>
          {n > 0 && (
            <>
              <Alert
                type="warning"
                showIcon
                style={{ marginTop: 12 }}
                message={`请假期间已预约的${n}节课将被取消，扣除的次数或金额退回会员卡`}
              />
              <List
                size="small"
                dataSource={p.bookings}
                renderItem={(b) => (
                  <List.Item>
                    {b.startTime.slice(0, 16)} {b.courseName}
                    {b.kind === 'pending' ? '（待签到）' : `（退回 ${amountText(card.bigType, b.refund)}）`}
                  </List.Item>
                )}
              />
            </>
          )}
        </div>
      )}
    </FormModal>
  );
}
