import { fillVars, type NotifyKind } from '@studio/contract';
import type { Db } from '../../db/index.ts';
import type { AllowedHost } from '../../lib/outbound.ts';
import type { StoreScope } from '../../lib/context.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import type { OutboxHandler } from '../../outbox/index.ts';
import { SmsCapReached, SmsSendFailed, smsSenderOf, type SmsMessage } from '../messaging/public.ts';
import { heldPairs } from '../timetable/public.ts';
import type { NotifyPayload } from './queue.ts';
import * as repo from './repository.ts';
import { quietVerdict } from './rules.ts';
import {
  loadNotifySetting,
  smsTemplateOf,
  wechatAccount,
  wechatTemplateOf,
  type StoredNotifySetting,
} from './setting.ts';
import { sendTemplate, WechatError } from './wechat.ts';

/** What sending needs: the database and the hosts the outbound gate lets through. */
export interface SendDeps {
  db: Db;
  allowHosts: readonly AllowedHost[];
}

/** A claimed message is another sender's again if this one has not finished it after this long. */
const LEASE_MS = 120_000;

/** The SMS of a template: its variables' values in order (Tencent) and by name (Aliyun). */
export function smsMessage(templateId: string, params: readonly string[], vars: Record<string, string>): SmsMessage {
  return {
    templateId,
    ordered: params.map((v) => vars[v] ?? ''),
    named: Object.fromEntries(params.map((v) => [v, vars[v] ?? ''])),
  };
}

/** A WeChat template's data: each field's text with the variables filled. */
export const wechatData = (fields: { key: string; value: string }[], vars: Record<string, string>) =>
  Object.fromEntries(fields.map((f) => [f.key, fillVars(f.value, vars).slice(0, 20)]));

/** How a send went: `retry` when it failed for a passing reason (a later try may go). */
export interface Delivery {
  status: 'sent' | 'failed' | 'skipped';
  channel: 'wechat' | 'sms' | null;
  reason: string;
  retry?: boolean;
}

/**
 * Sends a message through the store's channels: WeChat when the member has an openid and the store
 * its service account and the kind's template; else SMS with the kind's template. WeChat failing for
 * a passing reason (unreachable, 5xx, busy) is answered as such, to be tried again later by WeChat,
 * unless this is the last try (`lastTry`); failing for good (the openid invalid, the member not
 * following the account, a wrong template), or at the last try, the message goes by SMS when the
 * store has it, the log saying why. Never throws for a provider's refusal.
 */
export async function deliver(
  deps: SendDeps,
  store: StoreScope,
  setting: StoredNotifySetting,
  kind: NotifyKind,
  to: { mobile: string | null; openid: string | null },
  vars: Record<string, string>,
  o: { lastTry?: boolean } = {},
): Promise<Delivery> {
  const errors: string[] = [];
  const account = wechatAccount(setting);
  const wx = wechatTemplateOf(setting, kind);
  if (to.openid && account && wx) {
    try {
      await sendTemplate(deps.db, account, deps.allowHosts, {
        touser: to.openid,
        templateId: wx.templateId,
        data: wechatData(wx.fields, vars),
      });
      return { status: 'sent', channel: 'wechat', reason: '' };
    } catch (e) {
      const w = e instanceof WechatError ? e : new WechatError('发送出错', null, true);
      const reason = `微信：${w.message}`;
      if (w.transient && !o.lastTry) return { status: 'failed', channel: 'wechat', reason, retry: true };
      errors.push(reason);
    }
  }
  const template = await smsTemplateOf(deps.db, store.id, setting, kind);
  const sender = template && to.mobile ? await smsSenderOf(deps.db, deps.allowHosts, store) : null;
  if (template && to.mobile && sender) {
    try {
      await sender.send(to.mobile, smsMessage(template.templateId, template.params, vars));
      return { status: 'sent', channel: 'sms', reason: errors.length ? `${errors.join('；')}，已改发短信` : '' };
    } catch (e) {
      const why = e instanceof SmsSendFailed ? e.reason : e instanceof SmsCapReached ? e.message : '发送出错';
      errors.push(`短信：${why}`);
      const retry = e instanceof SmsSendFailed && e.transient;
      return { status: 'failed', channel: 'sms', reason: errors.join('；').slice(0, 200), retry };
    }
  }
  if (errors.length) return { status: 'failed', channel: 'wechat', reason: errors.join('；').slice(0, 200) };
  return { status: 'skipped', channel: null, reason: '已跳过（未设置模板）' };
}

/** A message is sent at most this many times: the first send and the tries again. */
export const MAX_TRIES = 3;
/** Minutes from a failed try to the next: after the first, after the second. */
export const RETRY_AFTER_MINUTES = [1, 5] as const;

/**
 * Sends one message if this sender claims it (queued and due at `now`, store-local): checked again
 * first — the member switched the kind off, the booking of a class reminder cancelled or its class
 * moved or started — and, when `now` is in the quiet hours, deferred to their end or skipped when
 * the class it is about has started by then. A send failing for a passing
 * reason before the last try goes back to queued, due after the backoff: the same guarded claim
 * takes it again then (on one instance), with these checks and the quiet hours again. Answers
 * whether it claimed it.
 */
export async function sendOne(deps: SendDeps, store: StoreScope, id: number, now: string): Promise<boolean> {
  const row = await repo.claim(deps.db, id, now, Date.now(), LEASE_MS);
  if (!row) return false;
  const done = (status: string, reason: string, channel: string | null = null, tries = row.tries) =>
    repo.finish(deps.db, id, { status, reason, channel, tries, sentAt: status === 'sent' ? now : null });
  try {
    const p = JSON.parse(row.payload) as NotifyPayload;
    const kind = row.kind as NotifyKind;
    // A member's, or (memberId null) a teacher's: a lesson waiting for their confirmation.
    const member = await repo.recipientContact(deps.db, store.id, {
      memberId: row.memberId,
      teacherId: p.teacherId,
      leadId: p.leadId,
    });
    if (!member) return done('skipped', '已跳过（会员不存在）').then(() => true);
    if (row.memberId !== null && (await repo.switchedOff(deps.db, member.id, kind))) {
      return done('skipped', '已跳过（已关闭）').then(() => true);
    }
    if (kind === 'lesson_request' && p.sessionId !== undefined) {
      const s = await repo.sessionInfo(deps.db, store.id, p.sessionId);
      if (!s || s.deleted || s.appointmentStatus !== 'pending') {
        return done('skipped', '已跳过（预约已确认或已取消）').then(() => true);
      }
    }
    if (kind === 'trial_reminder' && p.sessionId !== undefined && p.trialId !== undefined) {
      const s = await repo.sessionInfo(deps.db, store.id, p.sessionId);
      if (!s || s.deleted || !(await repo.trialStillBooked(deps.db, p.trialId, p.sessionId))) {
        return done('skipped', '已跳过（体验课已取消）').then(() => true);
      }
      if (s.startTime !== p.startTime) return done('skipped', '已跳过（上课时间已变更）').then(() => true);
      if (s.startTime <= now) return done('skipped', '已跳过（课程已开始）').then(() => true);
    }
    if (kind === 'lesson_joined' && p.sessionId !== undefined) {
      const s = await repo.sessionInfo(deps.db, store.id, p.sessionId);
      if (!s || s.deleted) return done('skipped', '已跳过（预约已取消）').then(() => true);
    }
    if (kind === 'class_reminder' && p.sessionId !== undefined) {
      const s = await repo.sessionInfo(deps.db, store.id, p.sessionId);
      if (!s || s.deleted || !(await heldPairs(deps.db, [p.sessionId], [member.id])).length) {
        return done('skipped', '已跳过（预约已取消）').then(() => true);
      }
      if (s.startTime !== p.startTime) return done('skipped', '已跳过（上课时间已变更）').then(() => true);
      if (s.startTime <= now) return done('skipped', '已跳过（课程已开始）').then(() => true);
    }
    const setting = await loadNotifySetting(deps.db, store.id);
    // Nothing inside the quiet hours (a retry falling in them neither): at their end, or dropped.
    const quiet = quietVerdict(now, setting, p.startTime);
    if (quiet.go === 'dropped') return done('skipped', quiet.reason).then(() => true);
    if (quiet.go === 'later') {
      await repo.finish(deps.db, id, { status: 'queued', dueAt: quiet.at, reason: quiet.reason });
      return true;
    }
    const tries = row.tries + 1;
    const to = { mobile: member.mobile, openid: member.wechatOpenid };
    const r = await deliver(deps, store, setting, kind, to, p.vars, { lastTry: tries >= MAX_TRIES });
    if (r.status === 'skipped') return done(r.status, r.reason, r.channel).then(() => true);
    if (r.status === 'failed' && r.retry && tries < MAX_TRIES) {
      const next = addMinutes(now, RETRY_AFTER_MINUTES[tries - 1]);
      await repo.finish(deps.db, id, {
        status: 'queued',
        channel: r.channel,
        dueAt: next,
        tries,
        reason: `第${tries}次发送失败：${r.reason}；${next.slice(11, 16)} 重试`.slice(0, 200),
      });
      return true;
    }
    await done(r.status, r.reason, r.channel, tries);
  } catch (e) {
    await done('failed', `发送出错：${(e as Error).message}`.slice(0, 200));
  }
  return true;
}

/** Sends the store's messages due at `now`; answers how many this sender handled. */
export async function sendDue(deps: SendDeps, store: StoreScope, now: string): Promise<number> {
  let n = 0;
  for (const id of await repo.dueIds(deps.db, store.id, now, Date.now())) {
    if (await sendOne(deps, store, id, now)) n++;
  }
  return n;
}

/** The outbox handler: a message queued by a change, sent right after its commit (if still due). */
export const sendQueuedNotice: OutboxHandler = async (row, payload, ctx) => {
  const store = await storeScopeById(ctx.db, row.storeId);
  if (!store) return;
  const { id } = payload as { id: number };
  await sendOne({ db: ctx.db, allowHosts: ctx.allowHosts }, store, id, localDateTime(store.timezone));
};
