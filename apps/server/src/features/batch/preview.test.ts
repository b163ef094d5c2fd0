// Bulk changes say what they will do: each of the five bulk calls with `dryRun: true` answers a
// preview and writes nothing; run for real, it does exactly what the preview said (checked against
// the rows the act wrote, read independently here). A run the act would refuse previews as a refusal
// with its dates. Both databases.
import { Msg, OperateType, type BulkPreview } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { API, engineFactory, expectInvariants, FUTURE, snapshot } from '../../../test/batch-kit.ts';

describeEachDb('bulk change previews (dry run on the same call)', (env) => {
  const db = () => env().database.db;
  const maxId = async (table: 'history' | 'cardLedger' | 'timetable') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0,
    );

  /** The store's live session ids. */
  const liveSessions = async () =>
    (
      await db()
        .selectFrom('timetable')
        .select('id')
        .where('storeId', '=', env().storeId)
        .where('deleted', '=', 0)
        .execute()
    ).map((r) => r.id);

  /**
   * What the act wrote after the marks, in the preview's terms (an independent reading). The sessions
   * listed: those made (above the session mark), else those it deleted (live before, not after),
   * else those it booked into; by time, at most 50 and the rest counted.
   */
  async function written(mark: { history: number; ledger: number; session: number; live: number[] }) {
    const trail = await db()
      .selectFrom('history')
      .select(['operateType', 'memberId', 'timetableId'])
      .where('storeId', '=', env().storeId)
      .where('id', '>', mark.history)
      .execute();
    const money = await db()
      .selectFrom('cardLedger as l')
      .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .select(['l.kind', 'l.amount', 'p.bigType', 'mc.memberId'])
      .where('l.storeId', '=', env().storeId)
      .where('l.id', '>', mark.ledger)
      .execute();
    const isBook = (t: number) => t === OperateType.USER_BOOKED || t === OperateType.ADMIN_BOOKED;
    const isCancel = (t: number) => t === OperateType.USER_CANCELLED || t === OperateType.ADMIN_CANCELLED;
    const total = (kind: string) => {
      const rows = money.filter((m) => m.kind === kind);
      const kinds = [...new Set(rows.map((r) => r.bigType))].sort();
      return kinds.map((bigType) => ({
        bigType,
        amount: rows.filter((r) => r.bigType === bigType).reduce((s, r) => s + Math.abs(Number(r.amount)), 0),
      }));
    };
    return {
      booked: trail.filter((h) => isBook(h.operateType)).length,
      cancelled: trail.filter((h) => isCancel(h.operateType)).length,
      members: new Set(trail.filter((h) => isBook(h.operateType) || isCancel(h.operateType)).map((h) => h.memberId))
        .size,
      charged: total('deduct'),
      refunded: total('refund'),
      refundedMembers: new Set(money.filter((m) => m.kind === 'refund').map((m) => m.memberId)).size,
      refusal: null,
      clashes: [],
      ...(await listed(
        mark,
        trail.filter((h) => isBook(h.operateType)).map((h) => h.timetableId),
      )),
    };
  }

  async function listed(mark: { session: number; live: number[] }, bookedInto: number[]) {
    const all = await db()
      .selectFrom('timetable as t')
      .innerJoin('course as c', 'c.id', 't.courseId')
      .innerJoin('teacher as te', 'te.id', 't.teacherId')
      .leftJoin('area as a', 'a.id', 't.areaId')
      .select([
        't.id',
        't.deleted',
        't.startTime',
        't.endTime',
        'c.name as course',
        'te.name as teacher',
        'a.name as area',
      ])
      .where('t.storeId', '=', env().storeId)
      .orderBy('t.startTime')
      .orderBy('t.id')
      .execute();
    const made = all.filter((t) => t.id > mark.session);
    const gone = all.filter((t) => mark.live.includes(t.id) && t.deleted === 1);
    const booked = all.filter((t) => bookedInto.includes(t.id));
    const list = made.length ? made : gone.length ? gone : booked;
    return {
      sessions: list.slice(0, 50).map((t) => ({
        date: t.startTime.slice(0, 10),
        startTime: t.startTime.slice(11, 16),
        endTime: t.endTime.slice(11, 16),
        courseName: t.course,
        teacherName: t.teacher,
        areaName: t.area ?? null,
      })),
      moreSessions: Math.max(0, list.length - 50),
    };
  }

  /** Previews `body` on `path` (nothing written), then runs it: the act matches the preview. */
  async function previewThenAct(path: string, body: Record<string, unknown>): Promise<BulkPreview> {
    const before = await snapshot(db(), env().storeId);
    const dry = await env().client.ok<{ count: number; preview: BulkPreview }>(path, { ...body, dryRun: true });
    expect(await snapshot(db(), env().storeId), 'a preview writes nothing').toEqual(before);
    const mark = {
      history: await maxId('history'),
      ledger: await maxId('cardLedger'),
      session: await maxId('timetable'),
      live: await liveSessions(),
    };
    const act = await env().client.ok<{ count: number; preview?: BulkPreview }>(path, body);
    expect(act.preview).toBeUndefined();
    expect(act.count).toBe(dry.count);
    expect(dry.preview).toEqual(await written(mark));
    await expectInvariants(db(), env().storeId);
    return dry.preview;
  }

  async function scene(total = 50) {
    const ef = engineFactory(env());
    const { teacher, product, course } = await ef.scene({ product: { perCount: 3 } });
    const a = await ef.memberWithCard(product.id, { card: { totalCount: total } });
    const b = await ef.memberWithCard(product.id, { card: { totalCount: total } });
    return { ef, teacher, product, course, a, b };
  }

  it('batch scheduling with fixed students: sessions made, each student booked and charged', async () => {
    const s = await scene();
    const p = await previewThenAct(`${API}/batch/arrange/course`, {
      cid: s.course.id,
      tid: s.teacher.id,
      areaId: null,
      students: 5,
      startDate: addDays(FUTURE, 700),
      courseTimes: [{ weekday: 2, arrangeTime: '18:00' }],
      arrangeTimes: 3,
      mcIds: [s.a.card.id, s.b.card.id],
    });
    expect(p).toMatchObject({ booked: 6, members: 2, charged: [{ bigType: 1, amount: 18 }], refusal: null });
    // The dates it makes, one by one (weekday 2: Tuesdays from the start date on).
    const first = addDays(FUTURE, 700);
    const tuesday = addDays(first, (2 - new Date(`${first}T00:00:00Z`).getUTCDay() + 7) % 7);
    expect(p.sessions).toEqual(
      [0, 7, 14].map((d) => ({
        date: addDays(tuesday, d),
        startTime: '18:00',
        endTime: '19:00',
        courseName: s.course.name,
        teacherName: s.teacher.name,
        areaName: null,
      })),
    );
    expect(p.moreSessions).toBe(0);
  });

  it('lists at most 50 sessions one by one and counts the others', async () => {
    const s = await scene();
    const p = await previewThenAct(`${API}/batch/arrange/course`, {
      cid: s.course.id,
      tid: s.teacher.id,
      areaId: null,
      students: 5,
      startDate: addDays(FUTURE, 900),
      courseTimes: [1, 3, 5].map((weekday) => ({ weekday, arrangeTime: '07:00' })),
      arrangeTimes: 60,
    });
    expect(p.sessions.length).toBe(50);
    expect(p.moreSessions).toBe(10);
    const starts = p.sessions.map((x) => `${x.date} ${x.startTime}`);
    expect(starts).toEqual([...starts].sort());
  });

  it('a run the act would refuse (teacher clash) previews the refusal and its dates', async () => {
    const s = await scene();
    const date = addDays(FUTURE, 720);
    await s.ef.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${date} 18:00:00` });
    const before = await snapshot(db(), env().storeId);
    const body = {
      cid: s.course.id,
      tid: s.teacher.id,
      areaId: null,
      students: 5,
      startDate: date,
      courseTimes: [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, arrangeTime: '18:00' })),
      arrangeTimes: 2,
    };
    const dry = await env().client.ok(`${API}/batch/arrange/course`, { ...body, dryRun: true });
    expect(dry.count).toBe(0);
    expect(dry.preview.refusal).toBe(Msg.teacherConflict(`${date} 18:00`));
    expect(dry.preview.clashes).toEqual([`${date} 18:00`]);
    expect(await snapshot(db(), env().storeId)).toEqual(before);
    const act = await env().client.call(`${API}/batch/arrange/course`, body);
    expect([act.status, act.msg]).toEqual([409, dry.preview.refusal]);
  });

  it('weekly-template run, drop-in, copy and batch delete each do what they previewed', async () => {
    const s = await scene();
    await env().client.ok(`${API}/insert/fix/timetable`, {
      weekday: 3,
      time: '07:00',
      courseId: s.course.id,
      teacherId: s.teacher.id,
      areaId: null,
      reservableCount: 8,
      bookId: null,
      students: [{ mcId: s.a.card.id, studentCount: 1 }],
    });
    const monday = addDays(FUTURE, 7 * 110);
    const week = await previewThenAct(`${API}/batch/arrange/week/course`, { fromDate: monday, arrangeWeeks: 2 });
    expect(week).toMatchObject({ booked: 2, charged: [{ bigType: 1, amount: 6 }] });

    const dropIn = await previewThenAct(`${API}/batch/add/member/reservation`, {
      mcId: s.b.card.id,
      cid: s.course.id,
      tids: [s.teacher.id],
      startDate: monday,
      times: 2,
    });
    expect(dropIn).toMatchObject({ booked: 2, members: 1 });

    const copy = await previewThenAct(`${API}/copy/timetable`, {
      formerFromDate: monday,
      formerToDate: addDays(monday, 6),
      afterFromDate: addDays(monday, 14),
      afterToDate: addDays(monday, 20),
      isCopyPending: 0,
      areaId: null,
    });
    expect(copy).toMatchObject({ booked: 0, cancelled: 0 });

    // Batch delete of the two template weeks: every booking cancelled and refunded.
    const del = await previewThenAct(`${API}/batch/cancel/timetable`, {
      fromDate: monday,
      toDate: addDays(monday, 13),
      areaId: null,
    });
    expect(del).toMatchObject({
      cancelled: 4,
      refunded: [{ bigType: 1, amount: 12 }],
      refundedMembers: 2,
    });
    // Each previews its dates: the template's Wednesdays, the drop-in's classes, copy's new week, the deleted ones.
    const wednesdays = [addDays(monday, 2), addDays(monday, 9)];
    expect(week.sessions.map((x) => `${x.date} ${x.startTime}`)).toEqual(wednesdays.map((d) => `${d} 07:00`));
    expect(dropIn.sessions.map((x) => x.date)).toEqual(wednesdays);
    expect(copy.sessions.map((x) => x.date)).toEqual([addDays(monday, 16)]);
    expect(del.sessions.map((x) => x.date)).toEqual(wednesdays);
    expect(del.sessions[0]).toMatchObject({ courseName: s.course.name, teacherName: s.teacher.name });
  });
});
