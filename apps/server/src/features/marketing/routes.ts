import {
  memberUnsubscribe,
  memberUnsubscribeInfo,
  queryMarketingPreview,
  queryMarketingSendList,
  queryMarketingSetting,
  sendMarketing,
  updateMarketingSetting,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import * as s from './service.ts';

/** 营销短信: the manager's send to those who agreed, its setting; the public unsubscribe page. */
export const marketingFeature = defineFeature((r) => {
  r.handle(queryMarketingPreview, (input, ctx) => s.preview(ctx, input));
  r.handle(sendMarketing, (input, ctx) => s.send(ctx, input));
  r.handle(queryMarketingSendList, (input, ctx) => s.sendList(ctx, input.page));
  r.handle(queryMarketingSetting, (_input, ctx) => s.marketingSetting(ctx));
  r.handle(updateMarketingSetting, (input, ctx) => s.saveMarketingSetting(ctx, input.templateId), { tx: true });
  r.handle(memberUnsubscribeInfo, (input, ctx) => s.unsubscribeInfo(ctx, input.token));
  r.handle(memberUnsubscribe, (input, ctx) => s.unsubscribe(ctx, input.token));
});
