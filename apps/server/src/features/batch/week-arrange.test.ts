import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/index.ts';
import { addDays } from '../../lib/time.ts';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { Client, describeEachDb, newStore, PG_URL, type TestEnv } from '../../../test/harness.ts';
import { templateDate } from './plan.ts';
import { API, expectInvariants, FUTURE, outboxCount, snapshot } from '../../../test/batch-kit.ts';

const ARRANGE = `${API}/batch/arrange/week/course`;

/** A store of its own (the weekly template is per store), with a course and card product. */
async function freshStore(env: TestEnv, course: Record<string, unknown> = {}) {
  const s = await newStore(env.app, env.database);
  const ef = new EngineFactory(s.factory);
  const product = await s.factory.cardProduct({ perCount: 1 });
  const c = await s.factory.course({ cardIds: [product.id], duration: 60, ...course });
  return { ...s, ef, product, course: c };
}

type Store = Awaited<ReturnType<typeof freshStore>>;

/** Adds a template row with fresh members, one card each (totalCount `total`). */
async function row(
  s: Store,
  o: { weekday: number; time: string; students?: number; total?: number; teacherId?: number },
) {
  const teacherId = o.teacherId ?? (await s.factory.teacher()).id;
  const cards = [];
  for (let i = 0; i < (o.students ?? 1); i++) {
    cards.push((await s.ef.memberWithCard(s.product.id, { card: { totalCount: o.total ?? 100 } })).card);
  }
  const { id } = await s.client.ok(`${API}/insert/fix/timetable`, {
    weekday: o.weekday,
    time: o.time,
    courseId: s.course.id,
    teacherId,
    areaId: null,
    reservableCount: 10,
    bookId: null,
    students: cards.map((c) => ({ mcId: c.id, studentCount: 1 })),
  });
  return { id: id as number, teacherId, cards };
}

describeEachDb('weekly template scheduling', (env) => {
  it('checks fromDate and arrangeWeeks with the spec messages', async () => {
    const { client } = env();
    const cases: [unknown, string][] = [
      [{ arrangeWeeks: 1 }, Msg.weekStartMonday],
      [{ fromDate: '', arrangeWeeks: 1 }, Msg.weekStartMonday],
      [{ fromDate: addDays(FUTURE, 1), arrangeWeeks: 1 }, Msg.weekStartMonday],
      [{ fromDate: FUTURE, arrangeWeeks: 0 }, Msg.weeksMin1],
      [{ fromDate: FUTURE }, Msg.weeksMin1],
      [{ fromDate: FUTURE, arrangeWeeks: 201 }, Msg.weeksMax200],
    ];
    for (const [body, msg] of cases) {
      const a = await client.call(ARRANGE, body);
      expect(a.status, msg).toBe(400);
      expect(a.msg).toBe(msg);
    }
  });

  it('refuses an empty template', async () => {
    const s = await freshStore(env());
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 1 });
    expect(a.status).toBe(400);
    expect(a.msg).toBe(Msg.templateEmpty);
  });

  it('instantiates every row each week on its weekday with its fixed students booked', async () => {
    const s = await freshStore(env());
    const mon = await row(s, { weekday: 1, time: '09:00', students: 2, total: 3 });
    const sun = await row(s, { weekday: 0, time: '18:30', students: 1, total: 3 });
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 3 });
    expect(a.code).toBe(0);
    expect(a.data).toEqual({ count: 6 });
    const sessions = await s.factory.db
      .selectFrom('timetable')
      .selectAll()
      .where('storeId', '=', s.storeId)
      .orderBy('startTime')
      .execute();
    expect(sessions.map((x) => `${x.startTime}|${x.endTime}|${x.teacherId}|${x.realCount}`)).toEqual([
      `${FUTURE} 09:00:00|${FUTURE} 10:00:00|${mon.teacherId}|2`,
      `${addDays(FUTURE, 6)} 18:30:00|${addDays(FUTURE, 6)} 19:30:00|${sun.teacherId}|1`,
      `${addDays(FUTURE, 7)} 09:00:00|${addDays(FUTURE, 7)} 10:00:00|${mon.teacherId}|2`,
      `${addDays(FUTURE, 13)} 18:30:00|${addDays(FUTURE, 13)} 19:30:00|${sun.teacherId}|1`,
      `${addDays(FUTURE, 14)} 09:00:00|${addDays(FUTURE, 14)} 10:00:00|${mon.teacherId}|2`,
      `${addDays(FUTURE, 20)} 18:30:00|${addDays(FUTURE, 20)} 19:30:00|${sun.teacherId}|1`,
    ]);
    for (const x of sessions) {
      expect(x.reservableCount).toBe(10);
      expect(x.color).toBe(s.course.color);
    }
    const cardsOf = await s.factory.db
      .selectFrom('timetableCard')
      .select('cardId')
      .where('timetableId', '=', sessions[0].id)
      .execute();
    expect(cardsOf.map((c) => c.cardId)).toEqual([s.product.id]);
    for (const c of [...mon.cards, ...sun.cards]) expect((await s.ef.cardRow(c.id)).usedCount).toBe(3);
    const history = await s.factory.db
      .selectFrom('history')
      .select(['operateType', 'operatorId'])
      .where('storeId', '=', s.storeId)
      .execute();
    expect(history).toHaveLength(9);
    expect(new Set(history.map((h) => `${h.operateType}:${h.operatorId}`))).toEqual(new Set([`2:${s.staffId}`]));
    await expectInvariants(s.factory.db, s.storeId);
  });

  it('adds pendings instead in deduction mode 1, deducting nothing, as many as each card can pay at sign-in', async () => {
    const s = await freshStore(env());
    await s.ef.setMode(1);
    const r = await row(s, { weekday: 3, time: '10:00', students: 2, total: 2 });
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 2 });
    expect(a.data).toEqual({ count: 2 });
    const snap = await snapshot(s.factory.db, s.storeId);
    expect(snap).toMatchObject({ sessions: 2, reservations: 0, pendings: 4, history: 4, ledger: 0 });
    for (const c of r.cards) expect((await s.ef.cardRow(c.id)).usedCount).toBe(0);
    // the cards' two classes are held: a later run counts them, and a third week is refused
    const later = await s.client.call(ARRANGE, { fromDate: addDays(FUTURE, 14), arrangeWeeks: 1 });
    expect(later.status).toBe(409);
    expect(later.msg).toContain(Msg.cardCommitted);
    expect(await snapshot(s.factory.db, s.storeId)).toEqual(snap);
    await expectInvariants(s.factory.db, s.storeId);
  });

  it('refuses a second identical request, also when both arrive at once; another week is fine', async () => {
    const s = await freshStore(env());
    await row(s, { weekday: 2, time: '08:00', students: 1 });
    const body = { fromDate: FUTURE, arrangeWeeks: 2 };
    const [a, b] = await Promise.all([s.client.call(ARRANGE, body), s.client.call(ARRANGE, body)]);
    expect([a.code, b.code].sort()).toEqual([0, 409]);
    expect([a, b].find((x) => x.code !== 0)!.msg).toBe(Msg.duplicateOp);
    const again = await s.client.call(ARRANGE, body);
    expect(again.status).toBe(409);
    expect(again.msg).toBe(Msg.duplicateOp);
    expect((await snapshot(s.factory.db, s.storeId)).sessions).toBe(2);
    const later = await s.client.call(ARRANGE, { fromDate: addDays(FUTURE, 14), arrangeWeeks: 1 });
    expect(later.data).toEqual({ count: 1 });
    await expectInvariants(s.factory.db, s.storeId);
  });

  it('refuses the duplicate across two app instances on one database', async () => {
    const s = await freshStore(env());
    await row(s, { weekday: 4, time: '08:00', students: 2 });
    // SQLite is one server process per database file (a second one is refused at start, see
    // ops/startup.ts): there the second app shares the first one's connection, as it would in one process.
    const database =
      env().dialect === 'postgres'
        ? openDatabase({ url: PG_URL, schema: env().database.schema, poolMax: 4 })
        : { ...env().database, close: async () => {} };
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), webDist: '/nonexistent' };
    const app = await buildApp({ config, database, validateResponses: true, logger: false });
    try {
      await app.ready();
      const second = new Client(app);
      expect((await second.login(s.username)).code).toBe(0);
      const body = { fromDate: FUTURE, arrangeWeeks: 20 };
      const answers = await Promise.all([s.client.call(ARRANGE, body), second.call(ARRANGE, body)]);
      expect(answers.map((a) => a.code).sort()).toEqual([0, 409]);
      expect(answers.find((a) => a.code !== 0)!.msg).toBe(Msg.duplicateOp);
      expect(await snapshot(s.factory.db, s.storeId)).toMatchObject({ sessions: 20, reservations: 40 });
      await expectInvariants(s.factory.db, s.storeId);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('lets the same request through once its lock has expired (then the teacher clash refuses it)', async () => {
    const s = await freshStore(env());
    await row(s, { weekday: 2, time: '08:00' });
    const body = { fromDate: FUTURE, arrangeWeeks: 1 };
    expect((await s.client.call(ARRANGE, body)).code).toBe(0);
    await s.factory.db.updateTable('opLock').set({ createdAt: 0 }).where('storeId', '=', s.storeId).execute();
    const a = await s.client.call(ARRANGE, body);
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.teacherConflict(`${addDays(FUTURE, 1)} 08:00`));
    expect(a.data).toEqual({ dates: [`${addDays(FUTURE, 1)} 08:00`] });
  });

  it('refuses a teacher clash with existing sessions or between rows, naming the dates', async () => {
    const s = await freshStore(env());
    const teacher = await s.factory.teacher();
    await row(s, { weekday: 1, time: '10:00', teacherId: teacher.id });
    await row(s, { weekday: 1, time: '10:30', teacherId: teacher.id });
    const before = await snapshot(s.factory.db, s.storeId);
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 1 });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.teacherConflict(`${FUTURE} 10:00、${FUTURE} 10:30`));
    expect(await snapshot(s.factory.db, s.storeId)).toEqual(before);

    const t = await freshStore(env());
    const r = await row(t, { weekday: 4, time: '19:00' });
    await t.ef.session({
      courseId: t.course.id,
      teacherId: r.teacherId,
      startTime: `${addDays(FUTURE, 10)} 19:59:00`,
    });
    const b = await t.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 3 });
    expect(b.status).toBe(409);
    expect(b.data).toEqual({ dates: [`${addDays(FUTURE, 10)} 19:00`] });
  });

  it('names the week, its date and the member when a card expires during the run', async () => {
    const s = await freshStore(env());
    const r = await row(s, { weekday: 5, time: '09:00' });
    const product = await s.factory.db
      .updateTable('cardProduct')
      .set({ cardType: 1 })
      .where('id', '=', s.product.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(product.cardType).toBe(1);
    await s.factory.db
      .updateTable('memberCard')
      .set({ expireTime: `${addDays(FUTURE, 14)} 23:59:59` })
      .where('id', '=', r.cards[0].id)
      .execute();
    const member = await s.factory.db
      .selectFrom('member')
      .select('name')
      .where('id', '=', r.cards[0].memberId)
      .executeTakeFirstOrThrow();
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 5 });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.weekArrangeFailed(3, templateDate(FUTURE, 3, 5), member.name, Msg.cardExpired));
  });

  it('refuses to book fixed students into sessions already over', async () => {
    const s = await freshStore(env());
    const r = await row(s, { weekday: 1, time: '09:00' });
    // A card started before the class (one started after it is refused as not started yet).
    await s.factory.db
      .updateTable('memberCard')
      .set({ activateTime: '2019-12-01 00:00:00' })
      .where('id', '=', r.cards[0].id)
      .execute();
    const member = await s.factory.db
      .selectFrom('member')
      .select('name')
      .where('id', '=', r.cards[0].memberId)
      .executeTakeFirstOrThrow();
    const a = await s.client.call(ARRANGE, { fromDate: '2020-01-06', arrangeWeeks: 1 });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.weekArrangeFailed(1, '2020-01-06', member.name, Msg.sessionStarted));
    expect((await snapshot(s.factory.db, s.storeId)).sessions).toBe(0);
  });

  it('applies the gender limit of the course to each fixed student', async () => {
    const s = await freshStore(env());
    const r = await row(s, { weekday: 1, time: '09:00' });
    await s.factory.db.updateTable('course').set({ genderLimit: 0 }).where('id', '=', s.course.id).execute();
    const member = await s.factory.db
      .selectFrom('member')
      .select('name')
      .where('id', '=', r.cards[0].memberId)
      .executeTakeFirstOrThrow();
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 1 });
    expect(a.msg).toBe(Msg.weekArrangeFailed(1, FUTURE, member.name, Msg.genderLimited));
    expect((await snapshot(s.factory.db, s.storeId)).sessions).toBe(0);
  });

  it('refuses more than one student per fixed booking once the store deducts at sign-in', async () => {
    const s = await freshStore(env());
    const m = await s.ef.memberWithCard(s.product.id);
    const teacher = await s.factory.teacher();
    await s.client.ok(`${API}/insert/fix/timetable`, {
      weekday: 1,
      time: '09:00',
      courseId: s.course.id,
      teacherId: teacher.id,
      reservableCount: 5,
      students: [{ mcId: m.card.id, studentCount: 2 }],
    });
    await s.ef.setMode(1);
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 1 });
    expect(a.msg).toBe(Msg.weekArrangeFailed(1, FUTURE, m.member.name, Msg.oneStudentInSignInMode));
  });

  it('answers the 404 of the first row naming a course, teacher, venue or material not of the store, and writes nothing', async () => {
    const s = await freshStore(env());
    const rows: Awaited<ReturnType<typeof row>>[] = [];
    for (let i = 0; i < 4; i++) rows.push(await row(s, { weekday: i + 1, time: '09:00' }));
    const db = s.factory.db;
    const setRow = (i: number, change: { courseId?: number; areaId?: number | null; bookId?: number | null }) =>
      db.updateTable('fixTimetable').set(change).where('id', '=', rows[i].id).execute();
    const before = await snapshot(db, s.storeId);
    const refused = async (what: string) => {
      const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 2 });
      expect(a.status, what).toBe(404);
      expect(a.msg).toBe(Msg.notFound(what));
      expect(await snapshot(db, s.storeId)).toEqual(before);
    };
    // Row 3's teacher deleted since the row was saved; row 4's venue is another store's.
    await db.updateTable('teacher').set({ deleted: 1 }).where('id', '=', rows[2].teacherId).execute();
    await setRow(3, { areaId: (await env().other.factory.area()).id });
    await refused('老师');
    // Row 2's venue is another store's: row 2 comes first.
    await setRow(1, { areaId: (await env().other.factory.area()).id });
    await refused('场地');
    // Row 2's course deleted too: a row's course is checked before its venue.
    const gone = await s.factory.course({ cardIds: [s.product.id], deleted: 1 });
    await setRow(1, { courseId: gone.id });
    await refused('课程');
    // Row 1's material is another store's.
    await setRow(0, { bookId: (await env().other.factory.material()).id });
    await refused('教材');
    // Put right, the same run goes through (the refusals kept no lock).
    await db.updateTable('teacher').set({ deleted: 0 }).where('id', '=', rows[2].teacherId).execute();
    await setRow(0, { bookId: null });
    await setRow(1, { courseId: s.course.id, areaId: null });
    await setRow(3, { areaId: null });
    expect((await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 2 })).data).toEqual({ count: 8 });
    await expectInvariants(db, s.storeId);
  });

  it('must-show: 200 weeks of 40 rows x 3 fixed students in one transaction', async () => {
    const s = await freshStore(env());
    for (let i = 0; i < 40; i++) await row(s, { weekday: i % 7, time: '07:00', students: 3, total: 200 });
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 200 });
    expect(a.code).toBe(0);
    expect(a.data).toEqual({ count: 8000 });
    const snap = await snapshot(s.factory.db, s.storeId);
    expect(snap).toMatchObject({ sessions: 8000, reservations: 24000, history: 24000, ledger: 24000, pendings: 0 });
    const cards = await s.factory.db
      .selectFrom('memberCard')
      .select(['usedCount', 'totalCount'])
      .where('storeId', '=', s.storeId)
      .execute();
    expect(cards).toHaveLength(120);
    for (const c of cards) expect(Number(c.usedCount)).toBe(200);
    await expectInvariants(s.factory.db, s.storeId);
  });

  it('must-show: one card short fails at week 150, leaves nothing behind, and can be retried', async () => {
    const s = await freshStore(env());
    const rows = [];
    for (let i = 0; i < 40; i++) rows.push(await row(s, { weekday: i % 7, time: '07:00', students: 3, total: 200 }));
    const short = rows[17].cards[1];
    await s.factory.db.updateTable('memberCard').set({ totalCount: 149 }).where('id', '=', short.id).execute();
    const member = await s.factory.db
      .selectFrom('member')
      .select('name')
      .where('id', '=', short.memberId)
      .executeTakeFirstOrThrow();
    const before = await snapshot(s.factory.db, s.storeId);
    const a = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 200 });
    expect(a.status).toBe(409);
    expect(a.msg).toBe(Msg.weekArrangeFailed(150, templateDate(FUTURE, 150, 17 % 7), member.name, Msg.cardBalance));
    expect(a.msg).toContain('第150周');
    expect(await snapshot(s.factory.db, s.storeId)).toEqual(before);
    expect(before.sessions).toBe(0);
    // The failed run kept no lock: once the card is topped up, the same request goes through.
    await s.factory.db.updateTable('memberCard').set({ totalCount: 200 }).where('id', '=', short.id).execute();
    const b = await s.client.call(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 200 });
    expect(b.data).toEqual({ count: 8000 });
    await expectInvariants(s.factory.db, s.storeId);
  });
});

describeEachDb('weekly template bulk path matches the engine', (env) => {
  /** Rows a booking leaves behind, without ids, times and teacher (which differ between the two paths). */
  async function trail(s: Store, timetableId: number) {
    const db = s.factory.db;
    const session = await db
      .selectFrom('timetable')
      .selectAll()
      .where('id', '=', timetableId)
      .executeTakeFirstOrThrow();
    const { id: _i, teacherId: _t, startTime: _s, endTime: _e, createdAt: _c, ...sessionRest } = session;
    const strip = <T extends Record<string, unknown>>(rows: T[]) =>
      rows.map((r) => {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(r)) {
          // `version` (PostgreSQL): the calendar's per-session data version, new on every write.
          if (!/^(id|timetableId|reservationId|pendingId|createTime|createdAt|version)$/.test(k)) out[k] = v;
        }
        return out;
      });
    return {
      session: strip([sessionRest])[0],
      cards: strip(await db.selectFrom('timetableCard').selectAll().where('timetableId', '=', timetableId).execute()),
      reservations: strip(
        await db
          .selectFrom('reservation')
          .selectAll()
          .where('timetableId', '=', timetableId)
          .orderBy('memberId')
          .execute(),
      ),
      pendings: strip(
        await db.selectFrom('pending').selectAll().where('timetableId', '=', timetableId).orderBy('memberId').execute(),
      ),
      history: strip(
        await db.selectFrom('history').selectAll().where('timetableId', '=', timetableId).orderBy('memberId').execute(),
      ),
      ledger: strip(
        await db
          .selectFrom('cardLedger')
          .selectAll()
          .where('timetableId', '=', timetableId)
          .orderBy('memberCardId')
          .execute(),
      ),
    };
  }

  for (const mode of [0, 1] as const) {
    it(`writes what createSession + ${mode ? 'addPending' : 'bookWithCard'} write (mode ${mode})`, async () => {
      const s = await freshStore(env(), { genderLimit: 2, color: '#00aa00' });
      await s.ef.setMode(mode);
      const r = await row(s, { weekday: 1, time: '09:00', students: 2 });
      const queued0 = await outboxCount(s.factory.db, s.storeId);
      await s.client.ok(ARRANGE, { fromDate: FUTURE, arrangeWeeks: 1 });
      const queued1 = await outboxCount(s.factory.db, s.storeId);
      const other = await s.factory.teacher();
      const viaEngine = await s.ef.session({
        courseId: s.course.id,
        teacherId: other.id,
        startTime: `${addDays(FUTURE, 7)} 09:00:00`,
        reservableCount: 10,
      });
      // Drop-in books into an existing session through the engine's bookWithCard / addPending.
      for (const c of r.cards) {
        await s.client.ok(`${API}/batch/add/member/reservation`, {
          mcId: c.id,
          cid: s.course.id,
          tids: [other.id],
          startDate: addDays(FUTURE, 7),
          times: 1,
        });
      }
      const bulk = await s.factory.db
        .selectFrom('timetable')
        .select('id')
        .where('teacherId', '=', r.teacherId)
        .executeTakeFirstOrThrow();
      const queued2 = await outboxCount(s.factory.db, s.storeId);
      expect(queued1 - queued0).toBe(queued2 - queued1);
      const fromBulk = await trail(s, bulk.id);
      expect(fromBulk.history).toHaveLength(2);
      expect(fromBulk.cards).toHaveLength(1);
      expect(mode ? fromBulk.pendings : fromBulk.ledger).toHaveLength(2);
      expect(fromBulk).toEqual(await trail(s, viaEngine.id));
      await expectInvariants(s.factory.db, s.storeId);
    });
  }
});
