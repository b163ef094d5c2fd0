import { ContractMsg, memberContractPreview, type PayOrderMethod } from '@studio/contract';
import { Button, Dialog, DotLoading, Popup } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { call } from './api.ts';
import { ContractText, SignFields, signReady, type SignInput } from './contract.tsx';
import {
  payChoices,
  payInWechat,
  rememberWaiting,
  returnUrl,
  takeWxCode,
  useCreateOrder,
  yuanText,
  type Shop,
  type Waiting,
} from './payment.ts';
import './payment.css';

/** What is being bought: a card on sale, or a top-up of one of my money cards by a listed amount. */
export type Purchase =
  | { kind: 'card'; productId: number; name: string; price: number; summary: string }
  | { kind: 'topup'; mcId: number; cardName: string; amounts: number[] };

/**
 * The purchase sheet: what is bought (a top-up's amount chosen here), how to pay on this phone, and
 * 确认支付. The order is made, then the provider's step: WeChat's own sheet (inside WeChat), the QR
 * on the wait screen, or Alipay's page (the phone comes back to the wait screen).
 */
export function PaySheet({
  shop,
  purchase,
  onClose,
  onOrdered,
}: {
  shop: Shop;
  purchase: Purchase | null;
  onClose: () => void;
  /** The order made: the wait screen takes over (`paidInWechat`: WeChat's sheet said paid). */
  onOrdered: (w: Waiting, paidInWechat: boolean) => void;
}) {
  return (
    <Popup
      visible={purchase !== null}
      onMaskClick={onClose}
      onClose={onClose}
      bodyStyle={{ borderRadius: '16px 16px 0 0', maxHeight: '85vh', overflowY: 'auto' }}
    >
      {purchase && (
        <SheetBody
          key={purchase.kind === 'card' ? `c${purchase.productId}` : `t${purchase.mcId}`}
          shop={shop}
          purchase={purchase}
          onOrdered={onOrdered}
        />
      )}
    </Popup>
  );
}

function SheetBody({
  shop,
  purchase,
  onOrdered,
}: {
  shop: Shop;
  purchase: Purchase;
  onOrdered: (w: Waiting, paidInWechat: boolean) => void;
}) {
  const choices = payChoices(shop);
  const [method, setMethod] = useState<PayOrderMethod | undefined>(choices[0]?.method);
  const [amount, setAmount] = useState<number | undefined>(
    purchase.kind === 'topup' ? purchase.amounts[0] : purchase.price,
  );
  const create = useCreateOrder();
  const price = purchase.kind === 'card' ? purchase.price : amount;
  const name = purchase.kind === 'card' ? purchase.name : '充值';
  // A card: its contract is read and signed before paying (the tick, then the texted code).
  const [contract, setContract] = useState<{ title: string; text: string } | null>(null);
  const [sign, setSign] = useState<SignInput>({ agree: false, code: '' });
  const productId = purchase.kind === 'card' ? purchase.productId : null;
  useEffect(() => {
    if (productId !== null) void call(memberContractPreview, { productId }).then(setContract);
  }, [productId]);

  const pay = async () => {
    if (!method || price === undefined) return;
    if (purchase.kind === 'card' && !signReady(sign)) {
      await Dialog.alert({ content: sign.agree ? ContractMsg.code : ContractMsg.agree, confirmText: '知道了' });
      return;
    }
    try {
      const o = await create.mutateAsync({
        ...(purchase.kind === 'card'
          ? { productId: purchase.productId, agree: true, signCode: sign.code }
          : { mcId: purchase.mcId, amount: price }),
        method,
        ...(method === 'wechat_jsapi' ? takeWxCode() : {}),
        ...(method === 'alipay_wap' ? { returnUrl: returnUrl() } : {}),
      });
      const waiting = { orderNo: o.orderNo, name, amount: o.amount, expireTime: o.expireTime, codeUrl: o.codeUrl };
      if (o.payUrl) {
        rememberWaiting(waiting);
        window.location.assign(o.payUrl);
        return;
      }
      onOrdered(waiting, o.pay ? await payInWechat(o.pay) : false);
    } catch (e) {
      await Dialog.alert({ title: '没有下单', content: (e as Error).message, confirmText: '知道了' });
    }
  };

  return (
    <div className="sheet" data-testid="pay-sheet">
      <h2>{purchase.kind === 'card' ? `购买「${purchase.name}」` : `给「${purchase.cardName}」充值`}</h2>
      {purchase.kind === 'card' && <div className="meta">{purchase.summary}</div>}
      {purchase.kind === 'card' && (
        <>
          <div className="section">会员卡合同（付款前请阅读并签署）</div>
          {contract ? <ContractText title={contract.title} text={contract.text} /> : <DotLoading color="primary" />}
          <SignFields target={{ productId: purchase.productId }} value={sign} onChange={setSign} />
        </>
      )}
      {purchase.kind === 'topup' && <div className="section">充值金额</div>}
      {purchase.kind === 'topup' && (
        <div role="radiogroup" aria-label="充值金额" className="amounts">
          {purchase.amounts.map((a) => (
            <button
              key={a}
              type="button"
              role="radio"
              aria-checked={a === amount}
              className={a === amount ? 'amount on' : 'amount'}
              onClick={() => setAmount(a)}
            >
              {yuanText(a)}
            </button>
          ))}
        </div>
      )}
      <div className="section">付款方式</div>
      {choices.length === 0 ? (
        <div className="hint">本店暂未开通在线付款，请到前台办理。</div>
      ) : (
        <div role="radiogroup" aria-label="付款方式">
          {choices.map((c) => (
            <button
              key={c.method}
              type="button"
              role="radio"
              aria-checked={c.method === method}
              className={c.method === method ? 'card-option chosen' : 'card-option'}
              onClick={() => setMethod(c.method)}
              data-testid={`pay-${c.method}`}
            >
              <div>{c.label}</div>
              <div className="pay-hint">{c.hint}</div>
            </button>
          ))}
        </div>
      )}
      <Button
        block
        color="primary"
        size="large"
        style={{ marginTop: 16 }}
        disabled={!method || price === undefined}
        loading={create.isPending}
        onClick={() => void pay()}
      >
        确认支付{price !== undefined ? ` ${yuanText(price)}` : ''}
      </Button>
    </div>
  );
}
