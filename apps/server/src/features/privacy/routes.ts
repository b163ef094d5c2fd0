import {
  memberAskErasure,
  memberMyHealth,
  memberSubmitHealth,
  queryHealthFlags,
  queryHealthSetting,
  queryMemberHealth,
  updateHealthSetting,
  memberMyData,
  memberMyPrivacy,
  memberUpdateConsent,
  memberWithdrawErasure,
  queryErasureRequestList,
  revealMemberMobile,
  sheetCell,
  updateErasureRequest,
  type DataSection,
} from '@studio/contract';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';
import { unauthorized } from '../../lib/errors.ts';
import { defineFeature } from '../../lib/feature.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { memberBooking, memberCookieName, resolveMember } from '../member-channel/public.ts';
import * as h from './health-service.ts';
import * as s from './service.ts';

/** Members' own data: their download, consents, health declarations, and requests to delete the account with the manager's decision. */
export const privacyFeature = defineFeature((r) => {
  r.handle(memberMyData, (_input, ctx) => s.myData(ctx.db, ctx.store, ctx.member.id));
  r.handle(memberMyPrivacy, (_input, ctx) => s.myPrivacy(ctx));
  r.handle(memberUpdateConsent, (input, ctx) => s.setConsent(ctx, input.kind, input.granted), { tx: true });
  r.handle(memberAskErasure, (input, ctx) => s.askErasure(ctx, input.reason ?? null), { tx: true });
  r.handle(memberWithdrawErasure, (_input, ctx) => s.withdrawErasure(ctx), { tx: true });
  r.handle(queryErasureRequestList, (input, ctx) => s.erasureList(ctx, input.status ?? null));
  r.handle(updateErasureRequest, (input, ctx) => s.decideErasure(ctx, input));
  r.handle(revealMemberMobile, (input, ctx) => s.revealMobile(ctx, input.memberId));
  // 健康声明: the questionnaire, the member's answers, the staff's mark and (allowed) answers.
  r.handle(memberMyHealth, (_input, ctx) => h.myHealth(ctx));
  r.handle(memberSubmitHealth, (input, ctx) => h.submitHealth(ctx, input), { tx: true });
  r.handle(queryHealthSetting, (_input, ctx) => h.healthSetting(ctx));
  r.handle(updateHealthSetting, (input, ctx) => h.saveHealthSetting(ctx, input), { tx: true });
  r.handle(queryHealthFlags, (input, ctx) => h.healthFlags(ctx, input.tid));
  r.handle(queryMemberHealth, (input, ctx) => h.memberHealth(ctx, input.mid));
  r.on(memberBooking, h.refuseUndeclared, 'guard');
});

/** The download as one .xlsx workbook: a sheet a part, its Chinese headings first. */
async function workbookOf(sections: DataSection[]): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  for (const s of sections) {
    const ws = wb.addWorksheet(s.title.slice(0, 31));
    ws.columns = s.columns.map((c) => ({ header: c.header, key: c.key, width: 16 }));
    ws.getRow(1).font = { bold: true };
    for (const row of s.rows) ws.addRow(row.map(sheetCell));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/**
 * GET /member/files/my-data.xlsx: the signed-in member's data (the same parts as query/my/data) as
 * a workbook. The contract only describes POST calls, so app.ts registers this route here.
 */
export function registerMyDataRoute(app: FastifyInstance, deps: AppDeps): void {
  app.get('/member/files/my-data.xlsx', async (req, reply) => {
    const who = await resolveMember(deps.db, req.cookies[memberCookieName(deps.config.cookieSecure)]);
    const store = who && (await storeScopeById(deps.db, who.storeId));
    if (!who || !store) throw unauthorized();
    const data = await s.myData(deps.db, store, who.member.id);
    const day = data.generatedAt.slice(0, 10).replaceAll('-', '');
    return reply
      .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .header(
        'content-disposition',
        `attachment; filename="my-data.xlsx"; filename*=UTF-8''${encodeURIComponent(`我的信息-${day}.xlsx`)}`,
      )
      .send(await workbookOf(data.sections));
  });
}
