import { BIG_TYPE_COUNT, type MeetingInfo } from '@studio/contract';
import { onPostgres } from '../../db/dialect.ts';
import type { Executor } from '../../db/index.ts';
import { enqueue } from '../../outbox/enqueue.ts';
import type { EngineEvent } from '../../lib/events.ts';
import { onlineSession, type OnlineSession } from '../online/public.ts';
import { bookingRef } from '../timetable/public.ts';
import { namesOf } from '../reference/public.ts';
import { cardKinds } from './repository.ts';
import { imageMessage, storeWebhookUrl, WECOM_TOPIC, type WecomMessage } from './wecom.ts';

/**
 * Store messaging: listens to the engine's events (`announce`) and each function queues a WeCom group-robot message in the caller's transaction,
 * only when the store has a webhook URL set (a store without one queues nothing). Messages of one
 * session share the order key `String(sessionId)`, so they arrive in the order of the changes.
 */

const when = (s: OnlineSession) => `${s.startTime.slice(0, 16)}-${s.endTime.slice(11, 16)}`;
const seatsLeft = (s: OnlineSession) => Math.max(0, s.reservableCount - s.realCount);
/** WeCom markdown has no escaping; keep names from breaking the layout. */
const clean = (v: string) => v.replace(/[\r\n`*<>[\]]/g, ' ');

/** An amount of a card in its unit: classes, or fen shown as yuan. */
const amountText = (bigType: number | undefined, amount: number) =>
  bigType === BIG_TYPE_COUNT ? `${amount}次` : `${(amount / 100).toFixed(2)}元`;

/** Members' names by id (the store's reference look-up). */
const memberNames = async (tx: Executor, ids: readonly number[]) =>
  new Map((await namesOf(tx, 'member', ids)).map((r) => [r.id, r.name]));

function markdown(lines: string[]): WecomMessage {
  return { msgtype: 'markdown', markdown: { content: lines.join('\n') } };
}

async function queueForSession(
  tx: Executor,
  storeId: number,
  timetableId: number,
  build: (s: OnlineSession) => Promise<WecomMessage>,
) {
  const s = await onlineSession(tx, timetableId, storeId);
  if (!s) return;
  await enqueue(tx, storeId, WECOM_TOPIC, String(timetableId), await build(s));
}

/** The first line of a booking's message: made, cancelled, or a member promoted from the waitlist. */
const BOOKING_TITLE = {
  booked: '**预约成功**',
  cancelled: '**预约取消**',
  promoted: '**候补递补成功**',
} as const;

/** A booking made, cancelled or promoted from the waitlist: member, course, time, seats left after the change. */
async function notifyBooking(
  tx: Executor,
  storeId: number,
  e: { timetableId: number; memberId: number; studentCount: number },
  kind: keyof typeof BOOKING_TITLE,
): Promise<void> {
  await queueForSession(tx, storeId, e.timetableId, async (s) => {
    const name = (await memberNames(tx, [e.memberId])).get(e.memberId) ?? '';
    return markdown([
      BOOKING_TITLE[kind],
      `> 会员：${clean(name)}${e.studentCount > 1 ? `（${e.studentCount}人）` : ''}`,
      `> 课程：${clean(s.courseName)}（${clean(s.teacherName)}）`,
      `> 时间：${when(s)}`,
      `> 剩余名额：${seatsLeft(s)}`,
    ]);
  });
}

/** notifyBooking for a reservation (booked with a card, or cancelled) or a pending (sign-in mode). */
async function notifyRef(
  tx: Executor,
  storeId: number,
  ref: { reservationId: number } | { pendingId: number },
  cancelled: boolean,
) {
  const r = await bookingRef(tx, storeId, ref);
  if (r) await notifyBooking(tx, storeId, r, cancelled ? 'cancelled' : 'booked');
}

/** A session deleted, with who was refunded what. */
async function notifySessionDeleted(
  tx: Executor,
  storeId: number,
  e: { timetableId: number; refunds: { memberId: number; memberCardId: number; amount: number }[] },
): Promise<void> {
  await queueForSession(tx, storeId, e.timetableId, async (s) => {
    const names = await memberNames(
      tx,
      e.refunds.map((r) => r.memberId),
    );
    const kinds = await cardKinds(
      tx,
      storeId,
      e.refunds.map((r) => r.memberCardId),
    );
    const refunds = e.refunds.map((r) => {
      const amount = amountText(kinds.get(r.memberCardId), r.amount);
      return `${clean(names.get(r.memberId) ?? '')} 退回${amount}`;
    });
    return markdown([
      '**课程已删除**',
      `> 课程：${clean(s.courseName)}（${clean(s.teacherName)}）`,
      `> 时间：${when(s)}`,
      `> 已取消的预约：${refunds.length ? refunds.join('，') : '无'}`,
    ]);
  });
}

/** An online room created: its code and join link. */
async function notifyRoomCreated(tx: Executor, storeId: number, timetableId: number, info: MeetingInfo) {
  await queueForSession(tx, storeId, timetableId, async (s) =>
    markdown([
      '**在线教室已创建**',
      `> 课程：${clean(s.courseName)}（${clean(s.teacherName)}）`,
      `> 时间：${when(s)}`,
      `> 会议号：${clean(info.meetingCode)}`,
      `> 加入链接：[${info.joinUrl}](${info.joinUrl})`,
    ]),
  );
}

/** The weekly timetable picture (PNG bytes) as an image message; false when no webhook is set. */
export async function queuePicture(db: Executor, storeId: number, png: Buffer): Promise<boolean> {
  if (!(await storeWebhookUrl(db, storeId))) return false;
  await enqueue(db, storeId, WECOM_TOPIC, 'picture', imageMessage(png));
  return true;
}

/** The day's card alerts: how many, then the first cards with member, balance and reason. */
async function notifyCardDigest(tx: Executor, e: Extract<EngineEvent, { type: 'cards.digest' }>) {
  const lines = [`**会员卡提醒（${e.date}）**`, `> 共 ${e.total} 张会员卡需要关注`];
  for (const r of e.rows) {
    lines.push(
      `> ${clean(r.memberName)} ${r.mobile}：${clean(r.cardName)}，余额 ${amountText(r.bigType, r.balance)}，${r.reasons}`,
    );
  }
  if (e.total > e.rows.length) lines.push(`> 其余 ${e.total - e.rows.length} 张请在后台「会员提醒」查看`);
  await enqueue(tx, e.storeId, WECOM_TOPIC, `digest:${e.date}`, markdown(lines));
}

/** The message each event with one calls for: a function that queues it (events not listed have none). */
const MESSAGES: { [K in EngineEvent['type']]?: (tx: Executor, e: EngineEvent & { type: K }) => Promise<void> } = {
  'reservation.booked': (tx, e) => notifyRef(tx, e.storeId, { reservationId: e.reservationId }, false),
  'reservation.cancelled': (tx, e) => notifyRef(tx, e.storeId, { reservationId: e.reservationId }, true),
  'pending.added': (tx, e) => notifyRef(tx, e.storeId, { pendingId: e.pendingId }, false),
  'pending.cancelled': (tx, e) => notifyRef(tx, e.storeId, { pendingId: e.pendingId }, true),
  'session.deleted': (tx, e) => notifySessionDeleted(tx, e.storeId, e),
  'room.created': (tx, e) => notifyRoomCreated(tx, e.storeId, e.timetableId, e.info),
  'cards.digest': notifyCardDigest,
  'waitlist.promoted': (tx, e) => notifyBooking(tx, e.storeId, e, 'promoted'),
};

/** Webhook reads started ahead of a change, by transaction and store; `announce` takes each once. */
const ahead = new WeakMap<Executor, Map<number, Promise<string | null>>>();

/**
 * The listener's read ahead (lib/events.ts `readAhead`): the store's webhook, read with the change's
 * own reads. PostgreSQL only: there each call has a transaction of its own (on SQLite a group of
 * calls shares one, and there is no round trip to save).
 */
export function webhookAhead(tx: Executor, storeId: number, type: EngineEvent['type']): void {
  if (!MESSAGES[type] || !onPostgres(tx)) return;
  const read = storeWebhookUrl(tx, storeId);
  // Awaited, and its error thrown, by announce; a change refused before it announces drops it.
  read.catch(() => undefined);
  let reads = ahead.get(tx);
  if (!reads) ahead.set(tx, (reads = new Map()));
  reads.set(storeId, read);
}

/** The store's webhook: the read started ahead, if any (taken once), else read now. */
function webhookOf(tx: Executor, storeId: number): Promise<string | null> {
  const reads = ahead.get(tx);
  const read = reads?.get(storeId);
  if (!read) return storeWebhookUrl(tx, storeId);
  reads!.delete(storeId);
  return read;
}

/**
 * The engine-event listener: queues the store message each change calls for. A store without a
 * webhook gets none, so that is asked first (one read, before any read of what the message says;
 * usually started ahead, with the change's own reads).
 */
export async function announce(tx: Executor, e: EngineEvent): Promise<void> {
  const queue = MESSAGES[e.type] as ((tx: Executor, e: EngineEvent) => Promise<void>) | undefined;
  if (queue && (await webhookOf(tx, e.storeId))) await queue(tx, e);
}
