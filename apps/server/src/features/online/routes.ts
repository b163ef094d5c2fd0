import {
  cancelTimetableOnline,
  createTimetableMeeting,
  queryOnlineSetting,
  queryTimetableOnline,
  retryTimetableMeeting,
  updateOnlineSetting,
} from '@studio/contract';
import { defineFeature } from '../../lib/feature.ts';
import { cancelMeeting, createMeeting, onlineState, retryOnDemandRoom } from './service.ts';
import { loadOnlineSetting, saveOnlineSetting } from './settings.ts';

/** Registers the online classroom and meeting settings calls. */
export const onlineFeature = defineFeature((r) => {
  r.handle(createTimetableMeeting, async (input, ctx) => {
    await createMeeting(ctx, ctx.store.id, input);
    return null;
  });
  r.handle(retryTimetableMeeting, async (input, ctx) => {
    await retryOnDemandRoom(ctx, ctx.store.id, input.id);
    return null;
  });
  r.handle(cancelTimetableOnline, async (input, ctx) => {
    await cancelMeeting(ctx, ctx.store.id, input.id);
    return null;
  });
  r.handle(queryTimetableOnline, (input, ctx) => onlineState(ctx.db, ctx.store.id, input.id));
  r.handle(queryOnlineSetting, (_input, ctx) => loadOnlineSetting(ctx.db, ctx.store.id));
  r.handle(
    updateOnlineSetting,
    async (input, ctx) => {
      await saveOnlineSetting(ctx.db, ctx.store.id, input);
      return null;
    },
    { tx: true },
  );
});
