// Who sees what (issue 45 item 6): managers see members' mobiles whole; the desk sees them masked in
// every list and whole on the member's page, and a 查看 from a list is an entry in 操作日志; a teacher
// sees their own members' names and masked mobiles only; an export of personal data is logged.
import {
  addMemberReservation,
  batchExportReservation,
  exportStoreData,
  exportTimetableReservation,
  memberInfo,
  memberList,
  queryAuditLog,
  queryReservationList,
  revealMemberMobile,
  Msg,
} from '@studio/contract';
import { beforeAll, expect, it } from 'vitest';
import { EngineFactory, FUTURE } from '../../../test/factory-engine.ts';
import { randomMobile } from '../../../test/factory.ts';
import { describeEachDb, staffClient, type Client } from '../../../test/harness.ts';

const masked = (m: string) => `${m.slice(0, 3)}****${m.slice(-4)}`;
const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
/** The audit log's range around now (entries are stamped with the store's clock). */
const around = { fromDate: day(-1), toDate: day(1) };

describeEachDb('who sees members’ mobiles', (env) => {
  const manager = () => env().client;
  let desk: Client;
  let teacher: Client;
  let member: { id: number; name: string; mobile: string };
  let sessionId: number;

  beforeAll(async () => {
    const ef = new EngineFactory(env().factory);
    const scene = await ef.scene();
    const session = await ef.session({
      courseId: scene.course.id,
      teacherId: scene.teacher.id,
      startTime: `${FUTURE} 09:00:00`,
    });
    sessionId = session.id;
    const mobile = randomMobile();
    const m = await ef.memberWithCard(scene.product.id, { member: { name: '看号码', mobile } });
    member = { id: m.member.id, name: m.member.name, mobile };
    await manager().ok(addMemberReservation.path, { mcId: m.card.id, tid: session.id, studentCount: 1 });
    desk = await staffClient(env(), 'desk');
    teacher = await staffClient(env(), 'teacher', scene.teacher.id);
  });

  const listed = async (c: Client) =>
    (await c.ok<{ list: { id: number; mobile: string }[] }>(memberList.path, { page: 1, pageSize: 50 })).list.find(
      (r) => r.id === member.id,
    )!.mobile;
  const booked = async (c: Client) =>
    (
      await c.ok<{ list: { memberId: number; memberMobile: string }[] }>(queryReservationList.path, {
        tid: sessionId,
        page: 1,
      })
    ).list.find((r) => r.memberId === member.id)!.memberMobile;

  it('a manager sees mobiles whole everywhere', async () => {
    expect(await listed(manager())).toBe(member.mobile);
    expect(await booked(manager())).toBe(member.mobile);
  });

  it('the desk sees them masked in lists and exports, whole on the member’s page', async () => {
    expect(await listed(desk)).toBe(masked(member.mobile));
    expect(await booked(desk)).toBe(masked(member.mobile));
    const info = await desk.ok<{ mobile: string }>(memberInfo.path, { id: member.id });
    expect(info.mobile).toBe(member.mobile);
    const rows = await desk.ok<{ mobile?: string; memberMobile?: string }[]>(exportTimetableReservation.path, {
      id: sessionId,
    });
    expect(JSON.stringify(rows)).not.toContain(member.mobile);
    expect(JSON.stringify(rows)).toContain(masked(member.mobile));
  });

  it('a teacher sees their members’ names and masked mobiles, and may not reveal one', async () => {
    const list = await teacher.ok<{ list: { memberId: number; memberName: string; memberMobile: string }[] }>(
      queryReservationList.path,
      { tid: sessionId, page: 1 },
    );
    const row = list.list.find((r) => r.memberId === member.id)!;
    expect(row.memberName).toBe(member.name);
    expect(row.memberMobile).toBe(masked(member.mobile));
    const a = await teacher.call(revealMemberMobile.path, { memberId: member.id });
    expect([a.status, a.msg]).toEqual([403, Msg.forbiddenRole]);
  });

  it('查看完整手机号 answers the whole number and writes who looked at whose number to 操作日志', async () => {
    const shown = await desk.ok<{ mobile: string }>(revealMemberMobile.path, { memberId: member.id });
    expect(shown.mobile).toBe(member.mobile);
    const unknown = await desk.call(revealMemberMobile.path, { memberId: 999_999 });
    expect(unknown.status).toBe(404);
    const log = await manager().ok<{ list: { kind: string; summary: string; staff: string; target: string }[] }>(
      queryAuditLog.path,
      { ...around, memberId: member.id, kind: 'privacy', page: 1 },
    );
    expect(log.list.map((e) => [e.summary, e.staff])).toEqual([['查看完整手机号', 'desk员工']]);
  });

  it('every export of personal data is an entry in 操作日志', async () => {
    await manager().ok(exportTimetableReservation.path, { id: sessionId });
    await desk.ok(batchExportReservation.path, { fromDate: FUTURE, toDate: FUTURE });
    await manager().ok(exportStoreData.path, { format: 'xlsx' });
    const log = await manager().ok<{ list: { summary: string; staff: string }[] }>(queryAuditLog.path, {
      ...around,
      kind: 'privacy',
      page: 1,
    });
    const exports = log.list.filter((e) => e.summary.startsWith('导出')).map((e) => e.summary);
    expect(exports).toEqual(
      expect.arrayContaining(['导出一节课的预约名单', `导出预约（${FUTURE} 至 ${FUTURE}）`, '导出全部数据（.xlsx）']),
    );
    // The desk's export of the earlier test, the manager's three.
    expect(exports).toHaveLength(4);
  });
});
