// 转卡 (issue 29, item 5): the desk moves a member card to another member of the store.
import { z } from 'zod';
import { zId } from '../common.ts';
import { MAX_AMOUNT, PAY_METHODS, type PayMethod } from '../constants.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { CardMsg } from './reference/card.ts';
import { prepaidLimitErrors } from './prepaid-limits.ts';
import { zAmount, zNullableText } from './reference/shared.ts';

export const TransferMsg = {
  toMember: '请选择转给哪位会员',
  sameHolder: '不能转给持卡人自己',
  futureBookings: '请选择未上课程的预约如何处理（保留给原持卡人或取消）',
  feeMethod: '收取转卡手续费时请选择收款方式',
  frozen: '该卡已冻结，请先解冻再转卡',
  /** `n` pendings waiting for sign-in: they are charged at sign-in, which the new holder's card cannot do for someone else. */
  keepPendings: (n: number | string) => `该卡有 ${n} 个待签到的预约，转卡时只能取消这些预约`,
} as const;

/** What a transfer would do: the holder, and the card's bookings of classes not started. */
export const queryCardTransferPreview = defineCall({
  path: `${STORE_API}/query/card/transfer/preview`,
  kind: 'read',
  auth: 'store',
  roles: Roles.desk,
  req: z.object({ mcId: zId('请选择会员卡') }),
  res: z.object({
    holder: z.object({ id: z.number(), name: z.string(), mobile: z.string() }),
    /** Live bookings (charged) and pendings waiting for sign-in of classes not ended. */
    bookings: z.number(),
    pendings: z.number(),
  }),
  summary: '转卡前查看：持卡人，以及该卡未上课程的预约数',
  example: { mcId: 1 },
  errors: fails.notFound('会员卡'),
});

/**
 * Moves the card to `toMid` (fee in fen with its method, optional); the card's bookings of classes
 * not ended stay with the old holder (`keep`, already paid) or are cancelled with refund (`cancel`).
 * Guarded once: a booking that read the card before pays nothing once it has moved.
 */
export const transferMemberCard = defineCall({
  path: `${STORE_API}/transfer/member/card`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: z
    .object({
      mcId: zId('请选择会员卡'),
      toMid: zId(TransferMsg.toMember),
      fee: zAmount('转卡手续费', MAX_AMOUNT).default(0),
      method: z.enum(Object.keys(PAY_METHODS) as [PayMethod, ...PayMethod[]], { error: CardMsg.payMethod }).optional(),
      futureBookings: z.enum(['keep', 'cancel'], { error: TransferMsg.futureBookings }),
      remark: zNullableText(200),
    })
    .superRefine((v, ctx) => {
      if (v.fee > 0 && !v.method) ctx.addIssue({ code: 'custom', path: ['method'], message: TransferMsg.feeMethod });
    }),
  res: z.null(),
  idFields: ['mcId', 'toMid'],
  summary: '转卡：把会员卡转给本店另一位会员（可收手续费；未上课程的预约保留给原持卡人或取消退回）',
  example: { mcId: 1, toMid: 2, fee: 5000, method: 'wechat', futureBookings: 'cancel', remark: null },
  errors: [
    ...fails.badRequest(TransferMsg.feeMethod, TransferMsg.futureBookings, TransferMsg.sameHolder),
    ...fails.notFound('会员卡', '会员'),
    ...fails.conflict(CardMsg.refunded, CardMsg.changed, TransferMsg.frozen, TransferMsg.keepPendings('{N}')),
    ...prepaidLimitErrors,
  ],
});

export const cardTransferCalls = [queryCardTransferPreview, transferMemberCard] as const;
