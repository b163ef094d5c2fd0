import {
  addLogo,
  loadStoreFuncs,
  queryBookingSetting,
  queryDeductionModeImpact,
  queryWechatSetting,
  saveStoreFuncs,
  saveWechatSetting,
  setupInit,
  setupStatus,
  storeSetting,
  updateBookingSetting,
} from '@studio/contract';
import { startSession } from '../auth/public.ts';
import { badRequest } from '../../lib/errors.ts';
import { defineFeature } from '../../lib/feature.ts';
import { checkOutboundTarget, OutboundRefused } from '../../lib/outbound.ts';
import { deductionModeImpact, loadBookingSetting, saveBookingSetting } from './booking-setting-service.ts';
import { addLogo as storeLogo, storeSettingOf } from './logo-service.ts';
import * as settings from './settings-service.ts';
import { initialSetup, needsSetup } from './setup-service.ts';

export { registerStoreFileRoute } from './file-route.ts';
export { storeFileUrl } from './logo-service.ts';

/** Registers the store settings, booking settings and first-run calls. */
export const storeAdminFeature = defineFeature((r) => {
  r.handle(
    saveWechatSetting,
    async (input, ctx) => {
      // The robot webhook is an outbound URL: the same gate as sending (lib/outbound.ts).
      if (typeof input.webhookUrl === 'string') {
        await checkOutboundTarget(input.webhookUrl, ctx.config.outboundAllowHosts).catch((err: unknown) => {
          throw err instanceof OutboundRefused ? badRequest(err.message) : err;
        });
      }
      await settings.saveWechatSetting(ctx.db, ctx.events, ctx.store.id, input);
      return null;
    },
    { tx: true },
  );
  r.handle(queryWechatSetting, async (_input, ctx) => settings.loadWechatSetting(ctx.db, ctx.store.id));

  r.handle(addLogo, async ({ image }, ctx) => storeLogo(ctx.db, ctx.store.id, image));
  r.handle(storeSetting, (_input, ctx) => storeSettingOf(ctx));

  r.handle(loadStoreFuncs, async (_input, ctx) => settings.loadStoreFuncs(ctx.db, ctx.store.id));
  r.handle(
    saveStoreFuncs,
    async ({ funcs }, ctx) => {
      await settings.saveStoreFuncs(ctx.db, ctx.store.id, funcs);
      return null;
    },
    { tx: true },
  );

  r.handle(queryBookingSetting, async (_input, ctx) => loadBookingSetting(ctx.db, ctx.store.id));
  r.handle(queryDeductionModeImpact, async (_input, ctx) => deductionModeImpact(ctx.db, ctx.store));
  r.handle(updateBookingSetting, async (input, ctx) => {
    const result = await saveBookingSetting(ctx.db, ctx.store.id, input);
    // Profiles carry store names; forget the cached ones of this instance.
    ctx.sessions.invalidate();
    return result;
  });

  r.handle(setupStatus, async (_input, ctx) => ({ needsSetup: await needsSetup(ctx.db) }));
  r.handle(setupInit, async (input, ctx) => {
    const staffId = await initialSetup(ctx.db, input);
    // Logged in at once, with the same cookie as /api/auth/login.
    return startSession(ctx, staffId);
  });
});
