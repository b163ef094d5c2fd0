import { ALERT_DIGEST_DEFAULT, zAlertDigest, type AlertDigest } from '@studio/contract';
import { audit } from '../../lib/audit.ts';
import type { Db, Dialect } from '../../db/index.ts';
import { inWriteTx } from '../../lib/write-queue.ts';
import { event, type Events } from '../../lib/events.ts';
import { cardsDigest } from './events.ts';
import { localDateTime } from '../../lib/time.ts';
import { getSetting, putSetting } from '../store-admin/public.ts';
import { claimDailyJob, storesWithSetting } from './repository.ts';
import { cardsToAlert } from './service.ts';

const KEY = 'cardAlertDigest';
const KIND = 'card-alert-digest';
/** Cards listed in the message itself; the rest are counted. */
const DIGEST_ROWS = 10;
const REASON_TEXT = { expiring: '即将到期', lowCount: '次数不足', lowMoney: '余额不足' } as const;

/** A stored digest setting, or the default when none (or an unreadable one) is stored. */
function parse(value: string | undefined): AlertDigest {
  if (value === undefined) return ALERT_DIGEST_DEFAULT;
  try {
    const r = zAlertDigest.safeParse(JSON.parse(value));
    return r.success ? r.data : ALERT_DIGEST_DEFAULT;
  } catch {
    return ALERT_DIGEST_DEFAULT;
  }
}

export async function loadDigest(db: Db, storeId: number): Promise<AlertDigest> {
  return parse(await getSetting(db, storeId, KEY));
}

export async function saveDigest(db: Db, storeId: number, d: AlertDigest): Promise<void> {
  await putSetting(db, storeId, KEY, JSON.stringify(d));
  audit(db, { kind: 'settings', target: '会员卡提醒' });
}

/**
 * Sends the day's card-alert digest of every store whose digest is on and whose local time has
 * reached its hour, once per store and local date whatever the number of instances: the date is
 * claimed (`daily_job`) in the same transaction that queues the message, so a crash before the
 * commit leaves it for the next run and a second instance finds it taken. Answers the stores sent.
 */
export async function runDueDigests(
  { db, dialect, events }: { db: Db; dialect: Dialect; events: Events },
  at: number = Date.now(),
): Promise<number[]> {
  const sent: number[] = [];
  for (const s of await storesWithSetting(db, KEY)) {
    const d = parse(s.value);
    const local = localDateTime(s.timezone, at);
    if (!d.enabled || local.slice(11, 16) < d.time) continue;
    const date = local.slice(0, 10);
    const done = await inWriteTx(db, dialect, async (tx) => {
      if (!(await claimDailyJob(tx, s.storeId, KIND, date, at))) return false;
      const cards = await cardsToAlert(tx, s.storeId, local, d);
      await events.emit(
        tx,
        event(cardsDigest, {
          storeId: s.storeId,
          date,
          total: cards.length,
          rows: cards.slice(0, DIGEST_ROWS).map((c) => ({
            memberName: c.member.name,
            mobile: c.member.mobile,
            cardName: c.card.cardName,
            bigType: c.card.bigType,
            balance: c.balance,
            reasons: c.reasons.map((r) => REASON_TEXT[r]).join('、'),
          })),
        }),
      );
      return true;
    });
    if (done) sent.push(s.storeId);
  }
  return sent;
}
