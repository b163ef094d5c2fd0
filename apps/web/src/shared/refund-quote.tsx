// A card's refund quote (the server's, `cardRefundQuote`) as the desk's 退卡 and 线上订单's 退款 show it.
import { CardMsg, cardRefundQuote, PROVIDER_LABEL, REFUND_RULES, RefundMsg, type ResOf } from '@studio/contract';
import { Descriptions } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client.ts';
import { yuan } from './format.ts';
import { keys } from './query-keys.ts';

/**
 * What a whole-card refund pays back now, by which rule, and through which order each part goes back.
 * `silent`: a refusal (e.g. the card refunded meanwhile) is shown by the caller, not as a toast.
 */
export function useRefundQuote(mcId: number, enabled = true, silent = false) {
  return useQuery({
    queryKey: keys.member.refundQuote(mcId),
    queryFn: () => call(cardRefundQuote, { mcId }, { silent }),
    enabled,
    staleTime: 0,
  });
}

/** One part of a card's refund quote: an online order (back through its provider) or the desk. */
export interface RefundPart {
  orderNo: string | null;
  provider: 'wechat' | 'alipay' | null;
  kind: 'card' | 'topup' | 'desk';
  amount: number;
}

/**
 * 退款去向 of a card's refund quote (issue 42, item 3), in the staff's words: each order, the way it
 * goes back (微信支付 / 支付宝) and how much, in yuan; `current` marks the order being refunded.
 */
export function RefundParts({ parts, current }: { parts: RefundPart[]; current?: string }) {
  return (
    <div data-testid="refund-parts">
      {parts.map((p) => (
        <div key={p.orderNo ?? 'desk'}>
          {p.orderNo
            ? `${p.kind === 'card' ? '购卡' : '充值'}订单 ${p.orderNo}：原路退回${PROVIDER_LABEL[p.provider!]} ${yuan(p.amount)} 元`
            : `门店退款 ${yuan(p.amount)} 元`}
          {current !== undefined && p.orderNo === current && '（本订单）'}
        </div>
      ))}
    </div>
  );
}

/**
 * The quote as a table: its rule, what was paid, what goes back (and how it was worked out), and 退款去向
 * when any of it goes back through an online order (`current`: the order being refunded).
 */
export function RefundQuoteTable({ q, current }: { q: ResOf<typeof cardRefundQuote>; current?: string }) {
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      style={{ marginBottom: 12 }}
      styles={{ label: { width: 96, whiteSpace: 'nowrap' } }}
    >
      <Descriptions.Item label="退款规则">{REFUND_RULES[q.rule]}</Descriptions.Item>
      <Descriptions.Item label="实付金额">{yuan(q.paid)} 元</Descriptions.Item>
      <Descriptions.Item label="应退金额">
        <b data-testid="refund-amount">{yuan(q.amount)} 元</b>
      </Descriptions.Item>
      <Descriptions.Item label="计算方式">{q.detail}</Descriptions.Item>
      {q.contract && (
        <Descriptions.Item label="合同依据">
          <span data-testid="refund-contract">
            会员卡合同第 {q.contract.version} 版（
            {q.contract.signedAt ? `${q.contract.signedAt.slice(0, 10)} 签署` : '待签约'}）：冷静期{' '}
            {q.contract.coolingOffDays} 天内未使用可全额退款；冷静期后：{q.contract.refund}
          </span>
        </Descriptions.Item>
      )}
      {q.parts.some((p) => p.orderNo) && (
        <Descriptions.Item label="退款去向">
          <RefundParts parts={q.parts} current={current} />
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

/**
 * Why a whole-card refund of this quote is not offered, in the desk's words, or null when it is: a
 * class still to come (cancel it first), the product's rule by a desk (within the cooling-off days:
 * the card was opened; after them: past the days), money paid online that must go back through its
 * order first (`online`: refunded at the desk), money the desk took that goes back at the desk first
 * (refunded through an online order).
 */
export function refundBlock(
  q: { allowed: boolean; coolingOff: boolean; toCome: number; parts: RefundPart[] },
  online: boolean,
): string | null {
  if (q.toCome > 0) return `${CardMsg.refundOpenBookings}（还有 ${q.toCome} 节）`;
  if (!q.allowed) return q.coolingOff ? CardMsg.refundOpened : CardMsg.refundManager;
  const orders = q.parts.flatMap((p) => (p.orderNo ? [p.orderNo] : []));
  if (!online && orders.length) return CardMsg.refundOnlineFirst(orders.join('、'));
  const desk = q.parts.find((p) => p.kind === 'desk');
  if (online && desk) return RefundMsg.deskFirst(`${yuan(desk.amount)} 元`);
  return null;
}
