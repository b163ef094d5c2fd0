import {
  changePassword,
  insertStaff,
  querySellerList,
  queryStaffList,
  resetStaffPassword,
  updateStaff,
} from '@studio/contract';
import { cookieName } from '../../auth/sessions.ts';
import { defineFeature } from '../../lib/feature.ts';
import { addStaff, changeOwnPassword, editStaff, listStaff, resetPassword } from './service.ts';
import { sellerOptions } from './seller.ts';

/** 员工: a store's staff and their roles; a staff member's own password. */
export const staffFeature = defineFeature((r) => {
  r.handle(queryStaffList, (_input, ctx) => listStaff(ctx));
  r.handle(querySellerList, (_input, ctx) => sellerOptions(ctx));
  r.handle(insertStaff, (input, ctx) => addStaff(ctx, input));
  r.handle(updateStaff, async (input, ctx) => {
    await editStaff(ctx, input);
    return null;
  });
  r.handle(resetStaffPassword, async (input, ctx) => {
    await resetPassword(ctx, input.id, input.password);
    return null;
  });
  r.handle(changePassword, async (input, ctx) => {
    const token = ctx.req.cookies[cookieName(ctx.config.cookieSecure)];
    await changeOwnPassword(ctx, input.oldPassword, input.newPassword, token);
    return null;
  });
});
