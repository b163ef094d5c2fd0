import { BIG_TYPE_COUNT, CARD_TYPE_NO_EXPIRY, Msg, RefMsg } from '@studio/contract';
import { Alert, DatePicker, Form, InputNumber, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { unitOf } from '../../shared/format.ts';
import { FormModal } from '../../shared/form-modal.tsx';
import { MemberPicker } from '../../shared/pickers/member-picker.tsx';
import { SellerField } from '../../shared/pickers/seller-select.tsx';
import { useCardProducts, useMember } from '../../shared/reference.ts';
import { useStoreClock } from '../../shared/store-time.ts';
import { useIssueCard, type PaymentFields as Payment } from './hooks.ts';
import { PaymentFields } from './payment-fields.tsx';

interface Values extends Payment {
  sellerId: number;
  memberId: number;
  productId: number;
  total: number;
  expires?: Dayjs;
}

/**
 * Sells a card product to a member: total (count, or yuan) and expiry date, started from the
 * product's defaults, the money received (amount, method, remark) and who sold it (销售员).
 */
export default function IssueCardModal({
  memberId,
  onClose,
}: {
  memberId?: number;
  onClose: (issuedTo?: number) => void;
}) {
  const [form] = Form.useForm<Values>();
  const products = useCardProducts();
  const member = useMember(memberId);
  const productId = Form.useWatch('productId', form);
  const product = products.data?.find((p) => p.id === productId);
  const bigType = product?.bigType ?? BIG_TYPE_COUNT;
  const expires = product ? product.cardType !== CARD_TYPE_NO_EXPIRY : true;
  // A card that does not start at the sale (首次上课开卡, 指定日期开卡) counts its product's valid days from its start.
  const later = product && product.activation !== 'sale' && product.validDays ? product : null;
  const pickExpiry = expires && !later;
  const save = useIssueCard();
  const m = member.data;
  // Default expiry dates count from the store's today (its clock, not the browser's).
  const clock = useStoreClock();
  return (
    <FormModal<Values, unknown>
      title="发卡"
      okText="确认发卡"
      form={form}
      loading={save.loading}
      submit={(v) =>
        save.run({
          memberId: v.memberId,
          productId: v.productId,
          bigType,
          total: v.total,
          expires: pickExpiry && v.expires ? v.expires.format('YYYY-MM-DD') : null,
          paid: v.paid,
          method: v.method,
          payRemark: v.payRemark,
          sellerId: v.sellerId,
        })
      }
      onDone={(_, v) => onClose(v.memberId)}
      onCancel={() => onClose()}
    >
      <Form<Values> form={form} layout="vertical" initialValues={{ memberId, expires: clock.day().add(1, 'year') }}>
        <Form.Item label="会员" name="memberId" rules={[{ required: true, message: Msg.chooseMember }]}>
          <MemberPicker initial={m ? { id: m.id, name: m.name, mobile: m.mobile } : undefined} />
        </Form.Item>
        <Form.Item label="卡种" name="productId" rules={[{ required: true, message: '请选择卡种' }]}>
          <Select
            placeholder="选择卡种"
            loading={products.isPending}
            showSearch={{ optionFilterProp: 'label' }}
            options={(products.data ?? []).filter((p) => p.enabled).map((p) => ({ value: p.id, label: p.cardName }))}
            onChange={(id: number) => {
              // Start from the product: its balance, its validity, its price as the money received.
              const p = products.data?.find((x) => x.id === id);
              if (!p) return;
              const count = p.bigType === BIG_TYPE_COUNT;
              form.setFieldsValue({
                total: p.totalCount == null ? undefined : count ? p.totalCount : p.totalCount / 100,
                paid: p.price / 100,
                ...(p.validDays ? { expires: clock.day().add(p.validDays, 'day') } : {}),
              });
            }}
          />
        </Form.Item>
        <Form.Item
          label={bigType === BIG_TYPE_COUNT ? '卡内次数' : '卡内金额'}
          name="total"
          rules={[
            { required: true, message: '请输入卡内数量' },
            { type: 'number', min: 0, message: '卡内数量不能小于0' },
          ]}
        >
          <InputNumber precision={bigType === BIG_TYPE_COUNT ? 0 : 2} style={{ width: 220 }} suffix={unitOf(bigType)} />
        </Form.Item>
        {later && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="activation-note"
            message={
              later.activation === 'first_class'
                ? `首次上课开卡：从第一节课当天起有效 ${later.validDays} 天；售卡后 ${later.activateWithinDays} 天内未上课也自动开卡`
                : later.startsIfSoldToday === later.activationDate
                  ? `指定日期开卡：${later.activationDate} 起有效 ${later.validDays} 天`
                  : `开卡日期（${later.activationDate}）已过，售出当天开卡：今天起有效 ${later.validDays} 天`
            }
          />
        )}
        {pickExpiry && (
          <Form.Item
            label="有效期至（含当天）"
            name="expires"
            rules={[{ required: true, message: RefMsg.expireRequired }]}
          >
            <DatePicker style={{ width: 220 }} />
          </Form.Item>
        )}
        <PaymentFields />
        <SellerField />
      </Form>
    </FormModal>
  );
}
