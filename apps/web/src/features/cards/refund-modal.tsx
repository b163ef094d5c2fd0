import { PROVIDER_LABEL, REFUND_ROUNDING, RefundMsg, type MemberCardRow } from '@studio/contract';
import { Alert, Form, InputNumber, Spin } from 'antd';
import { useEffect } from 'react';
import { amountText, balanceText } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { RefundQuoteTable, refundBlock, useRefundQuote } from '../../shared/refund-quote.tsx';
import { RefundReasonField } from '../../shared/refund-reason.tsx';
import { useRefundCard, useRefundCardOnline, type PaymentFields as Payment } from './hooks.ts';
import { PaymentFields } from './payment-fields.tsx';

/**
 * Pays money back: the whole card (`topup` absent: what is left of its balance goes and the card is
 * closed), at most the server's refund quote, shown with its rule before confirming (冷静期全额退款:
 * the desk may; 按卡种退卡规则: a manager); or one top-up (its amount leaves the balance). Each state
 * of the quote says in words why 确认退款 is or is not offered (issue 42, item 9): a class still to
 * come, a card opened within the cooling-off days, past them, money paid online that goes back
 * through its own order first. A card bought online goes back through its orders (原路退回): the
 * amount entered is the card order's part, every other order gets its part of the quote with it.
 * The server checks everything again.
 */
export function RefundModal({
  card,
  topup,
  onClose,
}: {
  card: MemberCardRow;
  /** The top-up to pay back: its ledger id, amount and what was received for it. */
  topup?: { id: number; amount: number; paid: number | null };
  onClose: () => void;
}) {
  const [form] = Form.useForm<Payment & { reason?: string }>();
  const save = useRefundCard(card, topup?.id);
  const quote = useRefundQuote(card.id, !topup);
  const q = quote.data;
  // A card bought online goes back the way its money came (原路退回), with a reason.
  const online = !topup && q?.onlineOrder ? q.onlineOrder : null;
  const saveOnline = useRefundCardOnline(online?.orderNo ?? '');
  // What this refund pays here: the card order's part (online), else the whole quote (the desk).
  const own = q ? (online ? (q.parts.find((p) => p.orderNo === online.orderNo)?.amount ?? 0) : q.amount) : 0;
  useEffect(() => {
    if (q) form.setFieldsValue({ paid: own / 100 });
  }, [q, own, form]);
  const paid = topup ? topup.paid : null;
  const block = q && !topup ? refundBlock(q, online !== null) : null;
  return (
    <FormModal
      title={topup ? `退回充值：${card.cardName}` : `退卡：${card.cardName}`}
      okText="确认退款"
      okButtonProps={{ disabled: !topup && (!q || block !== null) }}
      form={form}
      loading={save.loading || saveOnline.loading}
      submit={(v) => (online ? saveOnline.run({ paid: v.paid, reason: v.reason ?? '' }) : save.run(v))}
      onDone={onClose}
      onCancel={onClose}
      width={560}
    >
      {topup ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          message={`将从卡内扣回这笔充值 ${amountText(card.bigType, topup.amount)}，当前余额 ${balanceText(card)}。`}
        />
      ) : !q ? (
        <Spin />
      ) : (
        <div data-testid="refund-quote">
          <RefundQuoteTable q={q} />
          {online && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              data-testid="refund-online"
              message={`这张卡是线上购买的（订单 ${online.orderNo}），退款将原路退回${
                q.parts.length > 1 ? '：各笔订单按上面的退款去向一起退回' : `到会员的${PROVIDER_LABEL[online.provider]}`
              }`}
            />
          )}
          <Alert
            type={block ? 'error' : 'warning'}
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="refund-note"
            message={
              block ??
              `退卡后卡内余额 ${balanceText(card)} 清零，这张卡不能再预约或充值；退款金额不能超过应退金额（${REFUND_ROUNDING}）。`
            }
          />
        </div>
      )}
      <Form<Payment & { reason?: string }>
        form={form}
        layout="vertical"
        initialValues={paid != null ? { paid: paid / 100 } : {}}
      >
        {online ? (
          <>
            <Form.Item
              label={q && q.parts.length > 1 ? '购卡订单退款金额' : '退款金额'}
              name="paid"
              rules={[
                { required: true, message: '请输入退款金额' },
                { type: 'number', min: 0.01, message: RefundMsg.amount },
              ]}
            >
              <InputNumber precision={2} style={{ width: 200 }} suffix="元" data-testid="paid" />
            </Form.Item>
            <RefundReasonField placeholder="如：七天内不想练了" />
          </>
        ) : (
          <PaymentFields refund />
        )}
      </Form>
    </FormModal>
  );
}
