import crypto from 'node:crypto';
import {
  maskMobile,
  fillVars,
  NOTIFY_KIND_LABEL,
  NOTIFY_KINDS,
  NOTIFY_SAMPLE,
  NOTIFY_TEXT,
  NotifyMsg,
  SMS_DAILY_CAP_DEFAULT,
  TEACHER_NOTIFY_KINDS,
  LEAD_NOTIFY_KINDS,
  type memberBindWechat,
  type memberQueryNotifyPref,
  type memberUpdateNotifyPref,
  type memberWechatAuth,
  type NotifyKind,
  type ParsedReqOf,
  type queryNotifyLog,
  type ResOf,
  type sendNotifyTest,
  type updateNotifySetting,
} from '@studio/contract';
import { inWriteTx } from '../../lib/write-queue.ts';
import { audit, rootOf } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { addDays, localDateTime } from '../../lib/time.ts';
import { SmsCapReached, smsSenderOf, storedSmsSetting } from '../messaging/public.ts';
import { requireMember } from '../reference/public.ts';
import type { NotifyPayload } from './queue.ts';
import * as repo from './repository.ts';
import { smsMessage, wechatData } from './send.ts';
import {
  checkWechatBase,
  loadNotifySetting,
  publicNotifySetting,
  saveNotifySetting,
  smsTemplateOf,
  wechatAccount,
  wechatAuthorize,
  wechatTemplateOf,
} from './setting.ts';
import { openidFromCode, sendTemplate, WechatError } from './wechat.ts';
import { useWechatState } from './openid.ts';

const PAGE_SIZE = 20;

export const querySetting = (ctx: CallCtx) => publicNotifySetting(ctx.db, ctx.store.id);

export async function updateSetting(ctx: CallCtx, input: ParsedReqOf<typeof updateNotifySetting>): Promise<null> {
  await checkWechatBase(input.wechat.baseUrl, ctx.config.outboundAllowHosts);
  await inWriteTx(ctx.db, ctx.dialect, (tx) => saveNotifySetting(tx, ctx.store.id, input));
  return null;
}

/**
 * 发送测试: one message of the kind with the sample values, by SMS to the manager's own mobile or by
 * WeChat to an openid; written to the send log (no member) and the audit log; a refusal answers why.
 */
export async function sendTest(
  ctx: CallCtx,
  input: ParsedReqOf<typeof sendNotifyTest>,
): Promise<ResOf<typeof sendNotifyTest>> {
  const setting = await loadNotifySetting(ctx.db, ctx.store.id);
  const kind = input.kind;
  const vars = { ...NOTIFY_SAMPLE, store: ctx.store.name, name: ctx.staff.name };
  const allow = ctx.config.outboundAllowHosts;
  const db = rootOf(ctx.db);
  let send: () => Promise<void>;
  let to: string;
  if (input.channel === 'sms') {
    const mobile = ctx.staff.mobile;
    if (!mobile) throw conflict(NotifyMsg.noMobile);
    const sms = await storedSmsSetting(ctx.db, ctx.store.id);
    if (!sms) throw conflict(NotifyMsg.noSms);
    const template = await smsTemplateOf(ctx.db, ctx.store.id, setting, kind);
    if (!template) throw conflict(NotifyMsg.noSmsTemplate);
    const sender = await smsSenderOf(db, allow, ctx.store);
    if (!sender) throw conflict(NotifyMsg.noSms);
    to = maskMobile(mobile);
    send = () => sender.send(mobile, smsMessage(template.templateId, template.params, vars));
  } else {
    const openid = input.openid;
    if (!openid) throw badRequest(NotifyMsg.openidRequired);
    const account = wechatAccount(setting);
    if (!account) throw conflict(NotifyMsg.noWechat);
    const template = wechatTemplateOf(setting, kind);
    if (!template) throw conflict(NotifyMsg.noWechatTemplate);
    to = openid;
    send = () =>
      sendTemplate(db, account, allow, {
        touser: openid,
        templateId: template.templateId,
        data: wechatData(template.fields, vars),
      });
  }
  const now = localDateTime(ctx.store.timezone);
  const id = await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    audit(tx, { kind: 'settings', target: '消息提醒', summary: `发送测试（${NOTIFY_KIND_LABEL[kind]}）` });
    const payload: NotifyPayload = { vars };
    return repo.insertOnce(tx, {
      storeId: ctx.store.id,
      memberId: null,
      kind,
      dedupeKey: `test:${crypto.randomUUID()}`,
      channel: input.channel,
      status: 'sending',
      reason: '发送测试',
      dueAt: now,
      createdAt: now,
      sentAt: null,
      leaseUntil: Date.now() + 120_000,
      payload: JSON.stringify(payload),
    });
  });
  try {
    await send();
  } catch (e) {
    const why =
      e instanceof SmsCapReached || e instanceof WechatError || e instanceof AppError ? e.message : '网络错误';
    if (id !== null) await repo.finish(db, id, { status: 'failed', reason: `发送测试：${why}`.slice(0, 200) });
    throw new AppError(503, NotifyMsg.sendFailed(why));
  }
  if (id !== null) await repo.finish(db, id, { status: 'sent', reason: '发送测试', sentAt: now });
  return { to };
}

export async function queryLog(
  ctx: CallCtx,
  input: ParsedReqOf<typeof queryNotifyLog>,
): Promise<ResOf<typeof queryNotifyLog>> {
  if (input.memberId !== undefined) await requireMember(ctx.db, ctx.store.id, input.memberId);
  const f = { storeId: ctx.store.id, ...input };
  const [{ rows, total }, counts, sms] = await Promise.all([
    repo.logPage(ctx.db, f, input.page, PAGE_SIZE),
    repo.dayCounts(ctx.db, ctx.store.id, input.fromDate, input.toDate),
    storedSmsSetting(ctx.db, ctx.store.id),
  ]);
  const days = new Map<string, { date: string; sms: number; wechat: number; failed: number; skipped: number }>();
  for (let d = input.fromDate; d <= input.toDate; d = addDays(d, 1)) {
    days.set(d, { date: d, sms: 0, wechat: 0, failed: 0, skipped: 0 });
  }
  for (const c of counts) {
    const day = days.get(c.date);
    if (!day) continue;
    const n = Number(c.n);
    if (c.status === 'sent' && c.channel === 'sms') day.sms += n;
    else if (c.status === 'sent' && c.channel === 'wechat') day.wechat += n;
    else if (c.status === 'failed') day.failed += n;
    else if (c.status === 'skipped') day.skipped += n;
  }
  return {
    list: rows.map((r) => {
      const kind = r.kind as NotifyKind;
      let p: NotifyPayload = { vars: {} };
      try {
        p = JSON.parse(r.payload) as NotifyPayload;
      } catch {
        p = { vars: {} };
      }
      const vars = p.vars ?? {};
      // A message to a teacher names them (their name is the message's name).
      const teacher =
        p.teacherId !== undefined
          ? `${vars.name ?? ''}（老师）`
          : p.leadId !== undefined
            ? `${vars.name ?? ''}（潜客）`
            : '（发送测试）';
      return {
        id: r.id,
        memberId: r.memberId,
        memberName: r.memberName ?? (r.memberId === null ? teacher : ''),
        kind,
        kindLabel: NOTIFY_KIND_LABEL[kind] ?? r.kind,
        channel: r.channel === 'wechat' || r.channel === 'sms' ? r.channel : null,
        status: r.status as ResOf<typeof queryNotifyLog>['list'][number]['status'],
        reason: r.reason,
        text: NOTIFY_TEXT[kind] ? fillVars(NOTIFY_TEXT[kind], vars) : '',
        dueAt: r.dueAt,
        createdAt: r.createdAt,
        sentAt: r.sentAt,
        tries: Number(r.tries),
      };
    }),
    total,
    days: [...days.values()],
    dailyCap: sms?.dailyCap ?? SMS_DAILY_CAP_DEFAULT,
  };
}

// ---- members

export async function myPrefs(ctx: CallCtx): Promise<ResOf<typeof memberQueryNotifyPref>> {
  const [off, setting, me] = await Promise.all([
    repo.offKinds(ctx.db, ctx.member.id),
    loadNotifySetting(ctx.db, ctx.store.id),
    repo.memberContact(ctx.db, ctx.store.id, ctx.member.id),
  ]);
  return {
    kinds: NOTIFY_KINDS.filter((kind) => !TEACHER_NOTIFY_KINDS.includes(kind) && !LEAD_NOTIFY_KINDS.includes(kind)).map(
      (kind) => ({
        kind,
        label: NOTIFY_KIND_LABEL[kind],
        on: !off.has(kind),
      }),
    ),
    wechatAppId: wechatAccount(setting)?.appId ?? null,
    wechatBound: Boolean(me?.wechatOpenid),
  };
}

export async function setMyPref(ctx: CallCtx, input: ParsedReqOf<typeof memberUpdateNotifyPref>): Promise<null> {
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await repo.setSwitch(tx, ctx.store.id, ctx.member.id, input.kind, input.on);
    audit(tx, {
      kind: 'member',
      summary: `${input.on ? '打开' : '关闭'}消息提醒：${NOTIFY_KIND_LABEL[input.kind]}`,
      targets: [{ type: 'member', id: ctx.member.id }],
    });
  });
  return null;
}

/** The store's web authorisation for the members' page (no sign-in): its service account's AppID and WeChat's page. */
export async function wechatAuth(ctx: CallCtx, storeId: number): Promise<ResOf<typeof memberWechatAuth>> {
  const store = await storeScopeById(ctx.db, storeId);
  if (!store) throw notFound('门店');
  return wechatAuthorize(await loadNotifySetting(ctx.db, store.id));
}

/** Binds the member's openid from the code of WeChat's web authorisation (snsapi_base). */
export async function bindWechat(
  ctx: CallCtx,
  input: ParsedReqOf<typeof memberBindWechat>,
): Promise<ResOf<typeof memberBindWechat>> {
  const account = wechatAccount(await loadNotifySetting(ctx.db, ctx.store.id));
  if (!account) throw conflict(NotifyMsg.noWechat);
  // The code counts only with a state this session was given (taken once, before the code is used).
  await useWechatState(ctx, input.state);
  let openid: string;
  try {
    openid = await openidFromCode(account, ctx.config.outboundAllowHosts, input.code);
  } catch (e) {
    if (e instanceof WechatError) throw new AppError(503, NotifyMsg.bindFailed(e.message));
    throw e;
  }
  await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    await repo.bindOpenid(tx, ctx.store.id, ctx.member.id, openid);
    audit(tx, {
      kind: 'member',
      summary: '绑定微信（接收公众号提醒）',
      targets: [{ type: 'member', id: ctx.member.id }],
    });
  });
  return { bound: true };
}
