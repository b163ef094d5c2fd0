import type { Executor } from '../../db/index.ts';
import { enqueue } from '../../outbox/enqueue.ts';
import { GiveUp, type OutboxHandler } from '../../outbox/index.ts';
import { onlineSession } from '../online/public.ts';
import { findMember } from '../reference/public.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { promotionMessage, SmsCapReached, smsSenderOf, storedSmsSetting } from './sms.ts';

/** The outbox topic of text messages to members. */
export const SMS_TOPIC = 'sms.notice';

interface SmsNotice {
  mobile: string;
  course: string;
  time: string;
}

/**
 * The engine-event listener: a member promoted from the waitlist gets a text message when the store
 * has an SMS provider and a promotion template. Queued in the promotion's transaction (the outbox),
 * sent after the commit: a promotion undone sends nothing, a slow provider delays no booking.
 */
export async function queuePromotionSms(tx: Executor, e: { storeId: number; sessionId: number; memberId: number }) {
  const setting = await storedSmsSetting(tx, e.storeId);
  if (!setting || setting.provider === 'none' || !setting.promotionTemplateId) return;
  const [member, session] = await Promise.all([
    findMember(tx, e.storeId, e.memberId),
    onlineSession(tx, e.sessionId, e.storeId),
  ]);
  if (!member?.mobile || !session) return;
  const notice: SmsNotice = {
    mobile: member.mobile,
    course: session.courseName.slice(0, 20),
    time: session.startTime.slice(5, 16),
  };
  await enqueue(tx, e.storeId, SMS_TOPIC, `sms:${e.memberId}`, notice);
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

/** Outbox handlers of the members' channel. */
export const smsHandlers: Record<string, OutboxHandler> = { [SMS_TOPIC]: sendSmsNotice };
