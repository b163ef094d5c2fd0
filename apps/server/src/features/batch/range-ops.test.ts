import { Msg } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays } from '../../lib/time.ts';
import { describeEachDb, staffClient, type TestEnv } from '../../../test/harness.ts';
import { API, engineFactory, expectInvariants, FUTURE, outboxCount, snapshot } from '../../../test/batch-kit.ts';

const CANCEL = `${API}/batch/cancel/timetable`;
const EXPORT = `${API}/batch/export/reservation`;

/** The store's audit entries (a refused call leaves none). */
async function auditCount(env: TestEnv): Promise<number> {
  const row = await env.factory.db
    .selectFrom('auditLog')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('storeId', '=', env.storeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEachDb('batch delete and export', (env) => {
  /** Sessions on days d, d+1 (sub-venue), d+2 (other venue) and d+3 (outside), each with one booking of 2 seats. */
  async function scene(d: number) {
    const ef = engineFactory(env());
    const { teacher, product, course } = await ef.scene({ product: { perCount: 3 } });
    const parent = await env().factory.area();
    const child = await env().factory.area({ parentId: parent.id });
    const elsewhere = await env().factory.area();
    const day = (n: number) => addDays(FUTURE, d + n);
    const areas = [parent.id, child.id, elsewhere.id, parent.id];
    const sessions = [];
    const cards = [];
    for (let i = 0; i < 4; i++) {
      const session = await ef.session({
        courseId: course.id,
        teacherId: teacher.id,
        startTime: `${day(i)} 10:00:00`,
        venueId: areas[i],
      });
      const m = await ef.memberWithCard(product.id, { card: { totalCount: 20 } });
      await env().client.ok(`${API}/add/member/reservation`, {
        mcId: m.card.id,
        tid: session.id,
        studentCount: 2,
        remark: `备注${i}`,
      });
      sessions.push(session);
      cards.push(m);
    }
    return { ef, teacher, product, course, parent, child, elsewhere, sessions, cards, day };
  }

  it('needs both dates', async () => {
    for (const body of [{ toDate: FUTURE }, { fromDate: FUTURE, toDate: '' }]) {
      const a = await env().client.call(CANCEL, body);
      expect(a.status).toBe(400);
      expect(a.msg).toBe(Msg.chooseDates);
      const b = await env().client.call(EXPORT, body);
      expect(b.status).toBe(400);
      expect(b.msg).toBe(Msg.submitChooseDates);
    }
    const far = await env().client.call(EXPORT, { fromDate: FUTURE, toDate: addDays(FUTURE, 62) });
    expect(far.msg).toBe(Msg.exportRangeMax);
    expect((await env().client.call(EXPORT, { fromDate: FUTURE, toDate: addDays(FUTURE, 61) })).code).toBe(0);
  });

  it('refuses a batch delete (and its preview) of more than 92 days, writing nothing', async () => {
    const s = await scene(800);
    // A desk account asking for ten years: refused before anything is read or written.
    const desk = await staffClient(env(), 'desk');
    const before = await snapshot(env().factory.db, env().storeId);
    const entries = await auditCount(env());
    for (const client of [env().client, desk]) {
      for (const dryRun of [true, false]) {
        const tenYears = await client.call(CANCEL, { fromDate: s.day(0), toDate: addDays(s.day(0), 3652), dryRun });
        expect([tenYears.status, tenYears.code, tenYears.msg, tenYears.data]).toEqual([
          400,
          400,
          Msg.batchDeleteRangeMax,
          null,
        ]);
        const day93 = await client.call(CANCEL, { fromDate: s.day(0), toDate: addDays(s.day(0), 92), dryRun });
        expect([day93.status, day93.msg]).toEqual([400, Msg.batchDeleteRangeMax]);
      }
    }
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
    expect(await auditCount(env())).toBe(entries);
    // 92 days is the longest range: previewed, then done.
    const quarter = { fromDate: s.day(0), toDate: addDays(s.day(0), 91) };
    const preview = await desk.ok(CANCEL, { ...quarter, dryRun: true });
    expect(preview.count).toBe(4);
    expect(await snapshot(env().factory.db, env().storeId)).toEqual(before);
    expect(await desk.ok(CANCEL, quarter)).toEqual({ count: 4 });
    await expectInvariants(env().factory.db, env().storeId);
  });

  it('deletes every session of the range and venue (with sub-venues), refunding every booking', async () => {
    const s = await scene(400);
    const a = await env().client.call(CANCEL, { fromDate: s.day(0), toDate: s.day(2), areaId: s.parent.id });
    expect(a.code).toBe(0);
    expect(a.data).toEqual({ count: 2 });
    const rows = await env()
      .factory.db.selectFrom('timetable')
      .select(['id', 'deleted', 'realCount'])
      .where(
        'id',
        'in',
        s.sessions.map((x) => x.id),
      )
      .orderBy('startTime')
      .execute();
    expect(rows.map((r) => r.deleted)).toEqual([1, 1, 0, 0]);
    expect((await s.ef.cardRow(s.cards[0].card.id)).usedCount).toBe(0);
    expect((await s.ef.cardRow(s.cards[1].card.id)).usedCount).toBe(0);
    expect((await s.ef.cardRow(s.cards[2].card.id)).usedCount).toBe(6);
    const cancels = await env()
      .factory.db.selectFrom('history')
      .select('operateType')
      .where('timetableId', '=', s.sessions[0].id)
      .orderBy('id')
      .execute();
    expect(cancels.map((h) => h.operateType)).toEqual([2, 4]);
    await expectInvariants(env().factory.db, env().storeId);

    const all = await env().client.ok(CANCEL, { fromDate: s.day(0), toDate: s.day(2) });
    expect(all).toEqual({ count: 1 });
    expect((await s.ef.cardRow(s.cards[2].card.id)).usedCount).toBe(0);
    expect((await s.ef.cardRow(s.cards[3].card.id)).usedCount).toBe(6);
    await expectInvariants(env().factory.db, env().storeId);
  });

  it('leaves other stores alone and answers 404 for their venue', async () => {
    const s = await scene(500);
    const b = await env().other.client.ok(CANCEL, { fromDate: s.day(0), toDate: s.day(3) });
    expect(b).toEqual({ count: 0 });
    const theirArea = await env().other.factory.area();
    const a = await env().client.call(CANCEL, { fromDate: s.day(0), toDate: s.day(3), areaId: theirArea.id });
    expect(a.status).toBe(404);
    expect(a.msg).toBe('场地不存在');
    const live = await env()
      .factory.db.selectFrom('timetable')
      .select('deleted')
      .where(
        'id',
        'in',
        s.sessions.map((x) => x.id),
      )
      .execute();
    expect(live.every((x) => x.deleted === 0)).toBe(true);
  });

  it('exports the live bookings of the range, in time order', async () => {
    const s = await scene(600);
    const cancelled = await env()
      .factory.db.selectFrom('reservation')
      .select('id')
      .where('timetableId', '=', s.sessions[1].id)
      .executeTakeFirstOrThrow();
    await env().client.ok(`${API}/cancel/reservation`, { id: cancelled.id });
    const rows = await env().client.ok(EXPORT, { fromDate: s.day(0), toDate: s.day(2) });
    const members = await env()
      .factory.db.selectFrom('member')
      .select(['id', 'name', 'mobile'])
      .where('id', 'in', [s.cards[0].member.id, s.cards[2].member.id])
      .execute();
    const byId = new Map(members.map((m) => [m.id, m]));
    expect(rows).toEqual(
      [0, 2].map((i) => ({
        courseTime: `${s.day(i)} 10:00-11:00`,
        teacher: s.teacher.name,
        member: byId.get(s.cards[i].member.id)!.name,
        card: s.product.cardName,
        usedCount: 6,
        bigType: 1,
        deduction: '6 次',
        amount: 6,
        unit: '次',
        mobile: byId.get(s.cards[i].member.id)!.mobile,
        courseName: s.course.name,
        // 场地: the session's room or venue (day 0 the venue, day 2 another).
        area: [s.parent, s.child, s.elsewhere][i].name,
        studentCount: 2,
        remark: `备注${i}`,
        state: '已预约',
      })),
    );
    expect(await env().other.client.ok(EXPORT, { fromDate: s.day(0), toDate: s.day(2) })).toEqual([]);
  });

  it('deletes in bulk exactly as the engine deletes one session', async () => {
    const ef = engineFactory(env());
    const db = env().factory.db;
    const { teacher, product, course } = await ef.scene({ product: { perCount: 2 } });
    /** A session with a live booking, a cancelled one, a signed-in pending and a waiting pending. */
    async function busy(day: number) {
      const session = await ef.session({
        courseId: course.id,
        teacherId: teacher.id,
        startTime: `${addDays(FUTURE, day)} 10:00:00`,
      });
      const m = [];
      for (let i = 0; i < 4; i++) m.push(await ef.memberWithCard(product.id, { card: { totalCount: 20 } }));
      const c = env().client;
      await c.ok(`${API}/add/member/reservation`, {
        mcId: m[0].card.id,
        tid: session.id,
        studentCount: 2,
        remark: 'live',
      });
      await c.ok(`${API}/add/member/reservation`, {
        mcId: m[1].card.id,
        tid: session.id,
        studentCount: 1,
        remark: 'gone',
      });
      const gone = await db
        .selectFrom('reservation')
        .select('id')
        .where('memberId', '=', m[1].member.id)
        .executeTakeFirstOrThrow();
      await c.ok(`${API}/cancel/reservation`, { id: gone.id });
      await ef.setMode(1);
      for (const [i, remark] of [
        [2, 'signed'],
        [3, 'waiting'],
      ] as const) {
        await c.ok(`${API}/add/member/group/pending`, {
          mid: m[i].member.id,
          tid: session.id,
          studentCount: 1,
          remark,
        });
      }
      const signed = await db
        .selectFrom('pending')
        .select('id')
        .where('memberId', '=', m[2].member.id)
        .executeTakeFirstOrThrow();
      await c.ok(`${API}/sign/in/pending`, { pendingId: signed.id, mcId: m[2].card.id, remark: 'signed' });
      await ef.setMode(0);
      return { session, m };
    }
    const strip = (rows: Record<string, unknown>[]) =>
      rows
        .map((r) =>
          JSON.stringify(
            Object.fromEntries(
              Object.entries(r).filter(
                ([k]) =>
                  !/^(id|timetableId|reservationId|pendingId|memberId|memberCardId|createTime|createdAt|cancelTime)$/.test(
                    k,
                  ),
              ),
            ),
          ),
        )
        .sort();
    async function trail(b: Awaited<ReturnType<typeof busy>>) {
      const tid = b.session.id;
      const session = await db
        .selectFrom('timetable')
        .select(['deleted', 'realCount'])
        .where('id', '=', tid)
        .executeTakeFirstOrThrow();
      const cards = [];
      for (const x of b.m) cards.push((await ef.cardRow(x.card.id)).usedCount);
      return {
        session,
        cards,
        reservations: strip(await db.selectFrom('reservation').selectAll().where('timetableId', '=', tid).execute()),
        pendings: strip(await db.selectFrom('pending').selectAll().where('timetableId', '=', tid).execute()),
        history: strip(await db.selectFrom('history').selectAll().where('timetableId', '=', tid).execute()),
        ledger: strip(await db.selectFrom('cardLedger').selectAll().where('timetableId', '=', tid).execute()),
      };
    }
    const one = await busy(700);
    const many = await busy(701);
    const queued0 = await outboxCount(db, env().storeId);
    await env().client.ok(`${API}/cancel/timetable`, { id: one.session.id });
    const queued1 = await outboxCount(db, env().storeId);
    expect(await env().client.ok(CANCEL, { fromDate: addDays(FUTURE, 701), toDate: addDays(FUTURE, 701) })).toEqual({
      count: 1,
    });
    expect((await outboxCount(db, env().storeId)) - queued1).toBe(queued1 - queued0);
    const viaEngine = await trail(one);
    expect(viaEngine.session).toEqual({ deleted: 1, realCount: 0 });
    expect(viaEngine.cards).toEqual([0, 0, 0, 0]);
    expect(viaEngine.history.length).toBe(9);
    expect(await trail(many)).toEqual(viaEngine);
    await expectInvariants(db, env().storeId);
  });
});
