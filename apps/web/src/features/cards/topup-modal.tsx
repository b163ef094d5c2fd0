import { BIG_TYPE_COUNT, type MemberCardRow } from '@studio/contract';
import { Form, InputNumber } from 'antd';
import { balanceText, unitOf } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { SellerField } from '../../shared/pickers/seller-select.tsx';
import { useTopUpCard, type PaymentFields as Payment } from './hooks.ts';
import { PaymentFields } from './payment-fields.tsx';

/** 充值: an amount in the card's unit, the money received for it and who sold it (销售员). */
export default function TopupModal({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const [form] = Form.useForm<{ amount: number; sellerId: number } & Payment>();
  const isCount = card.bigType === BIG_TYPE_COUNT;
  const save = useTopUpCard(card);
  return (
    <FormModal
      title={`充值：${card.cardName}`}
      okText="充值"
      form={form}
      loading={save.loading}
      submit={(v) => save.run(v)}
      onCancel={onClose}
    >
      <p>当前余额：{balanceText(card)}</p>
      <Form form={form} layout="vertical">
        <Form.Item
          label="充值数量"
          name="amount"
          rules={[
            { required: true, message: '充值数量必须大于0' },
            { type: 'number', min: isCount ? 1 : 0.01, message: '充值数量必须大于0' },
          ]}
        >
          <InputNumber
            precision={isCount ? 0 : 2}
            style={{ width: 220 }}
            suffix={unitOf(card.bigType)}
            // A money card's top-up is usually paid at face value: offer it as the money received.
            onChange={(v) => !isCount && typeof v === 'number' && form.setFieldValue('paid', v)}
          />
        </Form.Item>
        <PaymentFields />
        <SellerField />
      </Form>
    </FormModal>
  );
}
