import { addMemberReservation, memberBook, Msg } from '@studio/contract';
import { expect, it, vi } from 'vitest';
import { pgSends } from '../../db/pg-pipeline.ts';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';

/**
 * Round trips to PostgreSQL of one booking (docs/architecture.md, "One request, route to
 * repository"): the release rush is bounded by them, so a booking's reads go together in one
 * (`loadBookingContext`), BEGIN goes with the audit entry and the booking, then COMMIT. Counted as
 * writes to the database (`pgSends`: statements sent together count once), the login's look-up
 * included.
 */
// The suites' strict mode (db/strict.ts) sends every read sent together once more alone, to check
// it: counted here, as the app runs.
vi.hoisted(() => {
  process.env.AUDIT_STRICT = '0';
});

describeEachDb('round trips of one booking', (env) => {
  async function scene() {
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ product: { perCount: 1 } });
    const session = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, reservableCount: 1 });
    const a = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    const b = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    const c = await e.memberWithCard(s.product.id, { card: { totalCount: 10 } });
    const before = await e.session({ courseId: s.course.id, teacherId: s.teacher.id, startTime: `${FUTURE} 08:00:00` });
    /**
     * A booking just before the counted ones: what the app keeps for a few seconds (whether the store
     * has a group robot, 5 s; its time zone) is kept when they come. Called right before them, not
     * with the scene, whose setup (members signing in) may take longer than that on a loaded machine.
     */
    const warm = async () => {
      expect((await env().client.call(addMemberReservation.path, { tid: before.id, mcId: c.card.id })).code).toBe(0);
    };
    return { session, a, b, c, before, warm };
  }

  /** What `call` answered and, on PostgreSQL, how many writes it took (null on SQLite). */
  async function counted<T>(call: () => Promise<T>): Promise<{ answer: T; sends: number | null }> {
    const before = pgSends();
    const answer = await call();
    return { answer, sends: env().dialect === 'postgres' ? pgSends() - before : null };
  }
  const expected = (n: number) => (env().dialect === 'postgres' ? n : null);

  it('a desk booking: the login, the reads, BEGIN + entry + booking, COMMIT; refused by its rules: the login and the reads', async () => {
    const { session, a, b, warm } = await scene();
    const desk = env().client;
    await warm();
    const booked = await counted(() => desk.call(addMemberReservation.path, { tid: session.id, mcId: a.card.id }));
    expect(booked.answer.code).toBe(0);
    expect(booked.sends).toBe(expected(4));
    const full = await counted(() => desk.call(addMemberReservation.path, { tid: session.id, mcId: b.card.id }));
    expect([full.answer.status, full.answer.msg]).toEqual([409, Msg.sessionFull]);
    const unknown = await counted(() => desk.call(addMemberReservation.path, { tid: session.id, mcId: 99_999_999 }));
    expect([unknown.answer.status, unknown.answer.msg]).toEqual([404, '会员卡不存在']);
    expect(unknown.sends).toBe(expected(2));
  });

  it("a member's booking: the login, the reads (with the member's suspension), BEGIN + entry + booking, COMMIT", async () => {
    const { session, a, b, c, before } = await scene();
    const ma = await memberClient(env(), a.member);
    const mb = await memberClient(env(), b.member);
    // Warmed by a member's booking: it reads what only a member's booking asks (the store's health
    // declaration setting, kept 5 s), as a desk booking does not.
    const mc = await memberClient(env(), c.member);
    expect((await mc.call(memberBook.path, { tid: before.id, mcId: c.card.id })).code).toBe(0);
    const booked = await counted(() => ma.call(memberBook.path, { tid: session.id, mcId: a.card.id }));
    expect(booked.answer.code).toBe(0);
    expect(booked.sends).toBe(expected(4));
    const notTheirs = await counted(() => mb.call(memberBook.path, { tid: session.id, mcId: a.card.id }));
    expect([notTheirs.answer.status, notTheirs.answer.msg]).toEqual([404, '会员卡不存在']);
    expect(notTheirs.sends).toBe(expected(2));
  });
});
