import {
  CardMsg,
  PAY_METHODS,
  queryCardTransferPreview,
  TransferMsg,
  transferMemberCard,
  type MemberCardRow,
  type PayMethod,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, InputNumber, Radio } from 'antd';
import { call } from '../../api/client.ts';
import { balanceText, toFen } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { MemberPicker } from '../../shared/pickers/member-picker.tsx';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

const METHOD_OPTIONS = Object.entries(PAY_METHODS).map(([value, label]) => ({ value, label }));

interface Fields {
  toMid: number;
  fee?: number | null;
  method?: PayMethod;
  futureBookings: 'keep' | 'cancel';
  remark?: string;
}

/**
 * 转卡: the card moves to another member of the store, with its balance and expiry; a fee may be
 * taken; its bookings of classes not yet taken stay with the holder or are cancelled and refunded
 * (the count shown before choosing). The server checks everything again.
 */
export default function TransferModal({ card, onClose }: { card: MemberCardRow; onClose: () => void }) {
  const [form] = Form.useForm<Fields>();
  const preview = useQuery({
    queryKey: keys.member.transferPreview(card.id),
    queryFn: () => call(queryCardTransferPreview, { mcId: card.id }),
  });
  const save = useWrite(
    (v: Fields) =>
      call(transferMemberCard, {
        mcId: card.id,
        toMid: v.toMid,
        fee: v.fee ? toFen(v.fee) : 0,
        method: v.fee ? v.method : undefined,
        futureBookings: v.futureBookings,
        remark: v.remark || null,
      }),
    { success: '转卡成功', changes: 'memberCard' },
  );
  const p = preview.data;
  const open = p ? p.bookings + p.pendings : 0;
  return (
    <FormModal
      title={`转卡：${card.cardName}`}
      okText="确认转卡"
      form={form}
      loading={save.loading}
      submit={(v) => save.run(v)}
      onCancel={onClose}
    >
      <p>
        持卡人 {p ? `${p.holder.name}（${p.holder.mobile}）` : '…'}，余额 {balanceText(card)}
        {card.expireTime ? `，有效期至 ${card.expireTime.slice(0, 10)}` : ''}。转卡后余额和有效期随卡转给新会员。
      </p>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ futureBookings: 'cancel' }}
        onValuesChange={(changed: Partial<Fields>) => {
          if ('fee' in changed && !changed.fee) form.setFieldValue('method', undefined);
        }}
      >
        <Form.Item
          label="转给会员"
          name="toMid"
          rules={[
            { required: true, message: TransferMsg.toMember },
            {
              validator: (_, v: number | undefined) =>
                p && v === p.holder.id ? Promise.reject(new Error(TransferMsg.sameHolder)) : Promise.resolve(),
            },
          ]}
        >
          <MemberPicker />
        </Form.Item>
        <Form.Item label="转卡手续费" name="fee" rules={[{ type: 'number', min: 0, message: '手续费不能小于0' }]}>
          <InputNumber
            precision={2}
            style={{ width: 200 }}
            suffix="元"
            placeholder="不收可不填"
            aria-label="转卡手续费"
          />
        </Form.Item>
        <Form.Item noStyle shouldUpdate={(a: Fields, b: Fields) => a.fee !== b.fee}>
          {() =>
            form.getFieldValue('fee') ? (
              <Form.Item label="收款方式" name="method" rules={[{ required: true, message: CardMsg.payMethod }]}>
                <Radio.Group optionType="button" options={METHOD_OPTIONS} />
              </Form.Item>
            ) : null
          }
        </Form.Item>
        <Form.Item
          label={`未上课程的预约（${open} 节）`}
          name="futureBookings"
          rules={[{ required: true, message: TransferMsg.futureBookings }]}
        >
          <Radio.Group
            options={[
              { value: 'cancel', label: '取消并退回到卡里' },
              { value: 'keep', label: '保留给原持卡人', disabled: Boolean(p?.pendings) },
            ]}
          />
        </Form.Item>
        {p && p.pendings > 0 && <Alert type="info" showIcon message={TransferMsg.keepPendings(p.pendings)} />}
        <Form.Item label="备注" name="remark" style={{ marginTop: 12 }}>
          <Input maxLength={200} placeholder="如：会员转让给朋友" />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
