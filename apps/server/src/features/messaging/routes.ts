import { OnlineMsg, PICTURE_MAX_BYTES, sendTimetablePicture } from '@studio/contract';
import { badRequest, conflict } from '../../lib/errors.ts';
import { onEngineEvent } from '../../lib/events.ts';
import { defineFeature } from '../../lib/feature.ts';
import { announce, queuePicture, webhookAhead } from './service.ts';

/**
 * Store messaging: WeCom group-robot messages for the engine's changes (it listens to the engine's
 * events; nothing calls it) and the weekly timetable picture call.
 */
export const messagingFeature = defineFeature((r) => {
  onEngineEvent(announce, webhookAhead);
  r.handle(sendTimetablePicture, async (input, ctx) => {
    const png = Buffer.from(input.image.slice(input.image.indexOf(',') + 1), 'base64');
    if (png.length > PICTURE_MAX_BYTES) throw badRequest(OnlineMsg.pictureTooLarge);
    if (!(await queuePicture(ctx.db, ctx.store.id, png))) throw conflict(OnlineMsg.webhookMissing);
    return null;
  });
});
