import { BIG_TYPE_COUNT } from '@studio/contract';
import { audit } from '../../lib/audit.ts';
import { shortLived } from '../../lib/cache.ts';
import type { Executor } from '../../db/index.ts';
import { databaseOf } from '../../db/dialect.ts';
import { enqueue } from '../../outbox/enqueue.ts';
import type { PayloadOf } from '../../lib/events.ts';
import type { cardsDigest } from '../reports/public.ts';
import type { roomCreated } from '../online/public.ts';
import type { bookingsMade, sessionDeleted } from '../timetable/public.ts';
import type { waitlistPromoted } from '../waitlist/public.ts';
import { onlineSession, type OnlineSession } from '../online/public.ts';
import type { BookingFact } from '../timetable/public.ts';
import { imageMessage, storeWebhookUrl, WECOM_TOPIC, type WecomMessage } from './wecom.ts';

/**
 * Store messaging: listens to the engine's events (`announce...`) and each function queues a WeCom group-robot message in the caller's transaction,
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

function markdown(lines: string[]): WecomMessage {
  return { msgtype: 'markdown', markdown: { content: lines.join('\n') } };
}

async function queueForSession(
  tx: Executor,
  storeId: number,
  sessionId: number,
  build: (s: OnlineSession) => Promise<WecomMessage>,
) {
  const s = await onlineSession(tx, sessionId, storeId);
  if (!s) return;
  await enqueue(tx, storeId, WECOM_TOPIC, String(sessionId), await build(s));
}

/** The first line of a booking's message: made, cancelled, or a member promoted from the waitlist. */
const BOOKING_TITLE = {
  booked: '**预约成功**',
  cancelled: '**预约取消**',
  promoted: '**候补递补成功**',
} as const;

/**
 * A booking made, cancelled or promoted from the waitlist: member (as the event names them), course,
 * time, seats left once the change's listeners have written (messages are at the announce stage).
 */
async function notifyBooking(
  tx: Executor,
  e: { storeId: number; sessionId: number; memberName: string; studentCount: number },
  kind: keyof typeof BOOKING_TITLE,
): Promise<void> {
  await queueForSession(tx, e.storeId, e.sessionId, async (s) =>
    markdown([
      BOOKING_TITLE[kind],
      `> 会员：${clean(e.memberName)}${e.studentCount > 1 ? `（${e.studentCount}人）` : ''}`,
      `> 课程：${clean(s.courseName)}（${clean(s.teacherName)}）`,
      `> 时间：${when(s)}`,
      `> 剩余名额：${seatsLeft(s)}`,
    ]),
  );
}

/** Whether each store has a group robot, as read lately (this app instance): a setting saved on another instance is seen 5 s later. */
const robots = shortLived<boolean>({ ttlMs: 5000, max: 10_000 });

/**
 * Whether the store has a group robot: a store without one gets no message (asked before any other
 * read). The answer is kept for a few seconds, so a booking, whose session row is locked until its
 * commit, does not wait for this read too; saving the setting on this instance forgets it at once
 * (`forgetRobot`), on another within 5 s. The message itself is sent to the webhook
 * as set at sending time (wecom.ts), and nothing is sent when there is none.
 */
async function hasWebhook(tx: Executor, storeId: number): Promise<boolean> {
  return robots.get(databaseOf(tx), storeId, async () => (await storeWebhookUrl(tx, storeId)) !== null);
}

/** The store's messaging setting was saved: its robot is asked again at the next change. */
export async function forgetRobot(tx: Executor, e: { storeId: number }): Promise<void> {
  robots.forget(databaseOf(tx), e.storeId);
}

/** A listener that queues its message only for a store with a group robot (`hasWebhook`, asked first). */
function toRobot<P extends { storeId: number }>(queue: (tx: Executor, e: P) => Promise<void>) {
  return async (tx: Executor, e: P): Promise<void> => {
    if (await hasWebhook(tx, e.storeId)) await queue(tx, e);
  };
}

/** A booking made: 预约成功 (a reservation, or a pending in 签到后扣费). */
export const announceBooking = toRobot((tx, e: BookingFact) => notifyBooking(tx, e, 'booked'));

/** A booking or a pending cancelled: 预约取消. */
export const announceCancel = toRobot((tx, e: BookingFact) => notifyBooking(tx, e, 'cancelled'));

/** A member promoted from the waitlist: 候补递补成功. */
export const announcePromotion = toRobot((tx, e: PayloadOf<typeof waitlistPromoted>) =>
  notifyBooking(tx, e, 'promoted'),
);

/** Several bookings made in one call: one message saying what made them and how many. */
export const announceBookings = toRobot(async (tx, e: PayloadOf<typeof bookingsMade>) => {
  if (!e.bookings) return;
  await enqueue(
    tx,
    e.storeId,
    WECOM_TOPIC,
    'bulk',
    markdown(['**批量预约**', `> 来源：${clean(e.source)}`, `> 课程：${e.sessions} 节`, `> 预约：${e.bookings} 人次`]),
  );
});

/** A session deleted, with who was refunded what. */
export const announceSessionDeleted = toRobot(async (tx, e: PayloadOf<typeof sessionDeleted>) => {
  const storeId = e.storeId;
  await queueForSession(tx, storeId, e.sessionId, async (s) => {
    const refunds = e.refunds.map((r) => `${clean(r.memberName)} 退回${amountText(r.bigType, r.amount)}`);
    return markdown([
      '**课程已删除**',
      `> 课程：${clean(s.courseName)}（${clean(s.teacherName)}）`,
      `> 时间：${when(s)}`,
      `> 已取消的预约：${refunds.length ? refunds.join('，') : '无'}`,
    ]);
  });
});

/** An online room created: its code and join link. */
export const announceRoom = toRobot(async (tx, e: PayloadOf<typeof roomCreated>) => {
  const { storeId, info } = e;
  await queueForSession(tx, storeId, e.sessionId, async (s) =>
    markdown([
      '**在线教室已创建**',
      `> 课程：${clean(s.courseName)}（${clean(s.teacherName)}）`,
      `> 时间：${when(s)}`,
      `> 会议号：${clean(info.meetingCode)}`,
      `> 加入链接：[${info.joinUrl}](${info.joinUrl})`,
    ]),
  );
});

/** The weekly timetable picture (PNG bytes) as an image message; false when no webhook is set. */
export async function queuePicture(db: Executor, storeId: number, png: Buffer): Promise<boolean> {
  if (!(await storeWebhookUrl(db, storeId))) return false;
  audit(db, { kind: 'session', target: '课表图片' });
  await enqueue(db, storeId, WECOM_TOPIC, 'picture', imageMessage(png));
  return true;
}

/** The day's card alerts: how many, then the first cards with member, balance and reason. */
export const announceCardDigest = toRobot(async (tx, e: PayloadOf<typeof cardsDigest>) => {
  const lines = [`**会员卡提醒（${e.date}）**`, `> 共 ${e.total} 张会员卡需要关注`];
  for (const r of e.rows) {
    lines.push(
      `> ${clean(r.memberName)} ${r.mobile}：${clean(r.cardName)}，余额 ${amountText(r.bigType, r.balance)}，${r.reasons}`,
    );
  }
  if (e.total > e.rows.length) lines.push(`> 其余 ${e.total - e.rows.length} 张请在后台「会员提醒」查看`);
  await enqueue(tx, e.storeId, WECOM_TOPIC, `digest:${e.date}`, markdown(lines));
});
