import { login, logout, me, Msg } from '@studio/contract';
import { defineFeature } from '../lib/feature.ts';
import { tooMany, unauthorized } from '../lib/errors.ts';
import { getDummyHash, verifyPassword } from './password.ts';
import { cookieName, createSession, loadProfile, SESSION_TTL_MS } from './sessions.ts';
import { clearAccountFailures, isLocked, recordFailure } from './rate-limit.ts';

export const authFeature = defineFeature((r) => {
  r.handle(login, async ({ account, password }, ctx) => {
    const ip = ctx.req.ip;
    if (await isLocked(ctx.db, account, ip)) throw tooMany(Msg.loginLocked);
    const staff = await ctx.db
      .selectFrom('staff')
      .select(['id', 'passwordHash'])
      .where((eb) => eb.or([eb('username', '=', account), eb('mobile', '=', account)]))
      .executeTakeFirst();
    const ok = await verifyPassword(staff?.passwordHash ?? (await getDummyHash()), password);
    if (!staff || !ok) {
      await recordFailure(ctx.db, account, ip);
      throw unauthorized(Msg.loginFailed);
    }
    await clearAccountFailures(ctx.db, account);
    const { token } = await createSession(ctx.db, staff.id);
    ctx.reply.setCookie(cookieName(ctx.config.cookieSecure), token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.cookieSecure,
      maxAge: SESSION_TTL_MS / 1000,
    });
    const profile = await loadProfile(ctx.db, staff.id);
    if (!profile) throw unauthorized();
    return profile;
  });

  r.handle(me, async (_input, ctx) => ctx.staff);

  r.handle(logout, async (_input, ctx) => {
    const name = cookieName(ctx.config.cookieSecure);
    await ctx.sessions.destroy(ctx.req.cookies[name]);
    ctx.reply.clearCookie(name, { path: '/' });
    return null;
  });
});
