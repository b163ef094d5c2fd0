// 多人共享 (issue 29, item 6): a card names up to its product's 共享人数 other members of the store, who
// book on it; the holder manages the list at the desk (server: features/card-share).
import { z } from 'zod';
import { zId } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';
import { CardMsg } from './reference/card.ts';

export const CardShareMsg = {
  member: '请选择共享给哪位会员',
  notShared: '该卡种不能共享，请先在卡种里设置共享人数',
  full: (n: number | string) => `这张卡最多共享给 ${n} 位会员`,
  holder: '持卡人本人无需添加为共享成员',
  already: '该会员已在这张卡的共享名单中',
  notIn: '该会员不在这张卡的共享名单中',
} as const;

const zShare = z.object({ mcId: zId('请选择会员卡'), mid: zId(CardShareMsg.member) });

/** Adds a member of the store to the card's list: they book on it from then on (every charge names them). */
export const addCardShare = defineCall({
  path: `${STORE_API}/add/card/share`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zShare,
  res: z.null(),
  idFields: ['mcId', 'mid'],
  summary: '多人共享：把会员卡共享给本店另一位会员（可用这张卡约课）',
  example: { mcId: 1, mid: 2 },
  errors: [
    ...fails.badRequest(CardShareMsg.holder),
    ...fails.notFound('会员卡', '会员'),
    ...fails.conflict(
      CardMsg.refunded,
      CardShareMsg.notShared,
      CardShareMsg.full('{N}'),
      CardShareMsg.already,
      CardMsg.changed,
    ),
  ],
});

/** Takes a member off the card's list: their bookings already made stay (paid); new ones are refused. */
export const deleteCardShare = defineCall({
  path: `${STORE_API}/delete/card/share`,
  kind: 'write',
  auth: 'store',
  roles: Roles.desk,
  req: zShare,
  res: z.null(),
  idFields: ['mcId', 'mid'],
  summary: '多人共享：取消某位会员对会员卡的共享（已约的课程保留）',
  example: { mcId: 1, mid: 2 },
  errors: [...fails.notFound('会员卡', '会员'), ...fails.conflict(CardShareMsg.notIn)],
});

export const cardShareCalls = [addCardShare, deleteCardShare] as const;
