import crypto from 'node:crypto';
import type { Executor } from '../../db/index.ts';
import { GiveUp, type OutboxHandler } from '../../outbox/index.ts';
import { OutboundRefused, outboundPost, type AllowedHost } from '../../lib/outbound.ts';
import { getSetting } from '../store-admin/public.ts';

/** Outbox topic of a message to the store's WeCom (企业微信) group robot. */
export const WECOM_TOPIC = 'wecom.message';

/** A WeCom group-robot message body (msgtype markdown, text or image). */
export type WecomMessage =
  | { msgtype: 'markdown'; markdown: { content: string } }
  | { msgtype: 'text'; text: { content: string } }
  | { msgtype: 'image'; image: { base64: string; md5: string } };

/** The store's robot webhook URL from its messaging setting (store_setting 'wechat'), or null. */
export async function storeWebhookUrl(db: Executor, storeId: number): Promise<string | null> {
  const value = await getSetting(db, storeId, 'wechat');
  if (value === undefined) return null;
  try {
    const v = (JSON.parse(value) as { webhookUrl?: unknown }).webhookUrl;
    return typeof v === 'string' && /^https?:\/\//i.test(v) ? v : null;
  } catch {
    return null;
  }
}

/** An image message of a PNG (WeCom wants the base64 and the MD5 of the raw bytes). */
export function imageMessage(png: Buffer): WecomMessage {
  return {
    msgtype: 'image',
    image: { base64: png.toString('base64'), md5: crypto.createHash('md5').update(png).digest('hex') },
  };
}

/**
 * POSTs one message to a robot webhook. Success is HTTP 2xx with `errcode` 0 (or no errcode);
 * anything else throws, and the outbox retries it later.
 */
export async function postToWebhook(
  url: string,
  message: WecomMessage,
  opts: { timeoutMs: number; allow: readonly AllowedHost[] },
): Promise<void> {
  const { status, text } = await outboundPost(url, JSON.stringify(message), opts);
  if (status < 200 || status > 299) throw new Error(`HTTP ${status} ${text.slice(0, 200)}`);
  let errcode: unknown;
  try {
    errcode = (JSON.parse(text) as { errcode?: unknown }).errcode;
  } catch {
    errcode = undefined;
  }
  if (errcode !== undefined && errcode !== 0) throw new Error(`errcode ${String(errcode)}: ${text.slice(0, 200)}`);
}

/**
 * Sends a queued message to the webhook the store has NOW (a changed URL takes effect for queued
 * messages; a removed one gives them up).
 */
export const sendWecom: OutboxHandler = async (row, payload, ctx) => {
  const url = await storeWebhookUrl(ctx.db, row.storeId);
  if (!url) throw new GiveUp('门店未设置企业微信群机器人 webhookUrl');
  try {
    await postToWebhook(url, payload as WecomMessage, { timeoutMs: ctx.sendTimeoutMs, allow: ctx.allowHosts });
  } catch (err) {
    // A refused address stays refused until the setting changes: no retries.
    if (err instanceof OutboundRefused) throw new GiveUp(err.message);
    throw err;
  }
};
