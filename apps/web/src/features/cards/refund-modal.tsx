import type { MemberCardRow } from '@studio/contract';
import { Alert, Form } from 'antd';
import { amountText, balanceText } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { useRefundCard, type PaymentFields as Payment } from './hooks.ts';
import { PaymentFields } from './payment-fields.tsx';

/**
 * Pays money back: the whole card when it was never used (`topup` absent: its balance goes and the
 * card is closed), or one top-up (its amount leaves the balance). The server checks both again.
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
  const [form] = Form.useForm<Payment>();
  const save = useRefundCard(card, topup?.id);
  const paid = topup ? topup.paid : null;
  return (
    <FormModal
      title={topup ? `退回充值：${card.cardName}` : `退卡：${card.cardName}`}
      okText="确认退款"
      form={form}
      loading={save.loading}
      submit={save.run}
      onDone={onClose}
      onCancel={onClose}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message={
          topup
            ? `将从卡内扣回这笔充值 ${amountText(card.bigType, topup.amount)}，当前余额 ${balanceText(card)}。`
            : `退卡后卡内余额 ${balanceText(card)} 清零，这张卡不能再预约或充值。`
        }
      />
      <Form<Payment> form={form} layout="vertical" initialValues={paid != null ? { paid: paid / 100 } : {}}>
        <PaymentFields refund />
      </Form>
    </FormModal>
  );
}
