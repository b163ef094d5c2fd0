// Bulk changes say what they will do: each of the five bulk calls with `dryRun: true` answers a
// preview and writes nothing; run for real, it does exactly what the preview said (checked against
// the rows the act wrote, read independently here). A run the act would refuse previews as a refusal
// with its dates. Both databases.
import { Msg, OperateType, type BulkPreview } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays } from '../../lib/time.ts';
import { describeEachDb } from '../../test/harness.ts';
import { API, engineFactory, expectInvariants, FUTURE, snapshot } from './test-kit.ts';

describeEachDb('bulk change previews (dry run on the same call)', (env) => {
  const db = () => env().database.db;
  const maxId = async (table: 'history' | 'cardLedger') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0,
    );

  /** What the act wrote after the marks, in the preview's terms (an independent reading). */
  async function written(mark: { history: number; ledger: number }) {
    const trail = await db()
      .selectFrom('history')
      .select(['operateType', 'memberId'])
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
    };
  }

  /** Previews `body` on `path` (nothing written), then runs it: the act matches the preview. */
  async function previewThenAct(path: string, body: Record<string, unknown>): Promise<BulkPreview> {
    const before = await snapshot(db(), env().storeId);
    const dry = await env().client.ok<{ count: number; preview: BulkPreview }>(path, { ...body, dryRun: true });
    expect(await snapshot(db(), env().storeId), 'a preview writes nothing').toEqual(before);
    const mark = { history: await maxId('history'), ledger: await maxId('cardLedger') };
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
  });
});
