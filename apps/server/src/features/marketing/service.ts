import { createHash } from 'node:crypto';
import {
  LEAD_STAGES,
  MARKETING_REPEAT_MINUTES,
  MARKETING_SEND_PAGE,
  MARKETING_STOP,
  MarketingMsg,
  type LeadStage,
  memberUnsubscribe,
  type ParsedReqOf,
  type queryMarketingPreview,
  type sendMarketing,
} from '@studio/contract';
import type { Db, Dialect, Executor } from '../../db/index.ts';
import { audit, systemScope } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { addMinutes, localDateTime, storeNow } from '../../lib/time.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { enqueue } from '../../outbox/index.ts';
import { recordLeadConsents } from '../leads/public.ts';
import { publicBaseOf, storedSmsSetting } from '../messaging/public.ts';
import { recordMemberMarketing } from '../privacy/public.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import { agreesNow, audienceOf, holdersOf } from './audience.ts';
import * as repo from './repository.ts';
import { openUnsubscribeToken, unsubscribeToken, uplinkKey } from './token.ts';

/** The outbox topic of marketing texts: one row a recipient (send.ts sends it). */
export const MARKETING_TOPIC = 'sms.marketing';
/** The store setting of marketing texts (JSON: the provider's marketing template). */
const KEY = 'marketing';

export async function marketingTemplateOf(ex: Executor, storeId: number): Promise<string> {
  const raw = await getSetting(ex, storeId, KEY);
  try {
    return raw ? String((JSON.parse(raw) as { templateId?: unknown }).templateId ?? '') : '';
  } catch {
    return '';
  }
}

/** The setting, the provider and the reply address to give the provider. */
export async function marketingSetting(ctx: CallCtx) {
  const sms = await storedSmsSetting(ctx.db, ctx.store.id);
  const provider = sms?.provider ?? 'none';
  const { base } = await publicBaseOf(ctx);
  const key = await uplinkKey(ctx.db, ctx.store.id);
  return {
    templateId: await marketingTemplateOf(ctx.db, ctx.store.id),
    provider,
    uplinkUrl: provider === 'none' ? '' : `${base}/sms/uplink/${provider}/${ctx.store.id}/${key}`,
  };
}

export async function saveMarketingSetting(ctx: CallCtx, templateId: string) {
  await putSetting(ctx.db, ctx.store.id, KEY, JSON.stringify({ templateId }));
  audit(ctx.db, { kind: 'settings', target: '营销短信设置', after: { 营销短信模板: templateId } });
  return null;
}

/** The text a recipient reads: the manager's, then the unsubscribe link and 回T退订, always (added here). */
export const marketingText = (text: string, link: string) => `${text.trim()} 退订点 ${link} ${MARKETING_STOP}`;

const linkOf = (base: string, token: string) => `${base}/m/?u=${token}`;

export async function preview(ctx: CallCtx, input: ParsedReqOf<typeof queryMarketingPreview>) {
  const { counts } = await audienceOf(ctx.db, ctx.store.id, input);
  const { base } = await publicBaseOf(ctx);
  return { ...counts, sample: marketingText(input.text, linkOf(base, 'x'.repeat(22))) };
}

/** Given up at sending time because the person withdrew since (send.ts): the history counts these apart. */
export const WITHDRAWN_SINCE = '已退订营销短信';

/** What makes two sends the same: the text and the audience (stages in one order). */
function sendKeyOf(input: ParsedReqOf<typeof sendMarketing>): string {
  const stages = [...input.leadStages].sort();
  const what = JSON.stringify([input.text.trim(), input.members, input.leads, input.leads ? stages : []]);
  return createHash('sha256').update(what).digest('hex');
}

/**
 * Queues the text to every agreeing person of the audience, once a mobile, through the outbox (the
 * worker sends them with the store's provider and marketing template, checking the consent again),
 * with the send's row (发送记录) and audit entry, in one write. The same text to the same audience
 * within MARKETING_REPEAT_MINUTES is refused (409): the send's key is unique per store
 * (`marketing_send_key_uq`), so of two at once (two tabs, two instances) one writes; an older send's
 * key is retired first by one guarded UPDATE.
 */
export async function send(ctx: CallCtx, input: ParsedReqOf<typeof sendMarketing>) {
  const sms = await storedSmsSetting(ctx.db, ctx.store.id);
  if (!sms) throw badRequest(MarketingMsg.noSms);
  if (!(await marketingTemplateOf(ctx.db, ctx.store.id))) throw badRequest(MarketingMsg.template);
  const { recipients, counts } = await audienceOf(ctx.db, ctx.store.id, input);
  if (!recipients.length) throw badRequest(MarketingMsg.nobody);
  const { base } = await publicBaseOf(ctx);
  const texts = await Promise.all(
    recipients.map(async (mobile) => ({
      mobile,
      text: marketingText(input.text, linkOf(base, await unsubscribeToken(ctx.db, ctx.store.id, mobile))),
    })),
  );
  const key = sendKeyOf(input);
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    const now = storeNow(ctx);
    const row = {
      storeId: ctx.store.id,
      staffId: ctx.staff.id,
      dedupeKey: key,
      text: input.text.trim(),
      toMembers: input.members ? 1 : 0,
      toLeads: input.leads ? 1 : 0,
      leadStages: JSON.stringify(input.leads ? input.leadStages : []),
      ...counts,
      createdAt: now,
    };
    let sendId = await repo.insertSendOnce(tx, row);
    if (sendId === undefined) {
      // The same text went to the same audience before: again only past the window.
      const cutoff = addMinutes(now, -MARKETING_REPEAT_MINUTES);
      if (!(await repo.retireSendKey(tx, ctx.store.id, key, cutoff))) throw conflict(MarketingMsg.repeated);
      sendId = await repo.insertSendOnce(tx, row);
      if (sendId === undefined) throw conflict(MarketingMsg.repeated);
    }
    const outboxIds = [];
    for (const t of texts) outboxIds.push(await enqueue(tx, ctx.store.id, MARKETING_TOPIC, `marketing:${t.mobile}`, t));
    await repo.insertSendTexts(tx, sendId, outboxIds);
    audit(tx, {
      kind: 'member',
      target: '营销短信',
      summary: `发送营销短信 ${counts.recipients} 人（会员 ${counts.members}，潜客 ${counts.leads}；未同意排除 ${counts.excluded}）：${input.text}`,
    });
  });
  return counts;
}

/** 发送记录 (店长): the store's sends, newest first, with their texts' state in the outbox. */
export async function sendList(ctx: CallCtx, page: number) {
  const { rows, total } = await repo.sendPage(ctx.db, ctx.store.id, page, MARKETING_SEND_PAGE, WITHDRAWN_SINCE);
  return {
    total,
    list: rows.map((r) => ({
      id: r.id,
      createdAt: r.createdAt,
      staffName: r.staffName ?? '',
      text: r.text,
      toMembers: Boolean(r.toMembers),
      toLeads: Boolean(r.toLeads),
      leadStages: parseStages(r.leadStages),
      recipients: r.recipients,
      members: r.members,
      leads: r.leads,
      excluded: r.excluded,
      sent: Number(r.sent ?? 0),
      failed: Number(r.failed ?? 0),
      withdrawn: Number(r.withdrawn ?? 0),
      waiting: Number(r.waiting ?? 0),
    })),
  };
}

function parseStages(raw: string): LeadStage[] {
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v) ? v.filter((x): x is LeadStage => (LEAD_STAGES as readonly unknown[]).includes(x)) : [];
  } catch {
    return [];
  }
}

/**
 * Withdraws the marketing consent of the person of a mobile in a store (every member and lead
 * holding it), recorded with the time and how, by the system's audit entry; nothing when they do not
 * agree now (a second reply or click). Answers whether it withdrew.
 */
export async function withdrawMobile(
  deps: { db: Db; dialect: Dialect },
  store: { id: number; timezone: string },
  mobile: string,
  way: 'sms_reply' | 'link',
  call: string,
): Promise<boolean> {
  if (!(await agreesNow(deps.db, store.id, mobile))) return false;
  const { memberIds, leadIds } = await holdersOf(deps.db, store.id, mobile);
  const at = localDateTime(store.timezone);
  await inWriteTx(
    deps.db,
    deps.dialect,
    async (tx) => {
      await recordMemberMarketing(tx, store.id, memberIds, { granted: false, way, at });
      await recordLeadConsents(tx, store.id, leadIds, { granted: false, way, at });
    },
    systemScope(way === 'link' ? '退订链接' : '短信回复退订', call, 'member', store.id),
  );
  return true;
}

async function requireToken(db: Db, token: string) {
  const t = await openUnsubscribeToken(db, token);
  const store = t && (await storeScopeById(db, t.storeId));
  if (!t || !store) throw notFound('退订链接');
  return { store, mobile: t.mobile };
}

export async function unsubscribeInfo(ctx: Pick<CallCtx, 'db'>, token: string) {
  const { store, mobile } = await requireToken(ctx.db, token);
  return { storeName: store.name, unsubscribed: !(await agreesNow(ctx.db, store.id, mobile)) };
}

export async function unsubscribe(ctx: Pick<CallCtx, 'db' | 'dialect'>, token: string) {
  const { store, mobile } = await requireToken(ctx.db, token);
  await withdrawMobile(ctx, store, mobile, 'link', memberUnsubscribe.path);
  return null;
}
