// A seller's own link (issue 30, item 4): members who open the members' page through it and buy
// online count as that staff member's sales for 销售提成.
import { z } from 'zod';
import { zOptId } from '../common.ts';
import { defineCall, fails, Roles, STORE_API } from '../define.ts';

/** A seller's code as the members' page carries it. */
export const SELLER_CODE = /^[a-z0-9]{8}$/;

export const SellerLinkMsg = { made: '推广链接已经生成过了' } as const;

const zSellerLink = z.object({ staffId: z.number(), code: z.string().nullable(), url: z.string().nullable() });

/**
 * 推广链接: a staff member's own address of the members' page (null until made). The manager sees
 * anyone's of the store (`staffId`); every other staff member (前台, 老师) only their own, whatever
 * `staffId` says.
 */
export const querySellerLink = defineCall({
  path: `${STORE_API}/query/seller/link`,
  kind: 'read',
  auth: 'store',
  roles: Roles.all,
  req: z.object({ staffId: zOptId() }),
  res: zSellerLink,
  idFields: ['staffId'],
  summary: '推广链接：员工自己的会员约课页面地址（未生成时为空）',
  example: { staffId: 2 },
  errors: fails.notFound('员工'),
});

/**
 * Makes the staff member's link once (the manager, from 销售提成); a member who opens it and buys
 * online counts as their sale (销售提成).
 */
export const createSellerLink = defineCall({
  path: `${STORE_API}/create/seller/link`,
  kind: 'write',
  auth: 'store',
  roles: Roles.manager,
  req: z.object({ staffId: zOptId() }),
  res: zSellerLink,
  idFields: ['staffId'],
  summary: '生成推广链接：会员从它进入后在线购卡、充值，计入该员工的销售提成',
  example: { staffId: 2 },
  errors: [...fails.notFound('员工'), ...fails.conflict(SellerLinkMsg.made)],
});

export const sellerLinkCalls = [querySellerLink, createSellerLink] as const;
