import { RefundMsg, type StorePayOrder } from '@studio/contract';
import { Alert, Form, InputNumber, Spin } from 'antd';
import { useEffect } from 'react';
import { toFen, yuan } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { RefundQuoteTable, refundBlock, useRefundQuote } from '../../shared/refund-quote.tsx';
import { RefundReasonField } from '../../shared/refund-reason.tsx';
import { useRefundPayOrder } from './desk-pay-hooks.ts';

/**
 * 退款 of an online order (店长): whole or part, back through the provider it was paid with, a reason
 * required. A card order closes the card and pays back the card's refund quote (issue 42, item 3):
 * the dialog shows the quote's parts (which order, 微信支付 / 支付宝, how much), the amount starts at
 * this order's own part and may not exceed it (after the cooling-off days that is less than the
 * order); its top-up orders go back with it. A top-up takes the amount off the card (the server checks).
 */
export default function RefundOrderModal({ order, onClose }: { order: StorePayOrder; onClose: () => void }) {
  // 异常订单 (paid, nothing issued; or a refund refused once its card was closed): its 原路退款 pays back
  // what it owes, in full, and changes no card.
  const exception = order.status === 'exception';
  const left = exception ? (order.exceptionDue ?? 0) : order.amount - order.refunded;
  const [form] = Form.useForm<{ amount: number; reason: string }>();
  const refund = useRefundPayOrder();
  const cardOrder = order.kind === 'card' && !exception && order.memberCardId !== null;
  // Its refusal (the card refunded already) is said in the dialog, not as a toast.
  const quote = useRefundQuote(order.memberCardId ?? 0, cardOrder, true);
  // A refusal leaves the data of an earlier answer in the cache: not a quote to refund by.
  const q = cardOrder && !quote.isError ? quote.data : undefined;
  const own = q ? Math.min(left, q.parts.find((p) => p.orderNo === order.orderNo)?.amount ?? 0) : left;
  const others = q ? q.parts.filter((p) => p.orderNo !== order.orderNo) : [];
  const block = q ? refundBlock(q, true) : null;
  // A card order waits for its quote: its part, not the order's amount, is what may go back.
  const waiting = cardOrder && !q;
  useEffect(() => {
    if (q) form.setFieldsValue({ amount: own / 100 });
  }, [q, own, form]);
  return (
    <FormModal
      title={`${exception ? '原路退款' : '退款'}：${order.name}`}
      okText="确认退款"
      okButtonProps={{ danger: true, disabled: waiting || block !== null }}
      form={form}
      loading={refund.loading}
      submit={(v) => refund.run({ orderNo: order.orderNo, amount: toFen(v.amount), reason: v.reason.trim() })}
      onCancel={onClose}
      width={cardOrder ? 680 : undefined}
    >
      <p>
        订单 {order.orderNo}，{order.memberName}，实付 {yuan(order.amount)} 元
        {order.refunded ? `，已退 ${yuan(order.refunded)} 元` : ''}。款项原路退回
        {order.method.startsWith('wechat') ? '微信' : '支付宝'}
        {exception
          ? `，全额退回 ${yuan(left)} 元。异常订单：${order.exceptionReason ?? ''}；会员卡不变。`
          : cardOrder
            ? `，会员卡随之退卡${others.length ? '；这张卡的其他线上订单按下面的退款去向一起原路退回' : ''}。`
            : '，并从会员卡余额中扣回。'}
      </p>
      {cardOrder &&
        (quote.isError ? (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} message={quote.error.message} />
        ) : !q ? (
          <Spin />
        ) : (
          <div data-testid="refund-quote">
            <RefundQuoteTable q={q} current={order.orderNo} />
            {block && (
              <Alert type="error" showIcon style={{ marginBottom: 16 }} data-testid="refund-note" message={block} />
            )}
          </div>
        ))}
      <Form form={form} layout="vertical" initialValues={cardOrder ? {} : { amount: left / 100 }}>
        <Form.Item
          label={others.length ? '本订单退款金额' : '退款金额'}
          name="amount"
          rules={[
            { required: true, message: '请输入退款金额' },
            { type: 'number', min: 0.01, message: '退款金额应大于 0' },
            { type: 'number', max: own / 100, message: RefundMsg.tooMuch(`${yuan(own)} 元`) },
          ]}
        >
          <InputNumber
            precision={2}
            style={{ width: 200 }}
            suffix="元"
            aria-label="退款金额"
            disabled={exception || waiting}
          />
        </Form.Item>
        <RefundReasonField placeholder="如：会员搬家，无法继续上课" />
      </Form>
    </FormModal>
  );
}
