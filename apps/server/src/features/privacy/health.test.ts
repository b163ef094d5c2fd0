// 健康声明 (issue 45, item 3): the member answers only after the separate health consent, to the
// store's questions in force; a yes marks them in the session for every role, while the answers are
// shown only to the manager and the member's teachers, and only when the member allowed it; with the
// store's 上课前须填写健康声明 on, a member without a declaration in force cannot book on their phone;
// withdrawing the consent deletes the answers.
import {
  HEALTH_DEFAULT_QUESTIONS,
  HealthMsg,
  memberBook,
  memberJoinWaitlist,
  memberMyData,
  memberMyHealth,
  memberSubmitHealth,
  memberUpdateConsent,
  queryHealthFlags,
  queryHealthSetting,
  queryMemberHealth,
  updateHealthSetting,
  type DataSection,
} from '@studio/contract';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb, newStore, staffClient, type Client } from '../../../test/harness.ts';
import { memberClient } from '../../../test/member-client.ts';

const NO = HEALTH_DEFAULT_QUESTIONS.map(() => false);

describeEachDb('健康声明', (env) => {
  const manager = () => env().client;
  const db = () => env().database.db;
  let ef: EngineFactory;
  let world: {
    product: { id: number };
    course: { id: number };
    teacher: { id: number };
    session: { id: number };
    other: { id: number };
  };
  let desk: Client;
  let teacher: Client;
  let otherTeacher: Client;

  async function member(name: string) {
    const m = await ef.f.member({ name, mobile: randomMobile() });
    const card = await ef.f.memberCard(m.id, world.product.id, { totalCount: 10 });
    return { m, card, client: await memberClient(env(), m) };
  }
  const declare = (c: Client, answers: boolean[], o: { note?: string; share?: boolean; version?: number } = {}) =>
    c.call(memberSubmitHealth.path, {
      version: o.version ?? 1,
      answers,
      note: o.note ?? null,
      shareDetails: o.share ?? false,
    });

  beforeAll(async () => {
    ef = new EngineFactory(env().factory);
    const scene = await ef.scene();
    const session = await ef.session({
      courseId: scene.course.id,
      teacherId: scene.teacher.id,
      startTime: `${FUTURE} 09:00:00`,
      reservableCount: 20,
    });
    const stranger = await ef.f.teacher({ name: '别的老师' });
    const other = await ef.session({
      courseId: scene.course.id,
      teacherId: stranger.id,
      startTime: `${FUTURE} 15:00:00`,
    });
    world = { ...scene, session, other };
    desk = await staffClient(env(), 'desk');
    teacher = await staffClient(env(), 'teacher', scene.teacher.id);
    otherTeacher = await staffClient(env(), 'teacher', stranger.id);
  });

  it('asks the separate health consent before any answer; the answers are to the questions in force', async () => {
    const a = await member('健康甲');
    const first = await a.client.ok(memberMyHealth.path, {});
    expect(first).toMatchObject({
      required: false,
      consent: false,
      declaration: null,
      due: true,
      questionnaire: { version: 1, questions: [...HEALTH_DEFAULT_QUESTIONS] },
    });
    expect(await declare(a.client, NO)).toMatchObject({ status: 409, msg: HealthMsg.consent });
    await a.client.ok(memberUpdateConsent.path, { kind: 'health', granted: true });
    // One answer a question: too few refused, nothing written.
    expect(await declare(a.client, [false, false])).toMatchObject({ status: 400, msg: HealthMsg.answers });
    expect(await declare(a.client, NO, { version: 2 })).toMatchObject({ status: 409, msg: HealthMsg.changed });
    expect(await a.client.call(memberSubmitHealth.path, { version: 1, answers: ['否'] })).toMatchObject({
      status: 400,
    });
    const rows = () => db().selectFrom('healthDeclaration').select('id').where('memberId', '=', a.m.id).execute();
    expect(await rows()).toEqual([]);
    expect((await declare(a.client, NO)).data).toEqual({ flagged: false });
    const now = await a.client.ok(memberMyHealth.path, {});
    expect(now).toMatchObject({ consent: true, due: false, declaration: { version: 1, flagged: false } });
    expect(now.declaration.answers).toEqual(HEALTH_DEFAULT_QUESTIONS.map((question) => ({ question, yes: false })));
    // Withdrawing the consent deletes the answers: due again, nothing left in the table.
    await a.client.ok(memberUpdateConsent.path, { kind: 'health', granted: false });
    expect(await rows()).toEqual([]);
    expect(await a.client.ok(memberMyHealth.path, {})).toMatchObject({ consent: false, declaration: null, due: true });
  });

  it('a yes marks the member in the session for every role; the answers only for the manager and their teachers, when allowed', async () => {
    const shares = await member('健康乙');
    const keeps = await member('健康丙');
    const fine = await member('健康丁');
    for (const x of [shares, keeps, fine]) {
      await x.client.ok(memberUpdateConsent.path, { kind: 'health', granted: true });
      await x.client.ok(memberBook.path, { tid: world.session.id, mcId: x.card.id });
    }
    const yes = [false, true, false, false, false];
    expect((await declare(shares.client, yes, { note: '血压偏高，在吃药', share: true })).data).toEqual({
      flagged: true,
    });
    expect((await declare(keeps.client, yes, { note: '不想说' })).data).toEqual({ flagged: true });
    await declare(fine.client, NO, { share: true });

    const flagged = [shares.m.id, keeps.m.id].sort((x, y) => x - y);
    for (const c of [manager(), desk, teacher]) {
      expect(await c.ok(queryHealthFlags.path, { tid: world.session.id })).toEqual(flagged);
    }
    // Another teacher's class is not theirs to look at.
    expect(await otherTeacher.call(queryHealthFlags.path, { tid: world.session.id })).toMatchObject({ status: 403 });

    const details = { answers: expect.arrayContaining([{ question: HEALTH_DEFAULT_QUESTIONS[1], yes: true }]) };
    // Shared: the manager and the class's teacher read the answers; the desk sees the mark only.
    for (const c of [manager(), teacher]) {
      expect(await c.ok(queryMemberHealth.path, { mid: shares.m.id })).toMatchObject({
        flagged: true,
        shared: true,
        details: { ...details, note: '血压偏高，在吃药', version: 1 },
      });
    }
    const atDesk = await desk.ok(queryMemberHealth.path, { mid: shares.m.id });
    expect(atDesk).toMatchObject({ flagged: true, shared: true, details: null });
    expect(JSON.stringify(atDesk)).not.toContain('血压');
    // Not shared: nobody reads the answers, everyone sees the mark.
    for (const c of [manager(), teacher, desk]) {
      expect(await c.ok(queryMemberHealth.path, { mid: keeps.m.id })).toMatchObject({ flagged: true, details: null });
    }
    expect(await manager().ok(queryMemberHealth.path, { mid: fine.m.id })).toMatchObject({
      flagged: false,
      due: false,
    });
    // A teacher who never taught the member is refused; another store's manager finds no such member.
    expect(await otherTeacher.call(queryMemberHealth.path, { mid: shares.m.id })).toMatchObject({
      status: 403,
      msg: HealthMsg.notTheirs,
    });
    const other = await newStore(env().app, env().database, '别家门店');
    expect(await other.client.call(queryMemberHealth.path, { mid: shares.m.id })).toMatchObject({ status: 404 });
    expect(await other.client.call(queryHealthFlags.path, { tid: world.session.id })).toMatchObject({ status: 404 });
    // The desk may not change the questions.
    expect(
      await desk.call(updateHealthSetting.path, { questions: ['x'], required: true, reanswer: false }),
    ).toMatchObject({
      status: 403,
    });

    // The member's download holds their declaration (and nobody else's).
    const data = await shares.client.ok<{ sections: DataSection[] }>(memberMyData.path, {});
    const section = data.sections.find((s) => s.key === 'healthDeclaration')!;
    expect(section.rows.length).toBe(1);
    expect(JSON.stringify(section.rows)).toContain('血压偏高');
    expect(JSON.stringify(data)).not.toContain('不想说');
  });

  it('with 上课前须填写健康声明 on, a member without a declaration in force cannot book or queue on the phone; new questions ask again when the store says so', async () => {
    expect(await manager().ok(queryHealthSetting.path, {})).toMatchObject({ required: false, reanswer: false });
    const a = await member('健康戊');
    await manager().ok(updateHealthSetting.path, {
      questions: [...HEALTH_DEFAULT_QUESTIONS],
      required: true,
      reanswer: true,
    });
    // Same questions: no new version.
    expect(await manager().ok(queryHealthSetting.path, {})).toMatchObject({ required: true, version: 1 });
    expect(await a.client.call(memberBook.path, { tid: world.session.id, mcId: a.card.id })).toMatchObject({
      status: 409,
      msg: HealthMsg.required,
    });
    expect(await a.client.call(memberJoinWaitlist.path, { tid: world.other.id, mcId: a.card.id })).toMatchObject({
      status: 409,
      msg: HealthMsg.required,
    });
    const booked = () => db().selectFrom('reservation').select('id').where('memberId', '=', a.m.id).execute();
    expect(await booked()).toEqual([]);
    await a.client.ok(memberUpdateConsent.path, { kind: 'health', granted: true });
    await declare(a.client, NO);
    await a.client.ok(memberBook.path, { tid: world.session.id, mcId: a.card.id });
    expect((await booked()).length).toBe(1);

    // New questions with 改问题后须重新填写: a new version, asked again before the next booking.
    const questions = [...HEALTH_DEFAULT_QUESTIONS.slice(0, 4), '是否有哮喘？'];
    expect(await manager().ok(updateHealthSetting.path, { questions, required: true, reanswer: true })).toEqual({
      version: 2,
    });
    expect(await a.client.ok(memberMyHealth.path, {})).toMatchObject({
      due: true,
      questionnaire: { version: 2, questions },
      declaration: { version: 1 },
    });
    expect(await a.client.call(memberBook.path, { tid: world.other.id, mcId: a.card.id })).toMatchObject({
      status: 409,
      msg: HealthMsg.required,
    });
    // An old form's answers are refused; the new ones book again.
    expect(await declare(a.client, NO, { version: 1 })).toMatchObject({ status: 409, msg: HealthMsg.changed });
    await declare(a.client, NO, { version: 2 });
    await a.client.ok(memberBook.path, { tid: world.other.id, mcId: a.card.id });

    // A declaration older than 12 months is due again.
    await sql`update health_declaration set answered_at = '2000-01-01 09:00:00' where member_id = ${a.m.id}`.execute(
      db(),
    );
    expect(await a.client.ok(memberMyHealth.path, {})).toMatchObject({ due: true });

    // Turned off: not asked before booking any more.
    await manager().ok(updateHealthSetting.path, { questions, required: false, reanswer: false });
    expect((await a.client.ok(memberMyHealth.path, {})).required).toBe(false);
  });

  it('refuses an empty question list with a Chinese message', async () => {
    expect(
      await manager().call(updateHealthSetting.path, { questions: [], required: true, reanswer: false }),
    ).toMatchObject({ status: 400, msg: HealthMsg.questions });
    expect(
      await manager().call(updateHealthSetting.path, { questions: ['  '], required: true, reanswer: false }),
    ).toMatchObject({ status: 400, msg: HealthMsg.questionEmpty });
  });
});
