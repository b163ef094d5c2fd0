import { Button, Dialog, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { inWechat, useCheckOrder, yuanText, type Waiting } from './payment.ts';
import './payment.css';

/** WeChat's pay QR as an image, drawn on the phone (the QR library loads only when one is shown). */
export function useQr(text: string | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    if (text) {
      void import('qrcode').then((qr) => qr.toDataURL(text, { width: 440, margin: 1 })).then((u) => live && setUrl(u));
    }
    return () => {
      live = false;
    };
  }, [text]);
  return text ? url : null;
}

/**
 * Waiting for a payment: the order, WeChat's QR when it is paid by scanning, and 我已支付, which asks
 * the server (and it the provider). Paid, the new card (or the top-up) is shown in 我的会员卡;
 * `check` asks at once (back from Alipay's page, or WeChat's sheet said paid).
 */
export function OrderWait({
  order,
  check,
  onPaid,
  onBack,
}: {
  order: Waiting;
  check: boolean;
  /** Paid: the card issued or topped up. */
  onPaid: (memberCardId: number | null, kind: 'card' | 'topup') => void;
  onBack: () => void;
}) {
  const qr = useQr(order.codeUrl);
  const ask = useCheckOrder();
  const asked = useRef(false);

  const confirm = async (quiet = false) => {
    try {
      const o = await ask.mutateAsync(order.orderNo);
      if (o.status === 'created') {
        if (!quiet) Toast.show({ content: '还没有收到付款。付款后请稍等几秒，再点“我已支付”', duration: 3000 });
        return;
      }
      if (o.status === 'closed') {
        await Dialog.alert({
          title: '订单已关闭',
          content: '超过付款时间或付款未成功，订单已关闭，没有扣款。需要时请重新购买。',
          confirmText: '知道了',
        });
        onBack();
        return;
      }
      if (o.status === 'exception') {
        // 异常订单: paid, but the card could not be issued or topped up; the store refunds it in full.
        await Dialog.alert({
          title: '已付款，未能到账',
          content: `付款已收到，但${o.kind === 'topup' ? '这张卡已不能充值' : '这张卡暂时无法发放'}。门店会将 ${yuanText(o.amount)} 原路退回，请留意退款通知。`,
          confirmText: '知道了',
        });
        onBack();
        return;
      }
      Toast.show({ icon: 'success', content: o.kind === 'topup' ? '充值成功' : '支付成功，会员卡已到账' });
      onPaid(o.memberCardId, o.kind);
    } catch (e) {
      Toast.show({ content: (e as Error).message, duration: 3000 });
    }
  };

  useEffect(() => {
    if (check && !asked.current) {
      asked.current = true;
      void confirm(true);
    }
  });

  return (
    <div className="cards">
      <div className="wait" data-testid="order-wait">
        <h2>{order.codeUrl ? '微信扫码付款' : '等待付款结果'}</h2>
        <div className="meta">{order.name}</div>
        <div className="price">{yuanText(order.amount)}</div>
        {order.codeUrl &&
          (qr ? (
            <img className="qr" src={qr} alt="微信付款二维码" data-testid="pay-qr" data-text={order.codeUrl} />
          ) : (
            <div className="qr" />
          ))}
        {order.codeUrl && (
          <div className="hint">
            {inWechat
              ? '长按二维码，选择“识别图中的二维码”付款。'
              : '长按二维码保存到相册（或截图），打开微信“扫一扫”，从相册选取这张图片付款。'}
          </div>
        )}
        <div className="hint">
          请在 {order.expireTime.slice(11, 16)} 前完成付款，超时订单自动关闭。付款完成后点“我已支付”。
        </div>
        <div className="actions">
          <Button block color="primary" size="large" loading={ask.isPending} onClick={() => void confirm()}>
            我已支付
          </Button>
          <Button block size="large" onClick={onBack}>
            返回
          </Button>
        </div>
      </div>
    </div>
  );
}
