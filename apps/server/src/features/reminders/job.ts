import { BIG_TYPE_COUNT, LESSON_REMINDER_HOURS } from '@studio/contract';
import type { Db, Dialect } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { taggedCache } from '../../lib/cache.ts';
import type { Config } from '../../config.ts';
import { formatFen } from './format.ts';
import { addMinutes, localDateTime } from '../../lib/time.ts';
import { cardsToAlert, loadDigest } from '../reports/public.ts';
import { queueReminder, sendsAnything, shortTime } from './queue.ts';
import * as repo from './repository.ts';
import { sendDue } from './send.ts';
import { loadNotifySetting } from './setting.ts';

export interface JobDeps {
  db: Db;
  dialect: Dialect;
  config: Pick<Config, 'outboundAllowHosts'>;
}

/**
 * The card reminders are looked for once per store and local hour in a process: the scan, kept by
 * store and tagged with the hour (`lib/cache.ts`; a scan that failed runs again at the next tick).
 */
const cardScans = taggedCache<void>({ max: 10_000 });

/**
 * The reminder job (every minute, on every instance): for each store, queues the class reminders of
 * classes starting within the store's hours, and of lessons (私教/小班) confirmed and starting within
 * a day (LESSON_REMINDER_HOURS: the day-before reminder), one per session start and member with a
 * live booking or pending; and, once an hour, the card reminders (expiring within 7 days, balance below the card
 * alerts' thresholds: one per card and expiry, or card and balance top-up); then sends the messages
 * due. Safe on any number of instances: rows are unique by their dedupe key and each is claimed by
 * one sender. `clock` answers the store-local now (tests inject one).
 */
export async function runReminders(
  deps: JobDeps,
  clock: (timezone: string) => string = (tz) => localDateTime(tz),
): Promise<number> {
  let sent = 0;
  for (const store of await repo.allStores(deps.db)) {
    const now = clock(store.timezone);
    const setting = await loadNotifySetting(deps.db, store.id);
    if (!(await sendsAnything(deps.db, store.id, setting))) continue;
    const until = addMinutes(now, setting.classReminderHours * 60);
    // A lesson (私教/小班) is reminded the day before, once its teacher has confirmed it.
    const lessonsUntil = addMinutes(now, LESSON_REMINDER_HOURS * 60);
    const latest = until > lessonsUntil ? until : lessonsUntil;
    for (const s of await repo.sessionsStarting(deps.db, store.id, now, latest)) {
      if (s.appointmentStatus === 'pending') continue;
      if (s.startTime > (s.appointmentStatus === null ? until : lessonsUntil)) continue;
      const members = await repo.membersBookedIn(deps.db, s.id);
      if (!members.length) continue;
      await inWriteTx(deps.db, deps.dialect, async (tx) => {
        const info = await repo.sessionInfo(tx, store.id, s.id);
        if (!info) return;
        for (const memberId of members) {
          await queueReminder(tx, {
            storeId: store.id,
            memberId,
            kind: 'class_reminder',
            event: `${s.id}:${info.startTime}`,
            vars: { course: info.courseName.slice(0, 20), time: shortTime(info.startTime), teacher: info.teacherName },
            sessionId: s.id,
            startTime: info.startTime,
            now,
            byJob: true,
          });
        }
      });
    }
    await queueCardReminders(deps, store.id, now);
    sent += await sendDue({ db: deps.db, allowHosts: deps.config.outboundAllowHosts }, store, now);
  }
  return sent;
}

function queueCardReminders(deps: JobDeps, storeId: number, now: string): Promise<void> {
  return cardScans.get(deps.db, String(storeId), now.slice(0, 13), () => scanCards(deps, storeId, now));
}

async function scanCards(deps: JobDeps, storeId: number, now: string): Promise<void> {
  const d = await loadDigest(deps.db, storeId);
  const cards = await cardsToAlert(deps.db, storeId, now, { days: 7, minCount: d.minCount, minMoney: d.minMoney });
  if (!cards.length) return;
  await inWriteTx(deps.db, deps.dialect, async (tx) => {
    for (const c of cards) {
      if (c.reasons.includes('expiring') && c.expireTime) {
        await queueReminder(tx, {
          storeId,
          memberId: c.member.id,
          kind: 'card_expiring',
          event: `${c.card.id}:${c.expireTime.slice(0, 10)}`,
          vars: { card: c.card.cardName.slice(0, 20), expire: c.expireTime.slice(0, 10) },
          now,
          byJob: true,
        });
      }
      if (c.reasons.includes('lowCount') || c.reasons.includes('lowMoney')) {
        const count = c.card.bigType === BIG_TYPE_COUNT;
        const total = await repo.cardTotal(tx, c.card.id);
        await queueReminder(tx, {
          storeId,
          memberId: c.member.id,
          kind: 'balance_low',
          event: `${c.card.id}:${total}`,
          vars: { card: c.card.cardName.slice(0, 20), balance: count ? `${c.balance}次` : formatFen(c.balance) },
          now,
          byJob: true,
        });
      }
    }
  });
}
