// The card screens' reads and writes (card products, members' cards, ledgers).
import {
  BIG_TYPE_COUNT,
  CARD_TYPE_NO_EXPIRY,
  deleteCardProduct,
  insertCardProduct,
  insertMemberCard,
  memberCardLedger,
  memberPayments,
  refundMemberCard,
  refundPayOrder,
  topupMemberCard,
  updateCardProduct,
  updateMemberCardExpire,
  updateMemberCardStatus,
  type CardActivation,
  type MemberCardRow,
  type PayMethod,
  type TeacherLevel,
  type zCardProduct,
} from '@studio/contract';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import type { z } from 'zod';
import { call } from '../../api/client.ts';
import { toFen } from '../../shared/format.ts';
import { keys } from '../../shared/query-keys.ts';
import { useWrite } from '../../shared/use-write.ts';

export type CardProduct = z.infer<typeof zCardProduct>;

export function useCardLedger(cardId: number) {
  return useQuery({ queryKey: keys.cardLedger.one(cardId), queryFn: () => call(memberCardLedger, { id: cardId }) });
}

export type LedgerRow = NonNullable<ReturnType<typeof useCardLedger>['data']>[number];

/** A card amount typed by staff in its unit: a count, or yuan sent as fen. */
const wireAmount = (bigType: number, amount: number) => (bigType === BIG_TYPE_COUNT ? amount : toFen(amount));

/** Money the desk took or paid back, as staff typed it: yuan, a method, a remark. */
export interface PaymentFields {
  paid: number;
  method: PayMethod;
  payRemark?: string;
}
const wirePayment = (p: PaymentFields) => ({ amount: toFen(p.paid), method: p.method, remark: p.payRemark || null });

export interface NewCard extends PaymentFields {
  /** 销售员 (the commission counts them). */
  sellerId?: number;
  memberId: number;
  productId: number;
  bigType: number;
  total: number;
  expires: string | null;
}

/** Sells a card: its balance and expiry, and the money received for it. */
export function useIssueCard() {
  return useWrite(
    (c: NewCard) =>
      call(insertMemberCard, {
        mid: c.memberId,
        cardId: c.productId,
        totalCount: wireAmount(c.bigType, c.total),
        expireTime: c.expires,
        payment: wirePayment(c),
        sellerId: c.sellerId,
      }),
    { success: '发卡成功', changes: 'memberCard' },
  );
}

export function useTopUpCard(card: MemberCardRow) {
  return useWrite(
    (v: { amount: number; sellerId?: number } & PaymentFields) =>
      call(topupMemberCard, {
        id: card.id,
        amount: wireAmount(card.bigType, v.amount),
        payment: wirePayment(v),
        sellerId: v.sellerId,
      }),
    { success: '充值成功', changes: 'memberCard' },
  );
}

/** Pays back a whole unused card, or one top-up of it (`topupId`, its ledger entry). */
export function useRefundCard(card: MemberCardRow, topupId?: number) {
  return useWrite(
    (v: PaymentFields) =>
      call(refundMemberCard, {
        id: card.id,
        topupId,
        amount: toFen(v.paid),
        method: v.method,
        remark: v.payRemark || null,
      }),
    { success: '退款成功', changes: 'memberCard' },
  );
}

/**
 * 退卡 of a card bought online: its order refunded through the provider (原路退回 to the member's
 * WeChat Pay or Alipay), at most the card's quote; the desk may within the cooling-off days.
 */
export function useRefundCardOnline(orderNo: string) {
  return useWrite(
    (v: { paid: number; reason: string }) =>
      call(refundPayOrder, { orderNo, amount: toFen(v.paid), reason: v.reason.trim() }),
    { success: '退款已提交，款项将原路退回', changes: 'memberCard' },
  );
}

export function useMemberPayments(memberId: number) {
  return useQuery({
    queryKey: keys.member.payments(memberId),
    queryFn: () => call(memberPayments, { mid: memberId }),
    enabled: memberId > 0,
  });
}

export function useChangeExpiry(card: MemberCardRow) {
  return useWrite((date: string) => call(updateMemberCardExpire, { id: card.id, expireTime: date }), {
    success: '操作成功',
    changes: 'memberCard',
  });
}

export function useFreezeCard() {
  return useWrite((id: number, frozen: 0 | 1) => call(updateMemberCardStatus, { id, frozen }), {
    success: '操作成功',
    changes: 'memberCard',
  });
}

export interface ProductFields {
  cardName: string;
  bigType: 1 | 2;
  cardType: 1 | 2;
  perCount: number;
  /** Yuan. */
  price: number;
  /** The issue form's default balance, in the card's unit (count or yuan). */
  totalCount?: number | null;
  validDays?: number | null;
  courseIds: number[];
  /** 私教课包 (issue 43): the lesson types it books (courses too), and whom it is limited to. */
  lessonTypeIds?: number[];
  packBy?: 'any' | 'teacher' | 'level';
  teacherId?: number | null;
  teacherLevel?: TeacherLevel | null;
  /** 线上售卖: members buy it on their phone at `onlinePrice` (yuan). */
  onlineSale?: boolean;
  onlinePrice?: number | null;
  /** 体验卡: sold online once per member. */
  trial?: boolean;
  /** A card's life (issue 29): 开卡方式, leave, caps, the refund fee. */
  activation?: CardActivation;
  activationDate?: Dayjs | null;
  /** 指定日期开卡: 开卡日期已过时，售出当天开卡. */
  lateSaleStartsToday?: boolean;
  activateWithinDays?: number | null;
  leaveAllowed?: boolean;
  leaveTimes?: number | null;
  leaveDaysMax?: number | null;
  leaveDaysTotal?: number | null;
  maxPerDay?: number | null;
  maxPerWeek?: number | null;
  refundFeePercent?: number | null;
  /** 共享人数 (多人共享): members besides the holder who book on a card of it. */
  shareMax?: number | null;
}

/** Saves a card product; `onRefused` hears the server's refusal (its message names what is wrong). */
export function useSaveCardProduct(product: CardProduct | null, onRefused?: (msg: string) => void) {
  return useWrite(
    ({ lessonTypeIds = [], packBy = 'any', ...p }: ProductFields) => {
      const pack = lessonTypeIds.length > 0;
      const body = {
        ...p,
        teacherId: pack && packBy === 'teacher' ? (p.teacherId ?? null) : null,
        teacherLevel: pack && packBy === 'level' ? (p.teacherLevel ?? null) : null,
        perCount: wireAmount(p.bigType, p.perCount),
        price: toFen(p.price),
        totalCount: p.totalCount == null ? null : wireAmount(p.bigType, p.totalCount),
        validDays: p.cardType === CARD_TYPE_NO_EXPIRY ? null : (p.validDays ?? null),
        courseIds: [...(p.courseIds ?? []), ...lessonTypeIds],
        onlineSale: p.onlineSale ? (1 as const) : (0 as const),
        onlinePrice: p.onlinePrice == null ? undefined : toFen(p.onlinePrice),
        trial: p.trial ? (1 as const) : (0 as const),
        activation: p.activation ?? 'sale',
        activationDate: p.activation === 'date' && p.activationDate ? p.activationDate.format('YYYY-MM-DD') : null,
        lateSaleStartsToday: p.activation === 'date' && p.lateSaleStartsToday ? (1 as const) : (0 as const),
        activateWithinDays: p.activateWithinDays ?? undefined,
        leaveAllowed: p.leaveAllowed ? (1 as const) : (0 as const),
        leaveTimes: p.leaveTimes ?? null,
        leaveDaysMax: p.leaveDaysMax ?? null,
        leaveDaysTotal: p.leaveDaysTotal ?? null,
        maxPerDay: p.maxPerDay ?? null,
        maxPerWeek: p.maxPerWeek ?? null,
        refundFeePercent: p.refundFeePercent ?? 0,
        shareMax: p.shareMax ?? 0,
      };
      return product ? call(updateCardProduct, { id: product.id, ...body }) : call(insertCardProduct, body);
    },
    { success: '操作成功', changes: 'cardProduct', onError: (e) => onRefused?.(e.message) },
  );
}

export function useDeleteCardProduct() {
  return useWrite((id: number) => call(deleteCardProduct, { id }), { success: '删除成功', changes: 'cardProduct' });
}
