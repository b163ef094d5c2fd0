import { RefundMsg, type StorePayOrder } from '@studio/contract';
import { Form, InputNumber } from 'antd';
import { toFen, yuan } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { RefundReasonField } from '../../shared/refund-reason.tsx';
import { useRefundPayOrder } from './desk-pay-hooks.ts';

/**
 * 退款 of an online order (店长): whole or part, back through the provider it was paid with, a reason
 * required. A card order closes the card, its top-up orders going back with it by the card's refund quote
 * (issue 42, item 3); a top-up takes the amount off the card (the server checks).
 */
export default function RefundOrderModal({ order, onClose }: { order: StorePayOrder; onClose: () => void }) {
  // 异常订单 (paid, nothing issued; or a refund refused once its card was closed): its 原路退款 pays back
  // what it owes, in full, and changes no card.
  const exception = order.status === 'exception';
  const left = exception ? (order.exceptionDue ?? 0) : order.amount - order.refunded;
  const [form] = Form.useForm<{ amount: number; reason: string }>();
  const refund = useRefundPayOrder();
  return (
    <FormModal
      title={`${exception ? '原路退款' : '退款'}：${order.name}`}
      okText="确认退款"
      okButtonProps={{ danger: true }}
      form={form}
      loading={refund.loading}
      submit={(v) => refund.run({ orderNo: order.orderNo, amount: toFen(v.amount), reason: v.reason.trim() })}
      onCancel={onClose}
    >
      <p>
        订单 {order.orderNo}，{order.memberName}，实付 {yuan(order.amount)} 元
        {order.refunded ? `，已退 ${yuan(order.refunded)} 元` : ''}。款项原路退回
        {order.method.startsWith('wechat') ? '微信' : '支付宝'}
        {exception
          ? `，全额退回 ${yuan(left)} 元。异常订单：${order.exceptionReason ?? ''}；会员卡不变。`
          : order.kind === 'card'
            ? '，会员卡随之退卡；这张卡的线上充值订单按退卡报价一起原路退回（退卡报价见会员卡的“退卡”）。'
            : '，并从会员卡余额中扣回。'}
      </p>
      <Form form={form} layout="vertical" initialValues={{ amount: left / 100 }}>
        <Form.Item
          label="退款金额"
          name="amount"
          rules={[
            { required: true, message: '请输入退款金额' },
            { type: 'number', min: 0.01, max: left / 100, message: RefundMsg.tooMuch(`${yuan(left)} 元`) },
          ]}
        >
          <InputNumber precision={2} style={{ width: 200 }} suffix="元" aria-label="退款金额" disabled={exception} />
        </Form.Item>
        <RefundReasonField placeholder="如：会员搬家，无法继续上课" />
      </Form>
    </FormModal>
  );
}
