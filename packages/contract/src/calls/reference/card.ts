// Card products and the member cards issued from them (server: features/reference/card).
import { z } from 'zod';
import { zDate, zEmpty, zFlag, zId, zName } from '../../common.ts';
import { MAX_AMOUNT } from '../../constants.ts';
import { defineCall, fails, STORE_API } from '../../define.ts';
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
  summary: '卡种列表',
  example: {},
});

export const insertCardProduct = defineCall({
  path: `${STORE_API}/insert/card/product`,
  auth: 'store',
  req: z.object(zProductFields),
  res: z.object({ id: z.number() }),
  idFields: ['courseIds'],
  summary: '新增卡种（次卡或储值卡）及其可约课程',
  example: { cardName: '十次卡', bigType: 1, cardType: 1, perCount: 1, price: 100000, courseIds: [1] },
  errors: fails.notFound('课程'),
});

export const updateCardProduct = defineCall({
  path: `${STORE_API}/update/card/product`,
  auth: 'store',
  req: z.object({ id: zId('请选择卡种'), ...zProductFields }),
  res: z.null(),
  idFields: ['id', 'courseIds'],
  summary: '修改卡种',
  example: { id: 1, cardName: '十次卡', bigType: 1, cardType: 1, perCount: 1, price: 100000, courseIds: [1] },
  errors: [...fails.notFound('卡种', '课程'), ...fails.conflict(RefMsg.bigTypeLocked)],
});

export const deleteCardProduct = defineCall({
  path: `${STORE_API}/delete/card/product`,
  auth: 'store',
  req: z.object({ id: zId('请选择卡种') }),
  res: z.null(),
  idFields: ['id'],
  summary: '停用卡种（已发的卡不受影响）',
  example: { id: 1 },
  errors: fails.notFound('卡种'),
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
  summary: '给会员发卡',
  example: { mid: 1, cardId: 1, totalCount: 10, expireTime: '2026-12-31' },
  errors: [...fails.badRequest(RefMsg.expireRequired), ...fails.notFound('会员', '卡种')],
});

export const updateMemberCardStatus = defineCall({
  path: `${STORE_API}/update/member/card/status`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡'), frozen: zFlag() }),
  res: z.null(),
  idFields: ['id'],
  summary: '冻结或解冻会员卡',
  example: { id: 1, frozen: 1 },
  errors: fails.notFound('会员卡'),
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
  summary: '会员卡充值（次数或金额，分）',
  example: { id: 1, amount: 10 },
  errors: fails.notFound('会员卡'),
});

export const updateMemberCardExpire = defineCall({
  path: `${STORE_API}/update/member/card/expire`,
  auth: 'store',
  req: z.object({ id: zId('请选择会员卡'), expireTime: zDate(RefMsg.expireRequired) }),
  res: z.null(),
  idFields: ['id'],
  summary: '修改会员卡到期日期',
  example: { id: 1, expireTime: '2026-12-31' },
  errors: fails.notFound('会员卡'),
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
  summary: '会员卡流水（扣费、退回、充值）',
  example: { id: 1 },
  errors: fails.notFound('会员卡'),
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
