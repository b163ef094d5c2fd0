import { memberBook, memberCancelBooking, memberTimetable, type MemberSession } from '@studio/contract';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase, type DbHandle } from '../../db/index.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { Client, describeEachDb, PG_URL, type App } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';

describeEachDb('members timetable: a write through another app instance is seen by the next read', (env) => {
  let second: { app: App; database: DbHandle } | undefined;
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
  });

  /** A second app instance on the same database (the same SQLite file, or the same PostgreSQL schema). */
  async function secondInstance() {
    if (second) return second.app;
    const { database: first, dialect } = env();
    let database: DbHandle;
    if (dialect === 'postgres') {
      database = openDatabase({ url: PG_URL!, schema: first.schema, poolMax: 4 });
    } else {
      const { rows } = await sql<{ file: string }>`select file from pragma_database_list where name = 'main'`.execute(
        first.db,
      );
      database = openDatabase({ file: rows[0].file });
    }
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
    const app = await buildApp({ config, database, validateResponses: true, logger: false });
    await app.ready();
    second = { app, database };
    return app;
  }

  /** The session as the member's timetable of their instance shows it. */
  async function shown(m: Client, id: number): Promise<MemberSession> {
    const date = FUTURE;
    const days: { sessions: MemberSession[] }[] = await m.ok(memberTimetable.path, { fromDate: date, toDate: date });
    return days.flatMap((d) => d.sessions).find((s) => s.id === id)!;
  }

  it('seats and the member’s own state follow bookings and cancels made on the other instance', async () => {
    const app2 = await secondInstance();
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ product: { perCount: 1, cardType: 2 } });
    const session = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      reservableCount: 2,
      startTime: `${FUTURE} 10:00:00`,
    });
    const a = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    const b = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    // a reads on the first instance; b, and a on their other phone, use the second
    const aOnFirst = await memberClient(env(), a.member);
    const aOnSecond = await memberClient({ ...env(), app: app2 }, a.member);
    const bOnSecond = await memberClient({ ...env(), app: app2 }, b.member);

    expect(await shown(aOnFirst, session.id)).toMatchObject({ realCount: 0, mine: null, bookable: true });
    await bOnSecond.ok(memberBook.path, { tid: session.id, mcId: b.card.id, studentCount: 1 });
    expect(await shown(aOnFirst, session.id)).toMatchObject({ realCount: 1, mine: null, bookable: true });

    const booked = await aOnSecond.ok<{ id: number }>(memberBook.path, {
      tid: session.id,
      mcId: a.card.id,
      studentCount: 1,
    });
    expect(await shown(aOnFirst, session.id)).toMatchObject({
      realCount: 2,
      reservableCount: 2,
      mine: { kind: 'booked', id: booked.id },
      bookable: false,
      reason: null,
    });

    await aOnSecond.ok(memberCancelBooking.path, { id: booked.id });
    expect(await shown(aOnFirst, session.id)).toMatchObject({ realCount: 1, mine: null, bookable: true });
  });
});
