import {
  OnlineMsg,
  PICTURE_MAX_BYTES,
  querySmsSetting,
  sendTimetablePicture,
  updateSmsSetting,
} from '@studio/contract';
import { badRequest, conflict } from '../../lib/errors.ts';
import { defineFeature } from '../../lib/feature.ts';
import { roomCreated } from '../online/public.ts';
import { cardsDigest } from '../reports/public.ts';
import { messagingSettingSaved } from '../store-admin/public.ts';
import { bookingCancelled, bookingMade, bookingsMade, sessionDeleted } from '../timetable/public.ts';
import { waitlistPromoted } from '../waitlist/public.ts';
import {
  announceBooking,
  announceBookings,
  announceCancel,
  announceCardDigest,
  announcePromotion,
  announceRoom,
  announceSessionDeleted,
  forgetRobot,
  queuePicture,
} from './service.ts';
import { loadSmsSetting, saveSmsSetting } from './sms.ts';

/**
 * Store messaging: WeCom group-robot messages for the engine's changes (it listens to the engine's
 * events), the weekly timetable picture call, and the text message provider's setting (the sending
 * itself is sms.ts, used by the members' sign-in, the reminders and today's count).
 */
export const messagingFeature = defineFeature((r) => {
  // Messages at the announce stage: they tell what the change's other listeners finally did.
  r.on(messagingSettingSaved, forgetRobot, 'write');
  r.on(bookingMade, announceBooking, 'announce');
  r.on(bookingsMade, announceBookings, 'announce');
  r.on(bookingCancelled, announceCancel, 'announce');
  r.on(waitlistPromoted, announcePromotion, 'announce');
  r.on(sessionDeleted, announceSessionDeleted, 'announce');
  r.on(roomCreated, announceRoom, 'announce');
  r.on(cardsDigest, announceCardDigest, 'announce');
  r.handle(sendTimetablePicture, async (input, ctx) => {
    const png = Buffer.from(input.image.slice(input.image.indexOf(',') + 1), 'base64');
    if (png.length > PICTURE_MAX_BYTES) throw badRequest(OnlineMsg.pictureTooLarge);
    if (!(await queuePicture(ctx.db, ctx.store.id, png))) throw conflict(OnlineMsg.webhookMissing);
    return null;
  });
  // The store's text message provider (短信服务), used by the members' sign-in codes and the reminders.
  r.handle(querySmsSetting, async (_input, ctx) => loadSmsSetting(ctx.db, ctx.store));
  r.handle(
    updateSmsSetting,
    async (input, ctx) => {
      await saveSmsSetting(ctx.db, ctx.store.id, input);
      return null;
    },
    { tx: true },
  );
});
