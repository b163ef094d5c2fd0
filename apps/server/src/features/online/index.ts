import {
  cancelTimetableOnline,
  createTimetableMeeting,
  OnlineMsg,
  PICTURE_MAX_BYTES,
  queryOnlineSetting,
  queryTimetableOnline,
  sendTimetablePicture,
  updateOnlineSetting,
} from '@studio/contract';
import { badRequest, conflict } from '../../lib/errors.ts';
import { defineFeature } from '../../lib/feature.ts';
import { queuePicture } from './notify.ts';
import { cancelMeeting, createMeeting, onlineState } from './service.ts';
import { loadOnlineSetting, saveOnlineSetting } from './settings.ts';

/** Registers the online classroom, meeting settings and timetable-picture messaging calls. */
export const onlineFeature = defineFeature((r) => {
  r.handle(createTimetableMeeting, async (input, ctx) => {
    await createMeeting(ctx, ctx.store.id, input);
    return null;
  });
  r.handle(cancelTimetableOnline, async (input, ctx) => {
    await cancelMeeting(ctx, ctx.store.id, input.id);
    return null;
  });
  r.handle(queryTimetableOnline, (input, ctx) => onlineState(ctx.db, ctx.store.id, input.id));
  r.handle(queryOnlineSetting, (_input, ctx) => loadOnlineSetting(ctx.db, ctx.store.id));
  r.handle(updateOnlineSetting, async (input, ctx) => {
    await saveOnlineSetting(ctx.db, ctx.store.id, input);
    return null;
  });
  r.handle(sendTimetablePicture, async (input, ctx) => {
    const png = Buffer.from(input.image.slice(input.image.indexOf(',') + 1), 'base64');
    if (png.length > PICTURE_MAX_BYTES) throw badRequest(OnlineMsg.pictureTooLarge);
    if (!(await queuePicture(ctx.db, ctx.store.id, png))) throw conflict(OnlineMsg.webhookMissing);
    return null;
  });
});
