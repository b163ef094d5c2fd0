import { BIG_TYPE_MONEY, type MemberCardRow } from '@studio/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, InputNumber, Modal, Radio, Result, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { toFen, yuan } from '../../shared/format.ts';
import { afterWrite } from '../../shared/invalidations.ts';
import { SellerField } from '../../shared/pickers/seller-select.tsx';
import { QrImage } from '../../shared/qr-image.tsx';
import { useCardProducts } from '../../shared/reference.ts';
import { useCreateDeskOrder, useDeskOrder } from './desk-pay-hooks.ts';

type Method = 'wechat_native' | 'alipay_precreate';
interface Values {
  what: 'card' | 'topup';
  productId?: number;
  mcId?: number;
  /** 元 on the screen, fen on the wire. */
  amount?: number;
  method: Method;
  sellerId: number;
}

const METHOD_NAME: Record<Method, string> = { wechat_native: '微信', alipay_precreate: '支付宝' };

/**
 * 扫码收款 at the desk: a card product sold online (at its online price) or a top-up of the member's
 * money card, paid by the member scanning a WeChat Pay or Alipay QR. The order is asked every 2.5 s
 * until paid (the card is issued then, and the member's cards refresh) or closed.
 */
export default function DeskPayModal({
  member,
  onClose,
}: {
  member: { id: number; name: string; cards: MemberCardRow[] };
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const products = useCardProducts();
  const create = useCreateDeskOrder();
  const [created, setCreated] = useState<{ orderNo: string; codeUrl: string; amount: number; method: Method }>();
  const order = useDeskOrder(created?.orderNo);
  const status = order.data?.status;
  const qc = useQueryClient();
  const told = useRef(false);
  const what = Form.useWatch('what', form) ?? 'card';

  // Once paid, the member's cards (and balances, ledgers, payments) are fetched again.
  useEffect(() => {
    if (status === 'paid' && !told.current) {
      told.current = true;
      afterWrite(qc, 'memberCard');
    }
  }, [status, qc]);

  const onSale = (products.data ?? []).filter((p) => p.enabled && p.onlineSale === 1 && p.onlinePrice > 0);
  const moneyCards = member.cards.filter((c) => c.bigType === BIG_TYPE_MONEY && !c.refundedAt);

  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const r = await create.run({
      mid: member.id,
      method: v.method,
      sellerId: v.sellerId,
      ...(v.what === 'card' ? { productId: v.productId } : { mcId: v.mcId, amount: toFen(v.amount ?? 0) }),
    });
    if (r) setCreated({ ...r.data, method: v.method });
  };
  const again = () => {
    told.current = false;
    setCreated(undefined);
  };

  const paid = status === 'paid' || status === 'refunded' || status === 'partially_refunded';
  const footer = !created
    ? [
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={create.loading} onClick={() => void submit()}>
          生成收款码
        </Button>,
      ]
    : [
        <Button key="close" type={paid ? 'primary' : 'default'} onClick={onClose}>
          {paid ? '完成' : '关闭'}
        </Button>,
      ];

  return (
    <Modal open title={`扫码收款：${member.name}`} footer={footer} onCancel={onClose} destroyOnHidden width={460}>
      {!created ? (
        <Form<Values> form={form} layout="vertical" initialValues={{ what: 'card', method: 'wechat_native' }}>
          <Form.Item label="收款内容" name="what">
            <Radio.Group
              options={[
                { value: 'card', label: '购卡' },
                { value: 'topup', label: '储值卡充值' },
              ]}
            />
          </Form.Item>
          {what === 'card' ? (
            <Form.Item
              label="卡种（线上售卖价）"
              name="productId"
              rules={[{ required: true, message: '请选择卡种' }]}
              extra={
                !products.isPending && !onSale.length ? '暂无线上售卖的卡种：请在卡种设置中开启「线上售卖」' : undefined
              }
            >
              <Select
                placeholder="选择卡种"
                loading={products.isPending}
                data-testid="desk-pay-product"
                options={onSale.map((p) => ({ value: p.id, label: `${p.cardName}（¥${yuan(p.onlinePrice)}）` }))}
              />
            </Form.Item>
          ) : (
            <>
              <Form.Item
                label="储值卡"
                name="mcId"
                rules={[{ required: true, message: '请选择要充值的储值卡' }]}
                extra={moneyCards.length ? undefined : '该会员没有可充值的储值卡'}
              >
                <Select
                  placeholder="选择储值卡"
                  options={moneyCards.map((c) => ({
                    value: c.id,
                    label: `${c.cardName}（余额 ¥${yuan(c.totalCount - c.usedCount)}）`,
                  }))}
                />
              </Form.Item>
              <Form.Item
                label="充值金额"
                name="amount"
                rules={[
                  { required: true, message: '请填写充值金额' },
                  { type: 'number', min: 0.01, message: '充值金额必须大于0' },
                ]}
              >
                <InputNumber precision={2} min={0.01} style={{ width: 200 }} suffix="元" />
              </Form.Item>
            </>
          )}
          <Form.Item label="支付方式" name="method">
            <Radio.Group
              optionType="button"
              options={[
                { value: 'wechat_native', label: '微信' },
                { value: 'alipay_precreate', label: '支付宝' },
              ]}
            />
          </Form.Item>
          <SellerField />
        </Form>
      ) : paid ? (
        <div data-testid="desk-pay-paid">
          <Result
            status="success"
            title="收款成功，会员卡已到账"
            subTitle={`${order.data?.name ?? ''} ¥${yuan(created.amount)}，订单号 ${created.orderNo}`}
          />
        </div>
      ) : status === 'exception' ? (
        <div data-testid="desk-pay-exception">
          <Result
            status="error"
            title="会员已付款，但未能发卡或充值（异常订单）"
            subTitle={`订单号 ${created.orderNo}：请店长在 线上订单 原路退款`}
          />
        </div>
      ) : status === 'closed' ? (
        <Result
          status="warning"
          title="订单已关闭"
          subTitle="会员未在15分钟内完成支付，请重新收款"
          extra={
            <Button type="primary" onClick={again}>
              重新收款
            </Button>
          }
        />
      ) : (
        <Space direction="vertical" align="center" style={{ width: '100%' }}>
          <Typography.Title level={3} style={{ margin: 0 }}>
            ¥{yuan(created.amount)}
          </Typography.Title>
          <Typography.Text>请会员打开{METHOD_NAME[created.method]}扫一扫，扫描下方二维码付款</Typography.Text>
          <QrImage text={created.codeUrl} size={220} testId="desk-pay-qr" />
          <Space>
            <Spin size="small" />
            <Typography.Text type="secondary">等待会员付款…（付款后自动到账）</Typography.Text>
          </Space>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            订单号 {created.orderNo}
          </Typography.Text>
          {order.isError && <Alert type="warning" showIcon message="暂时查不到支付结果，正在重试" />}
        </Space>
      )}
    </Modal>
  );
}
