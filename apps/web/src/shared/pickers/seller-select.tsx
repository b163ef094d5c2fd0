import { Form, Select } from 'antd';
import { SellerMsg } from '@studio/contract';
import { useProfile } from '../profile.ts';
import { useSellers } from '../reference.ts';

/**
 * 销售员 of a sale, a top-up or a 扫码收款: any staff member of the store, the signed-in one first
 * chosen. The sales commission counts whoever is chosen (a coach who closed a sale the desk took).
 */
export function SellerField({ name = 'sellerId', initial }: { name?: string; initial?: number }) {
  const me = useProfile().data;
  const q = useSellers();
  return (
    <Form.Item
      label="销售员"
      name={name}
      initialValue={initial ?? me?.id}
      rules={[{ required: true, message: SellerMsg.choose }]}
      extra="销售提成计给销售员"
    >
      <Select
        data-testid="seller-select"
        placeholder="选择销售员"
        showSearch={{ optionFilterProp: 'label' }}
        loading={q.isPending}
        style={{ width: 220 }}
        options={(q.data ?? []).map((s) => ({ value: s.id, label: s.id === me?.id ? `${s.name}（我）` : s.name }))}
      />
    </Form.Item>
  );
}
