// Undo of bulk changes from their audit entries: each of the five kinds restores exactly what it
// changed (sessions, bookings, balances), keeps the invariants, happens once, and is refused naming
// what changed when something that depends on the change changed since. Both databases.
import { StaffMsg, type UndoPreview } from '@studio/contract';
import { expect, it } from 'vitest';
import { addDays, localDateTime } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { API, engineFactory, expectInvariants, FUTURE, snapshot } from '../../../test/batch-kit.ts';

const UNDO = `${API}/undo/bulk/change`;
/** Entries are dated when they are written (the store's local date, Asia/Shanghai). */
const TODAY = localDateTime('Asia/Shanghai').slice(0, 10);

describeEachDb('undo of bulk changes (操作日志 → 撤销)', (env) => {
  const db = () => env().database.db;

  /** The newest audit entry of a call in this store. */
  async function entryOf(path: string) {
    return db()
      .selectFrom('auditLog')
      .selectAll()
      .where('storeId', '=', env().storeId)
      .where('call', '=', path)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
  }

  /** Live sessions, bookings and balances: what an undo must bring back exactly. */
  async function state() {
    const s = await snapshot(db(), env().storeId);
    const live = await db()
      .selectFrom('timetable')
      .select(['id', 'realCount'])
      .where('storeId', '=', env().storeId)
      .where('deleted', '=', 0)
      .orderBy('id')
      .execute();
    const booked = await db()
      .selectFrom('reservation')
      .select(['id', 'status', 'usedCount'])
      .where('storeId', '=', env().storeId)
      .where('status', 'in', [1, 2])
      .orderBy('id')
      .execute();
    const pendings = await db()
      .selectFrom('pending')
      .select(['id', 'status'])
      .where('storeId', '=', env().storeId)
      .where('status', 'in', [1, 2])
      .orderBy('id')
      .execute();
    return { cards: s.cards, live, booked: booked.map((b) => ({ ...b, usedCount: Number(b.usedCount) })), pendings };
  }

  const maxLedgerId = async () =>
    Number(
      (
        await db()
          .selectFrom('cardLedger')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0,
    );

  /** A preview's money lines as [kind, member, card, course, class start, amount], sorted. */
  const previewOfLedger = (p: UndoPreview) =>
    [
      ...p.refunds.map((l) => ['refund', l.memberName, l.cardName, l.courseName, l.startTime, l.amount]),
      ...p.charges.map((l) => ['deduct', l.memberName, l.cardName, l.courseName, l.startTime, l.amount]),
    ].sort();

  /** What the undo wrote to the ledger, read independently, in the same terms. */
  async function ledgerAfter(mark: number) {
    const rows = await db()
      .selectFrom('cardLedger as l')
      .innerJoin('memberCard as mc', 'mc.id', 'l.memberCardId')
      .innerJoin('member as m', 'm.id', 'mc.memberId')
      .innerJoin('cardProduct as p', 'p.id', 'mc.cardId')
      .innerJoin('timetable as t', 't.id', 'l.timetableId')
      .innerJoin('course as c', 'c.id', 't.courseId')
      .select(['l.kind', 'm.name as member', 'p.cardName', 'c.name as course', 't.startTime', 'l.amount'])
      .where('l.storeId', '=', env().storeId)
      .where('l.id', '>', mark)
      .where('l.kind', 'in', ['refund', 'deduct'])
      .execute();
    return rows.map((r) => [r.kind, r.member, r.cardName, r.course, r.startTime, Math.abs(Number(r.amount))]).sort();
  }

  async function scene(total = 60) {
    const ef = engineFactory(env());
    const { teacher, product, course } = await ef.scene({ product: { perCount: 3 } });
    const a = await ef.memberWithCard(product.id, { card: { totalCount: total } });
    const b = await ef.memberWithCard(product.id, { card: { totalCount: total } });
    return { ef, teacher, product, course, a, b };
  }

  /** Runs a bulk call, then undoes it from its entry: everything as before, invariants hold, once only. */
  async function changeThenUndo(path: string, body: Record<string, unknown>) {
    const before = await state();
    await env().client.ok(path, body);
    const changed = await state();
    expect(changed, `${path} changed something`).not.toEqual(before);
    const entry = await entryOf(path);
    const listed = await env().client.ok(`${API}/query/audit/log`, {
      fromDate: addDays(TODAY, -1),
      toDate: addDays(TODAY, 1),
      kind: 'bulk',
    });
    expect(listed.list.find((r: { id: number }) => r.id === entry.id)).toMatchObject({
      undoable: true,
      undoneTime: null,
    });
    // The confirm's preview (a dry run of the undo) writes nothing, and names what the undo then does.
    const preview = await env().client.ok<UndoPreview>(UNDO, { auditId: entry.id, dryRun: true });
    expect(await state()).toEqual(changed);
    const ledgerMark = await maxLedgerId();
    await env().client.ok(UNDO, { auditId: entry.id });
    expect(await state()).toEqual(before);
    await expectInvariants(db(), env().storeId);
    expect(previewOfLedger(preview)).toEqual(await ledgerAfter(ledgerMark));
    const again = await env().client.call(UNDO, { auditId: entry.id });
    expect([again.status, again.msg]).toEqual([409, StaffMsg.undoDone]);
    const undo = await entryOf(UNDO);
    expect(undo.undoOf).toBe(entry.id);
    expect(undo.summary).toBe(`撤销：${entry.summary}`);
    const after = await env().client.ok(`${API}/query/audit/log`, {
      fromDate: addDays(TODAY, -1),
      toDate: addDays(TODAY, 1),
      kind: 'bulk',
    });
    const row = after.list.find((r: { id: number }) => r.id === entry.id);
    expect(row.undoable).toBe(false);
    expect(row.undoneTime).not.toBeNull();
    return entry;
  }

  it('batch scheduling with fixed students: the sessions go, each deduction comes back', async () => {
    const s = await scene();
    await changeThenUndo(`${API}/batch/arrange/course`, {
      cid: s.course.id,
      tid: s.teacher.id,
      areaId: null,
      students: 5,
      startDate: addDays(FUTURE, 700),
      courseTimes: [{ weekday: 2, arrangeTime: '18:00' }],
      arrangeTimes: 3,
      mcIds: [s.a.card.id, s.b.card.id],
    });
  });

  it('the confirm names what the undo refunds: each member, class and amount; and what a batch delete’s undo charges again', async () => {
    const s = await scene();
    const names = new Map(
      (
        await db()
          .selectFrom('member')
          .select(['id', 'name'])
          .where('id', 'in', [s.a.member.id, s.b.member.id])
          .execute()
      ).map((m) => [m.id, m.name]),
    );
    const date = addDays(FUTURE, 760);
    await env().client.ok(`${API}/batch/arrange/course`, {
      cid: s.course.id,
      tid: s.teacher.id,
      areaId: null,
      students: 5,
      startDate: date,
      courseTimes: [{ weekday: new Date(`${date}T00:00:00Z`).getUTCDay(), arrangeTime: '18:00' }],
      arrangeTimes: 2,
      mcIds: [s.a.card.id, s.b.card.id],
    });
    const entry = await entryOf(`${API}/batch/arrange/course`);
    const p = await env().client.ok<UndoPreview>(UNDO, { auditId: entry.id, dryRun: true });
    const line = (m: { member: { id: number } }, day: number) => ({
      memberName: names.get(m.member.id),
      cardName: s.product.cardName,
      courseName: s.course.name,
      startTime: `${addDays(date, day)} 18:00:00`,
      bigType: 1,
      amount: 3,
    });
    expect(p).toMatchObject({
      sessionsDeleted: 2,
      sessionsRestored: 0,
      bookingsCancelled: 4,
      bookingsRestored: 0,
      refunds: [line(s.a, 0), line(s.b, 0), line(s.a, 7), line(s.b, 7)],
      moreRefunds: 0,
      refundTotal: [{ bigType: 1, amount: 12 }],
      refundedMembers: 2,
      charges: [],
      chargeTotal: [],
    });
    // Still to be undone: the preview left no entry and changed nothing.
    const listed = await env().client.ok(`${API}/query/audit/log`, {
      fromDate: addDays(TODAY, -1),
      toDate: addDays(TODAY, 1),
      kind: 'bulk',
    });
    expect(listed.list.find((r: { id: number }) => r.id === entry.id)).toMatchObject({
      undoable: true,
      undoneTime: null,
    });
    expect((await db().selectFrom('auditLog').select('id').where('undoOf', '=', entry.id).execute()).length).toBe(0);

    // A batch delete of those classes: its undo books them again and charges each card again.
    await env().client.ok(`${API}/batch/cancel/timetable`, { fromDate: date, toDate: addDays(date, 7), areaId: null });
    const del = await entryOf(`${API}/batch/cancel/timetable`);
    const back = await env().client.ok<UndoPreview>(UNDO, { auditId: del.id, dryRun: true });
    expect(back).toMatchObject({
      sessionsDeleted: 0,
      sessionsRestored: 2,
      bookingsRestored: 4,
      refunds: [],
      charges: [line(s.a, 0), line(s.b, 0), line(s.a, 7), line(s.b, 7)],
      chargeTotal: [{ bigType: 1, amount: 12 }],
      chargedMembers: 2,
    });
    // A preview is refused like the undo: the arrange entry's sessions are deleted now.
    const refused = await env().client.call(UNDO, { auditId: entry.id, dryRun: true });
    expect(refused.status).toBe(409);
    expect(refused.msg).toContain('无法撤销');
    // Another store's manager cannot preview it.
    const theirs = await env().other.client.call(UNDO, { auditId: del.id, dryRun: true });
    expect(theirs.status).toBe(404);
  });

  it('weekly-template run, drop-in, copy and batch delete each come back exactly', async () => {
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
    const monday = addDays(FUTURE, 7 * 120);
    await changeThenUndo(`${API}/batch/arrange/week/course`, { fromDate: monday, arrangeWeeks: 2 });
    // Again for real, to have sessions to drop in, copy and delete.
    await env().client.ok(`${API}/batch/arrange/week/course`, { fromDate: addDays(monday, 7 * 4), arrangeWeeks: 2 });
    const start = addDays(monday, 7 * 4);
    await changeThenUndo(`${API}/batch/add/member/reservation`, {
      mcId: s.b.card.id,
      cid: s.course.id,
      tids: [s.teacher.id],
      startDate: start,
      times: 2,
    });
    await changeThenUndo(`${API}/copy/timetable`, {
      formerFromDate: start,
      formerToDate: addDays(start, 6),
      afterFromDate: addDays(start, 21),
      afterToDate: addDays(start, 27),
      isCopyPending: 0,
      areaId: null,
    });
    await changeThenUndo(`${API}/batch/cancel/timetable`, {
      fromDate: start,
      toDate: addDays(start, 13),
      areaId: null,
    });
  });

  it('sign-in mode: a batch delete brings back waiting and signed-in pendings, a drop-in takes its pendings back', async () => {
    const s = await scene();
    await env().client.ok(`${API}/update/module/status`, { moduleId: 6, status: 1 });
    try {
      const date = addDays(FUTURE, 900);
      const t1 = await s.ef.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${date} 10:00:00` });
      for (const m of [s.a, s.b]) {
        await env().client.ok(`${API}/add/member/group/pending`, {
          tid: t1.id,
          mid: m.member.id,
          mcId: m.card.id,
          studentCount: 1,
        });
      }
      const pendings = await db()
        .selectFrom('pending')
        .select('id')
        .where('timetableId', '=', t1.id)
        .orderBy('id')
        .execute();
      await env().client.ok(`${API}/sign/in/pending`, { pendingId: pendings[0].id, mcId: s.a.card.id, remark: null });
      // One pending signed in (charged), one waiting: both come back as they were, the charge too.
      await changeThenUndo(`${API}/batch/cancel/timetable`, { fromDate: date, toDate: date, areaId: null });
      await s.ef.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${addDays(date, 1)} 10:00:00` });
      await changeThenUndo(`${API}/batch/add/member/reservation`, {
        mcId: s.b.card.id,
        cid: s.course.id,
        tids: [s.teacher.id],
        startDate: addDays(date, 1),
        times: 1,
      });
    } finally {
      await env().client.ok(`${API}/update/module/status`, { moduleId: 6, status: 0 });
    }
  });

  it('is refused, naming what changed, after a booking into a copied session or a use of a refunded card', async () => {
    const s = await scene();
    const date = addDays(FUTURE, 1000);
    const t = await s.ef.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${date} 08:00:00` });
    await env().client.ok(`${API}/copy/timetable`, {
      formerFromDate: date,
      formerToDate: date,
      afterFromDate: addDays(date, 7),
      afterToDate: addDays(date, 7),
      isCopyPending: 0,
      areaId: null,
    });
    const copy = await entryOf(`${API}/copy/timetable`);
    const copied = await db()
      .selectFrom('timetable')
      .select('id')
      .where('storeId', '=', env().storeId)
      .where('startTime', '=', `${addDays(date, 7)} 08:00:00`)
      .executeTakeFirstOrThrow();
    await env().client.ok(`${API}/add/member/reservation`, {
      tid: copied.id,
      mid: s.a.member.id,
      mcId: s.a.card.id,
      studentCount: 1,
      remark: null,
    });
    const before = await state();
    const refused = await env().client.call(UNDO, { auditId: copy.id });
    expect(refused.status).toBe(409);
    expect(refused.msg).toMatch(/^无法撤销：.+ 之后有预约变动$/);
    expect(await state()).toEqual(before);

    // A batch delete refunds member b; b then books elsewhere with that card: no undo.
    await env().client.ok(`${API}/add/member/reservation`, {
      tid: t.id,
      mid: s.b.member.id,
      mcId: s.b.card.id,
      studentCount: 1,
      remark: null,
    });
    await env().client.ok(`${API}/batch/cancel/timetable`, { fromDate: date, toDate: date, areaId: null });
    const del = await entryOf(`${API}/batch/cancel/timetable`);
    await env().client.ok(`${API}/add/member/reservation`, {
      tid: copied.id,
      mid: s.b.member.id,
      mcId: s.b.card.id,
      studentCount: 1,
      remark: null,
    });
    const blocked = await env().client.call(UNDO, { auditId: del.id });
    expect(blocked.status).toBe(409);
    expect(blocked.msg).toContain('在退回后已使用');
    await expectInvariants(db(), env().storeId);
  });

  it('refuses an entry that is no bulk change, one older than 24 hours, and another store’s', async () => {
    await env().client.ok(`${API}/insert/teacher`, { name: '撤销测试老师' });
    const plain = await entryOf(`${API}/insert/teacher`);
    const a = await env().client.call(UNDO, { auditId: plain.id });
    expect([a.status, a.msg]).toEqual([409, StaffMsg.undoNotBulk]);
    const old = await db()
      .insertInto('auditLog')
      .values({
        storeId: env().storeId,
        at: Date.now() - 25 * 3600 * 1000,
        actorKind: 'staff',
        staffId: env().staffId,
        memberId: null,
        actorName: '店长',
        call: `${API}/copy/timetable`,
        kind: 'bulk',
        target: '',
        summary: '复制课程',
        beforeJson: null,
        afterJson: null,
        undoJson: JSON.stringify({ createdSessions: [], marks: [] }),
        undoOf: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const b = await env().client.call(UNDO, { auditId: old.id });
    expect([b.status, b.msg]).toEqual([409, StaffMsg.undoExpired]);
    const theirs = await env().other.client.call(UNDO, { auditId: plain.id });
    expect(theirs.status).toBe(404);
  });

  it('two undos of one change at once: one succeeds, the other is told it is done', async () => {
    const s = await scene();
    await env().client.ok(`${API}/batch/arrange/course`, {
      cid: s.course.id,
      tid: s.teacher.id,
      areaId: null,
      students: 5,
      startDate: addDays(FUTURE, 1100),
      courseTimes: [{ weekday: 4, arrangeTime: '19:00' }],
      arrangeTimes: 4,
      mcIds: [s.a.card.id],
    });
    const entry = await entryOf(`${API}/batch/arrange/course`);
    const answers = await Promise.all([1, 2, 3].map(() => env().client.call(UNDO, { auditId: entry.id })));
    expect(answers.filter((x) => x.code === 0)).toHaveLength(1);
    expect(answers.filter((x) => x.code !== 0).map((x) => x.msg)).toEqual([StaffMsg.undoDone, StaffMsg.undoDone]);
    await expectInvariants(db(), env().storeId);
  });
});
