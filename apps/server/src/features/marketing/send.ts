import { storeScopeById } from '../../lib/store-scope.ts';
import { GiveUp, type OutboxHandler } from '../../outbox/index.ts';
import { SmsCapReached, smsSenderOf, type SmsMessage } from '../messaging/public.ts';
import { agreesNow } from './audience.ts';
import { MARKETING_TOPIC, marketingTemplateOf, WITHDRAWN_SINCE } from './service.ts';

/** The marketing template's one variable: Tencent {1}, Aliyun ${content}. */
const marketingMessage = (templateId: string, text: string): SmsMessage => ({
  templateId,
  ordered: [text],
  named: { content: text },
});

/**
 * Sends one queued marketing text with the store's provider and marketing template as set at sending
 * time. The person is asked again first: withdrawn since it was queued (a reply T, the link, their
 * switch), the text is given up. A provider's passing refusal is retried by the outbox; the store's
 * daily cap reached gives it up (the send log says why).
 */
const sendMarketingText: OutboxHandler = async (row, payload, ctx) => {
  const p = payload as { mobile: string; text: string };
  const store = await storeScopeById(ctx.db, row.storeId);
  if (!store) throw new GiveUp('门店不存在');
  if (!(await agreesNow(ctx.db, store.id, p.mobile))) throw new GiveUp(WITHDRAWN_SINCE);
  const templateId = await marketingTemplateOf(ctx.db, store.id);
  const sender = templateId ? await smsSenderOf(ctx.db, ctx.allowHosts, store) : null;
  if (!sender) throw new GiveUp('门店未设置短信服务或营销短信模板');
  try {
    await sender.send(p.mobile, marketingMessage(templateId, p.text));
  } catch (e) {
    if (e instanceof SmsCapReached) throw new GiveUp(e.message);
    throw e;
  }
};

export const marketingHandlers: Record<string, OutboxHandler> = { [MARKETING_TOPIC]: sendMarketingText };
