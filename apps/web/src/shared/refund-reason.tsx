import { RefundMsg } from '@studio/contract';
import { Form, Input } from 'antd';

/** 退款原因 of a refund through the provider (required, at most 80 characters: the provider's limit). */
export function RefundReasonField({ placeholder }: { placeholder: string }) {
  return (
    <Form.Item
      label="退款原因"
      name="reason"
      rules={[
        { required: true, whitespace: true, message: RefundMsg.reason },
        { max: 80, message: RefundMsg.reasonLong },
      ]}
    >
      <Input maxLength={80} placeholder={placeholder} aria-label="退款原因" />
    </Form.Item>
  );
}
