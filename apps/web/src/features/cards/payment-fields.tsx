import { CardMsg, PAY_METHODS } from '@studio/contract';
import { Form, Input, InputNumber, Radio } from 'antd';

const METHOD_OPTIONS = Object.entries(PAY_METHODS).map(([value, label]) => ({ value, label }));

/**
 * The money part of a card sale, top-up or refund (fields `paid` in yuan, `method`, `payRemark`):
 * what the desk took, or paid back, and how. A record for the books, not a payment.
 */
export function PaymentFields({ refund = false }: { refund?: boolean }) {
  const word = refund ? '退款' : '收款';
  return (
    <>
      <Form.Item
        label={`${word}金额`}
        name="paid"
        rules={[
          { required: true, message: `请输入${word}金额` },
          { type: 'number', min: 0, message: `${word}金额不能小于0` },
        ]}
      >
        <InputNumber precision={2} style={{ width: 200 }} suffix="元" data-testid="paid" />
      </Form.Item>
      <Form.Item label={`${word}方式`} name="method" rules={[{ required: true, message: CardMsg.payMethod }]}>
        <Radio.Group optionType="button" options={METHOD_OPTIONS} data-testid="pay-method" />
      </Form.Item>
      <Form.Item label="备注" name="payRemark">
        <Input maxLength={200} placeholder={refund ? '退款原因' : '如：活动价、转账单号'} />
      </Form.Item>
    </>
  );
}
