import { Form } from 'antd';
import { yuan } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { SellerField } from '../../shared/pickers/seller-select.tsx';
import { useChangeSeller } from './hooks.ts';

/** 更改销售员: a manager names another seller of one sale or top-up (written to 操作日志). */
export default function SellerChangeModal({
  item,
  sellerId,
  onClose,
}: {
  item: { id: number; memberName: string; cardName: string; amount: number };
  sellerId: number;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ sellerId: number }>();
  const save = useChangeSeller();
  return (
    <FormModal
      title="更改销售员"
      form={form}
      loading={save.loading}
      submit={(v) => save.run(item.id, v.sellerId)}
      onCancel={onClose}
      destroyOnHidden
    >
      <p>
        {item.memberName} · {item.cardName} · ¥{yuan(item.amount)}
      </p>
      <Form form={form} layout="vertical">
        <SellerField initial={sellerId} />
      </Form>
    </FormModal>
  );
}
