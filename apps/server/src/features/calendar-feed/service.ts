import crypto from 'node:crypto';
import icalModule from 'ical-generator';
import { Msg, type CalendarFeed } from '@studio/contract';
import { inWriteTx } from '../../lib/write-queue.ts';
import type { Db } from '../../db/index.ts';
import type { CalendarFeedTable } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import type { CallCtx } from '../../lib/context.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { storeScopeById } from '../../lib/store-scope.ts';
import { addDays, localDateTime } from '../../lib/time.ts';
import { memberCalendarEntries } from '../member-channel/public.ts';
import { publicBaseOf } from '../messaging/public.ts';
import { ownTeacherFilter, requireTeacher } from '../reference/public.ts';
import { teacherSessions } from '../timetable/public.ts';
import { feedByToken, feedTokenOf, insertFeed, replaceFeedToken } from './repository.ts';

type Owner = CalendarFeedTable['owner'];

// ical-generator ships CommonJS and ESM; under tsx the default export arrives wrapped once more.
const ical = ((icalModule as unknown as { default?: typeof icalModule }).default ?? icalModule) as typeof icalModule;

/** How far back and ahead a feed lists classes (a phone keeps what it already has beyond). */
const DAYS_BACK = 30;
const DAYS_AHEAD = 120;

/** 32 URL-safe characters from 24 random bytes: the whole secret of a feed's address. */
const newToken = () => crypto.randomBytes(24).toString('base64url');

/** A token as it appears in a feed's address (anything else is not looked up). */
export const TOKEN_RE = /^[A-Za-z0-9_-]{32}$/;

async function feedAddress(ctx: CallCtx, token: string): Promise<CalendarFeed> {
  const { base } = await publicBaseOf(ctx);
  const url = `${base}/calendar/${token}.ics`;
  return { url, webcal: url.replace(/^https?:\/\//, 'webcal://') };
}

/**
 * An owner's feed address, made on first ask; `reset` gives it a new token (the old address answers
 * 404 from then on) and is the owner's audited change.
 */
export async function feedOf(ctx: CallCtx, owner: Owner, ownerId: number, reset: boolean): Promise<CalendarFeed> {
  const storeId = ctx.store.id;
  const token = await inWriteTx(ctx.db, ctx.dialect, async (tx) => {
    if (reset) {
      audit(tx, {
        kind: owner === 'member' ? 'member' : 'reference',
        target: '日历订阅地址',
        targets: [{ type: owner, id: ownerId }],
      });
      const fresh = newToken();
      if (await replaceFeedToken(tx, storeId, owner, ownerId, fresh)) return fresh;
    }
    const had = await feedTokenOf(tx, storeId, owner, ownerId);
    if (had) return had;
    await insertFeed(tx, storeId, owner, ownerId, newToken());
    return (await feedTokenOf(tx, storeId, owner, ownerId))!;
  });
  return feedAddress(ctx, token);
}

/** A teacher's feed: a teacher account may ask for its own only (403 otherwise). */
export async function teacherFeedOf(ctx: CallCtx, teacherId: number, reset: boolean) {
  const own = ownTeacherFilter(ctx.post);
  if (own !== undefined && own !== teacherId) throw forbidden(Msg.forbiddenSession);
  await requireTeacher(ctx.db, ctx.store.id, teacherId);
  return feedOf(ctx, 'teacher', teacherId, reset);
}

/**
 * The iCalendar text of the feed a token opens, or null (unknown token, the store or teacher gone).
 * Times are the store's wall clock with its zone (TZID), as the timetable shows them.
 */
export async function feedText(db: Db, token: string): Promise<string | null> {
  const feed = await feedByToken(db, token);
  if (!feed) return null;
  const store = await storeScopeById(db, feed.storeId);
  if (!store) return null;
  const now = localDateTime(store.timezone);
  const from = addDays(now.slice(0, 10), -DAYS_BACK);
  const to = addDays(now.slice(0, 10), DAYS_AHEAD);
  const cal = ical({ name: store.name, timezone: store.timezone, ttl: 3600, prodId: '//studio//calendar feed//ZH' });
  const at = (t: string) => t.replace(' ', 'T');
  if (feed.owner === 'member') {
    cal.name(`${store.name}：我的课程`);
    for (const e of await memberCalendarEntries(db, store.id, feed.ownerId, now)) {
      if (e.startTime < `${from} 00:00:00` || e.startTime > `${to} 23:59:59`) continue;
      cal.createEvent({
        id: `${e.uid}@store-${store.id}`,
        start: at(e.startTime),
        end: at(e.endTime),
        timezone: store.timezone,
        summary: e.courseName,
        location: e.areaName ? `${store.name} ${e.areaName}` : store.name,
        description: `老师：${e.teacherName}\n${e.state}`,
      });
    }
  } else {
    // A teacher deleted since: the address answers 404 like an unknown one (any other failure is one).
    const teacher = await requireTeacher(db, store.id, feed.ownerId).catch((e: unknown) => {
      if (e instanceof AppError && e.status === 404) return null;
      throw e;
    });
    if (!teacher) return null;
    cal.name(`${store.name}：${teacher.name}的课`);
    for (const s of await teacherSessions(db, store.id, teacher.id, from, to)) {
      cal.createEvent({
        id: `session-${s.id}@store-${store.id}`,
        start: at(s.startTime),
        end: at(s.endTime),
        timezone: store.timezone,
        summary: `${s.courseName}（已约${s.realCount}/${s.reservableCount}）`,
        location: s.areaName ? `${store.name} ${s.areaName}` : store.name,
        description: s.bookName ? `教材：${s.bookName}` : undefined,
      });
    }
  }
  return cal.toString();
}
