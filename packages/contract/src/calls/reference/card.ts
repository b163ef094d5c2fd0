// Card products and the member cards issued from them (server: features/reference/card).
import { z } from 'zod';
import { zDate, zEmpty, zFlag, zId, zName } from '../../common.ts';
import { MAX_AMOUNT } from '../../constants.ts';
import { defineCall, STORE_API } from '../../define.ts';
import { RefMsg, zAmount, zIdList } from './shared.ts';

/** Largest charge per person per class (a count, or fen: 100 万元). */
const MAX_PER_COUNT = 100_000_000;

export const zMemberCardRow = z.object({
  id: z.number(),
  cardId: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  cardType: z.number(),
  perCount: z.number(),
  totalCount: z.number(),
  usedCount: z.number(),
  expireTime: z.string().nullable(),
  frozen: z.number(),
});
export type MemberCardRow = z.infer<typeof zMemberCardRow>;

export const zCardProduct = z.object({
  id: z.number(),
  cardName: z.string(),
  bigType: z.number(),
  cardType: z.number(),
  perCount: z.number(),
  price: z.number(),
  enabled: z.number(),
  courses: z.array(z.object({ id: z.number(), name: z.string() })),
});

const zProductFields = {
  cardName: zName(RefMsg.cardName),
  bigType: z.union([z.literal(1), z.literal(2)], { error: '卡类别只能是1（次卡）或2（储值卡）' }),
  cardType: z.union([z.literal(1), z.literal(2)], { error: '有效期类型只能是1（有期限）或2（永久有效）' }),
  perCount: zAmount('每次扣除数量', MAX_PER_COUNT),
  price: zAmount('价格', MAX_AMOUNT),
  courseIds: zIdList('课程不正确'),
};

export const cardProductList = defineCall({
  path: `${STORE_API}/query/card/product/list`,
  auth: 'store',
  req: zEmpty,
  res: z.array(zCardProduct),
});

export const insertCardProduct = defineCall({
  path: `${STORE_API}/insert/card/product`,
  auth: 'store',
  req: z.object(zProductFields),
  res: z.object({ id: z.number() }),
  idFields: ['courseIds'],
});

export const updateCardProduct = defineCall({
  path: `${STORE_API}/update/card/product`,
  auth: 'store',
  req: z.object({ id: zId('请选择卡种'), ...zProductFields }),
  res: z.null(),
  idFields: ['id', 'courseIds'],
});

export const deleteCardProduct = defineCall({
  path: `${STORE_API}/delete/card/product`,
  auth: 'store',
  req: z.object({ id: zId('请选择卡种') }),
  res: z.null(),
  idFields: ['id'],
});

export const insertMemberCard = defineCall({
  path: `${STORE_API}/insert/member/card`,
  auth: 'store',
  req: z.object({
    mid: zId('请选择会员'),
    cardId: zId('请选择卡种'),
    totalCount: zAmount('卡内数量', MAX_AMOUNT),
    expireTime: zDate()
      .nullish()
      .transform((v) => v ?? null),
  }),
  res: z.object({ id: z.number() }),
  idFields: ['mid', 'cardId'],
});

export const updateMemberCardStatus = defineCall({
  path: `${STORE_API}/update/member/card/status`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡'), frozen: zFlag() }),
  res: z.null(),
  idFields: ['id'],
});

export const topupMemberCard = defineCall({
  path: `${STORE_API}/update/member/card/topup`,
  auth: 'store',
  req: z.object({
    id: zId('请选择会员卡'),
    amount: z.number({ error: RefMsg.topupAmount }).int(RefMsg.topupAmount).min(1, RefMsg.topupAmount).max(MAX_AMOUNT),
  }),
  res: z.null(),
  idFields: ['id'],
});

export const updateMemberCardExpire = defineCall({
  path: `${STORE_API}/update/member/card/expire`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡'), expireTime: zDate(RefMsg.expireRequired) }),
  res: z.null(),
  idFields: ['id'],
});

export const memberCardLedger = defineCall({
  path: `${STORE_API}/query/member/card/ledger`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡') }),
  res: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      amount: z.number(),
      reservationId: z.number().nullable(),
      timetableId: z.number().nullable(),
      operator: z.string().nullable(),
      remark: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
  idFields: ['id'],
});

export const cardCalls = [
  cardProductList,
  insertCardProduct,
  updateCardProduct,
  deleteCardProduct,
  insertMemberCard,
  updateMemberCardStatus,
  topupMemberCard,
  updateMemberCardExpire,
  memberCardLedger,
] as const;
