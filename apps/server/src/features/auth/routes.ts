import { login, logout, me, Msg } from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { forbidden, tooMany, unauthorized } from '../../lib/errors.ts';
import { getDummyHash, verifyPassword } from '../../auth/password.ts';
import { cookieName, profileOf } from '../../auth/sessions.ts';
import { startSession } from './service.ts';
import { accountKey, attemptSucceeded, reserveAttempt } from '../../auth/rate-limit.ts';
import { findStaffByLogin } from '../../auth/repository.ts';

/** The staff's sign-in calls: log in, who am I, log out. */
export const authFeature = defineFeature((r) => {
  r.handle(login, async ({ account, password }, ctx) => {
    const ip = ctx.req.ip;
    const staff = await findStaffByLogin(ctx.db, account);
    // Counted per staff account whatever name was typed; an unknown name counts (and answers) alike.
    const key = accountKey(staff?.id, account);
    if (!(await reserveAttempt(ctx.db, key, ip))) throw tooMany(Msg.loginLocked);
    const ok = await verifyPassword(staff?.passwordHash ?? (await getDummyHash()), password);
    if (!staff || !ok) throw unauthorized(Msg.loginFailed);
    await attemptSucceeded(ctx.db, key, ip);
    // A disabled staff member (no enabled post left) is told so, only after the right password. The
    // profile built here (the row read above, with its posts) is the one the login answers with.
    const profile = await profileOf(ctx.db, staff);
    if (!profile.posts.length) throw forbidden(Msg.staffDisabled);
    return startSession(ctx, staff.id, profile);
  });

  r.handle(me, async (_input, ctx) => ctx.staff);

  r.handle(logout, async (_input, ctx) => {
    const name = cookieName(ctx.config.cookieSecure);
    await ctx.sessions.destroy(ctx.req.cookies[name]);
    ctx.reply.clearCookie(name, { path: '/' });
    return null;
  });
});
