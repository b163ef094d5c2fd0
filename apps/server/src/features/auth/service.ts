import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { StaffIdentity } from '../../auth/identity.ts';
import { cookieName, createSession, loadProfile, SESSION_TTL_MS } from '../../auth/sessions.ts';
import { unauthorized } from '../../lib/errors.ts';

/**
 * Logs a staff member in: a new session, its cookie on the answer, and the profile to answer with
 * (`profile` when the caller has read it already, else read here).
 */
export async function startSession(
  ctx: { db: Db; reply: FastifyReply; config: Config },
  staffId: number,
  profile?: StaffIdentity,
): Promise<StaffIdentity> {
  const { token } = await createSession(ctx.db, staffId);
  ctx.reply.setCookie(cookieName(ctx.config.cookieSecure), token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.config.cookieSecure,
    maxAge: SESSION_TTL_MS / 1000,
  });
  const answer = profile ?? (await loadProfile(ctx.db, staffId));
  if (!answer) throw unauthorized();
  return answer;
}
