import type { FastifyInstance } from 'fastify';
import { cookieName } from '../../auth/sessions.ts';
import type { AppDeps } from '../../lib/context.ts';
import { notFound, unauthorized } from '../../lib/errors.ts';
import { findStoreFile } from './repository.ts';

const MAX_ID = 2_147_483_647;

/**
 * GET /store/files/:id serves a stored file (the store logo) to a logged-in staff member of the
 * store that owns it; any other store's file, or an unknown id, is a 404 (its existence is not leaked).
 * The contract only describes POST calls, so app.ts registers this route through this function.
 */
export function registerStoreFileRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { id: string } }>('/store/files/:id', async (req, reply) => {
    const staff = await deps.sessions.resolve(req.cookies[cookieName(deps.config.cookieSecure)]);
    if (!staff) throw unauthorized();
    const id = /^\d{1,10}$/.test(req.params.id) ? Number(req.params.id) : 0;
    if (id < 1 || id > MAX_ID) throw notFound('文件');
    const file = await findStoreFile(
      deps.db,
      id,
      staff.posts.map((p) => p.storeId),
    );
    if (!file) throw notFound('文件');
    return reply
      .header('content-type', file.mime)
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', 'inline')
      .send(Buffer.from(file.data));
  });
}
