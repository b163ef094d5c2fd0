import { BIG_TYPE_COUNT, CARD_TYPE_NO_EXPIRY, insertMemberCard, Msg, RefMsg } from '@studio/contract';
import { DatePicker, Form, InputNumber, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { call } from '../../api/client.ts';
import dayjs from '../../app/dayjs.ts';
import { MemberPicker } from '../schedule/components/member-picker.tsx';
import { useWrite } from '../settings/lib/use-write.ts';
import { CARD_WRITE_KEYS, useMemberInfo } from './member-cards.ts';
import { toFen, unitOf, useCardProducts } from './products.ts';

interface Values {
  mid: number;
  cardId: number;
  totalCount: number;
  expireTime?: Dayjs;
}

/** Issues a card product to a member: total (count, or yuan) and expiry date. */
export default function IssueCardModal({ memberId, onClose }: { memberId?: number; onClose: (mid?: number) => void }) {
  const [form] = Form.useForm<Values>();
  const products = useCardProducts();
  const member = useMemberInfo(memberId);
  const cardId = Form.useWatch('cardId', form);
  const product = products.data?.find((p) => p.id === cardId);
  const bigType = product?.bigType ?? BIG_TYPE_COUNT;
  const expires = product ? product.cardType !== CARD_TYPE_NO_EXPIRY : true;
  const save = useWrite(
    (v: Values) =>
      call(insertMemberCard, {
        mid: v.mid,
        cardId: v.cardId,
        totalCount: bigType === BIG_TYPE_COUNT ? v.totalCount : toFen(v.totalCount),
        expireTime: expires && v.expireTime ? v.expireTime.format('YYYY-MM-DD') : null,
      }),
    { success: '发卡成功', invalidate: CARD_WRITE_KEYS },
  );
  const onOk = async () => {
    const v = await form.validateFields().catch(() => null);
    if (v && (await save.run(v))) onClose(v.mid);
  };
  const m = member.data;
  return (
    <Modal open title="发卡" okText="确认发卡" confirmLoading={save.loading} onOk={onOk} onCancel={() => onClose()}>
      <Form<Values> form={form} layout="vertical" initialValues={{ mid: memberId, expireTime: dayjs().add(1, 'year') }}>
        <Form.Item label="会员" name="mid" rules={[{ required: true, message: Msg.chooseMember }]}>
          <MemberPicker initial={m ? { id: m.id, name: m.name, mobile: m.mobile } : undefined} />
        </Form.Item>
        <Form.Item label="卡种" name="cardId" rules={[{ required: true, message: '请选择卡种' }]}>
          <Select
            placeholder="选择卡种"
            loading={products.isPending}
            showSearch={{ optionFilterProp: 'label' }}
            options={(products.data ?? []).map((p) => ({ value: p.id, label: p.cardName }))}
          />
        </Form.Item>
        <Form.Item
          label={bigType === BIG_TYPE_COUNT ? '卡内次数' : '卡内金额'}
          name="totalCount"
          rules={[
            { required: true, message: '请输入卡内数量' },
            { type: 'number', min: 0, message: '卡内数量不能小于0' },
          ]}
        >
          <InputNumber precision={bigType === BIG_TYPE_COUNT ? 0 : 2} style={{ width: 220 }} suffix={unitOf(bigType)} />
        </Form.Item>
        {expires && (
          <Form.Item
            label="有效期至（含当天）"
            name="expireTime"
            rules={[{ required: true, message: RefMsg.expireRequired }]}
          >
            <DatePicker style={{ width: 220 }} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
