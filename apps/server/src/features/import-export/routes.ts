import {
  exportStoreData,
  importMembers,
  queryImportColumns,
  queryJobProgress,
  type ExportFormat,
} from '@studio/contract';
import type { FastifyInstance } from 'fastify';
import { cookieName } from '../../auth/sessions.ts';
import type { AppDeps, CallCtx } from '../../lib/context.ts';
import { notFound, unauthorized } from '../../lib/errors.ts';
import { auditExport } from '../../lib/audit.ts';
import { defineFeature } from '../../lib/feature.ts';
import { localDateTime } from '../../lib/time.ts';
import { exportStream } from './export.ts';
import { progressOf } from './progress.ts';
import { importColumns, importFile } from './service.ts';

/** How long the address 导出全部数据 answers stays good. */
const EXPORT_LINK_MS = 10 * 60 * 1000;
const EXPORT_FILE = /^(\d{1,10})-(\d{13})(?:-([A-Za-z0-9-]{8,64}))?\.(xlsx|json)$/;

/** The address of a store's export: store, expiry and format (the login is checked when it is fetched). */
function exportLink(ctx: CallCtx, format: ExportFormat, progressId: string | undefined) {
  const day = localDateTime(ctx.store.timezone).slice(0, 10).replaceAll('-', '');
  const progress = progressId ? `-${progressId}` : '';
  return {
    url: `/store/files/export/${ctx.store.id}-${Date.now() + EXPORT_LINK_MS}${progress}.${format}`,
    fileName: `${ctx.store.name}-全部数据-${day}.${format}`,
  };
}

/** 导入 and 导出全部数据. */
export const importExportFeature = defineFeature((r) => {
  r.handle(queryImportColumns, (input, ctx) => importColumns(ctx, input));
  r.handle(importMembers, (input, ctx) => importFile(ctx, input));
  r.handle(exportStoreData, async (input, ctx) => {
    auditExport(ctx.db, `全部数据（.${input.format}）`);
    return exportLink(ctx, input.format, input.progressId);
  });
  r.handle(queryJobProgress, (input, ctx) => progressOf(ctx.db, ctx.dialect, ctx.store.id, input.progressId));
});

/**
 * GET /store/files/export/<store>-<expiry>[-<progress id>].<format> streams the store's data (导出全部数据) to a
 * logged-in 店长 of that store, read page by page as it is sent, so a large store is never held in
 * memory. The contract only describes POST calls, so app.ts registers this route through this function.
 */
export function registerExportRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { file: string } }>('/store/files/export/:file', async (req, reply) => {
    const staff = await deps.sessions.resolve(req.cookies[cookieName(deps.config.cookieSecure)]);
    if (!staff) throw unauthorized();
    const m = EXPORT_FILE.exec(req.params.file);
    const post = m && staff.posts.find((p) => p.storeId === Number(m[1]) && p.role === 'manager');
    if (!m || !post || Number(m[2]) < Date.now()) throw notFound('导出文件');
    const format = m[4] as ExportFormat;
    const now = localDateTime(post.store.timezone);
    const name = `${post.store.name}-全部数据-${now.slice(0, 10).replaceAll('-', '')}.${format}`;
    const stream = exportStream(
      deps.db,
      deps.dialect,
      { id: post.storeId, name: post.store.name },
      format,
      now,
      m[3],
      (err) => req.log.error({ err, reqId: req.id }, 'export failed'),
    );
    return reply
      .header(
        'content-type',
        format === 'xlsx'
          ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
          : 'application/json; charset=utf-8',
      )
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-disposition',
        `attachment; filename="export.${format}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      .send(stream);
  });
}
