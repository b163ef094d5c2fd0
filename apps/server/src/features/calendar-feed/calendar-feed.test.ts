// Calendar feeds (issue 29 item 10): private iCalendar addresses of a member's bookings and a
// teacher's classes, fetched the way a phone's calendar app does (GET, no cookie).
import { Msg } from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb, staffClient, type TestEnv } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';

const STORE = '/store/api';

async function fetchFeed(e: TestEnv, url: string) {
  const res = await e.app.inject({ method: 'GET', url: new URL(url).pathname });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.body };
}

/** The events of an iCalendar text: UID, DTSTART line and SUMMARY of each. */
function eventsOf(text: string) {
  return text
    .split('BEGIN:VEVENT')
    .slice(1)
    .map((v) => ({
      uid: /\r?\nUID:([^\r\n]+)/.exec(v)?.[1],
      start: /\r?\n(DTSTART[^\r\n]+)/.exec(v)?.[1],
      summary: /\r?\nSUMMARY:([^\r\n]+)/.exec(v)?.[1],
    }));
}

describeEachDb('calendar feeds', (env) => {
  let tomorrow: string;
  let scene: Awaited<ReturnType<EngineFactory['scene']>>;
  let sessions: number[];
  beforeAll(async () => {
    const e = env();
    const ef = new EngineFactory(e.factory);
    tomorrow = addDays(localDateTime('Asia/Shanghai').slice(0, 10), 1);
    scene = await ef.scene({ course: { name: '晨间瑜伽', count: 10 } });
    sessions = [];
    for (const time of ['09:00:00', '19:30:00']) {
      sessions.push(
        (await ef.session({ courseId: scene.course.id, teacherId: scene.teacher.id, startTime: `${tomorrow} ${time}` }))
          .id,
      );
    }
  });

  it("lists a member's live bookings at the store's wall-clock time; a cancelled one leaves the feed", async () => {
    const e = env();
    const m = await e.factory.member({ name: '订阅会员' });
    const card = await e.factory.memberCard(m.id, scene.product.id, { totalCount: 10 });
    const phone = await memberClient(e, m);
    for (const tid of sessions)
      await e.client.ok(`${STORE}/add/member/reservation`, { tid, mcId: card.id, studentCount: 1 });
    const feed = await phone.ok('/member/api/query/calendar/feed');
    expect(feed.url).toMatch(/^http:\/\/[^/]+\/calendar\/[A-Za-z0-9_-]{32}\.ics$/);
    expect(feed.webcal).toBe(feed.url.replace('http://', 'webcal://'));
    // Asked again: the same address.
    expect((await phone.ok('/member/api/query/calendar/feed')).url).toBe(feed.url);

    const got = await fetchFeed(e, feed.url);
    expect(got.status).toBe(200);
    expect(got.type).toMatch(/^text\/calendar/);
    const events = eventsOf(got.body);
    expect(events.map((v) => v.start).sort()).toEqual([
      `DTSTART;TZID=Asia/Shanghai:${tomorrow.replaceAll('-', '')}T090000`,
      `DTSTART;TZID=Asia/Shanghai:${tomorrow.replaceAll('-', '')}T193000`,
    ]);
    expect(events.every((v) => v.summary === '晨间瑜伽')).toBe(true);

    const bookings = await e.database.db
      .selectFrom('reservation')
      .select('id')
      .where('memberId', '=', m.id)
      .orderBy('id')
      .execute();
    await e.client.ok(`${STORE}/cancel/reservation`, { id: bookings[0].id });
    const after = eventsOf((await fetchFeed(e, feed.url)).body);
    expect(after.map((v) => v.uid)).toEqual([`booking-${bookings[1].id}@store-${e.storeId}`]);
  });

  it('a reset gives a new address, the old one answers 404, and the reset is in the audit log', async () => {
    const e = env();
    const m = await e.factory.member({ name: '重置会员' });
    const phone = await memberClient(e, m);
    const old = await phone.ok('/member/api/query/calendar/feed');
    const fresh = await phone.ok('/member/api/reset/calendar/feed');
    expect(fresh.url).not.toBe(old.url);
    expect((await fetchFeed(e, old.url)).status).toBe(404);
    expect((await fetchFeed(e, fresh.url)).status).toBe(200);
    const entry = await e.database.db
      .selectFrom('auditLog')
      .select(['kind', 'actorKind', 'target'])
      .where('call', '=', '/member/api/reset/calendar/feed')
      .where('memberId', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({ kind: 'member', actorKind: 'member', target: '日历订阅地址' });
  });

  it('unknown and malformed tokens are a plain 404', async () => {
    const e = env();
    for (const path of [
      '/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics',
      '/calendar/short.ics',
      "/calendar/'%20or%201=1.ics",
    ]) {
      const res = await e.app.inject({ method: 'GET', url: path });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toMatch(/BEGIN:VCALENDAR/);
    }
  });

  it("a teacher's feed lists their classes with the seats taken; a teacher account sees its own only", async () => {
    const e = env();
    const feed = await e.client.ok(`${STORE}/query/teacher/calendar/feed`, { teacherId: scene.teacher.id });
    const events = eventsOf((await fetchFeed(e, feed.url)).body);
    expect(events.map((v) => v.uid).sort()).toEqual(sessions.map((id) => `session-${id}@store-${e.storeId}`).sort());
    expect(events[0].summary).toMatch(/^晨间瑜伽（已约\d+\/10）$/);

    const own = await staffClient(e, 'teacher', scene.teacher.id);
    expect((await own.ok(`${STORE}/query/teacher/calendar/feed`, { teacherId: scene.teacher.id })).url).toBe(feed.url);
    const other = await e.factory.teacher({ name: '别的老师' });
    const refused = await own.call(`${STORE}/query/teacher/calendar/feed`, { teacherId: other.id });
    expect([refused.status, refused.msg]).toEqual([403, Msg.forbiddenSession]);
    // Another store's teacher is not found from this store.
    const theirs = await e.other.factory.teacher({ name: '他店老师' });
    const missing = await e.client.call(`${STORE}/query/teacher/calendar/feed`, { teacherId: theirs.id });
    expect([missing.status, missing.msg]).toEqual([404, Msg.notFound('老师')]);
  });
});
