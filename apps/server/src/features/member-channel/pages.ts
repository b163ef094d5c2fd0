import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { storeLogo } from '../store-admin/public.ts';

const MAX_ID = 2_147_483_647;

/**
 * GET /member/files/logo/:storeId: a store's logo for the members' landing page (public: the
 * store shows it to anyone; other stored files stay behind the staff route).
 */
export function registerMemberPages(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { storeId: string } }>('/member/files/logo/:storeId', async (req, reply) => {
    const id = /^\d{1,10}$/.test(req.params.storeId) ? Number(req.params.storeId) : 0;
    if (id < 1 || id > MAX_ID) throw notFound('文件');
    const file = await storeLogo(deps.db, id);
    if (!file) throw notFound('文件');
    return reply
      .header('content-type', file.mime)
      .header('cache-control', 'public, max-age=600')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(file.data));
  });
}
