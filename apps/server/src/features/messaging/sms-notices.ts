import { GiveUp, type OutboxHandler } from '../../outbox/index.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { promotionMessage, SmsCapReached, smsSenderOf } from './sms.ts';

/**
 * The outbox topic of text messages to members queued before reminders existed: a promotion is now a
 * reminder of kind 'promoted' (features/reminders, WeChat or SMS); rows of this topic still queued
 * when the app was updated are sent here.
 */
export const SMS_TOPIC = 'sms.notice';

interface SmsNotice {
  mobile: string;
  course: string;
  time: string;
}

/**
 * Sends a queued notice with the store's provider as set at sending time (a provider removed, or
 * its promotion template cleared, since: given up). A provider's refusal is retried by the outbox.
 */
export const sendSmsNotice: OutboxHandler = async (row, payload, ctx) => {
  const n = payload as SmsNotice;
  const store = await storeScopeById(ctx.db, row.storeId);
  const sender = store && (await smsSenderOf(ctx.db, ctx.allowHosts, store));
  if (!sender?.promotionTemplateId) throw new GiveUp('门店未设置短信服务或候补递补通知模板');
  try {
    await sender.send(n.mobile, promotionMessage(sender.promotionTemplateId, n.course, n.time));
  } catch (e) {
    if (e instanceof SmsCapReached) throw new GiveUp(e.message);
    throw e;
  }
};

/** Outbox handlers of text messages. */
export const smsHandlers: Record<string, OutboxHandler> = { [SMS_TOPIC]: sendSmsNotice };
