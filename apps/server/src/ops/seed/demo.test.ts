import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { localDateTime, addDays, weekday } from '../../lib/time.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { loadDemoData } from './demo.ts';
import { planDemo } from './demo-plan.ts';
import { createStoreWithAdmin } from '../../features/store-admin/public.ts';

describeEachDb('demo studio', (env) => {
  const one = async (q: ReturnType<typeof sql>) => {
    const r = await q.execute(env().database.db);
    return Number(Object.values(r.rows[0] as Record<string, unknown>)[0]);
  };

  it('loads into the store in one go and the reference calls show it', async () => {
    const { database, storeId, staffId, client } = env();
    const t0 = performance.now();
    await loadDemoData(database.db, storeId, staffId);
    console.log(`demo load on ${env().dialect}: ${Math.round(performance.now() - t0)} ms`);
    const tree = await client.ok('/store/api/query/area/tree');
    expect(tree).toHaveLength(2);
    expect(tree.map((v: { children: unknown[] }) => v.children.length)).toEqual([3, 2]);
    expect(await client.ok('/store/api/query/teacher/list')).toHaveLength(5);
    expect(await client.ok('/store/api/query/course/simple/list')).toHaveLength(8);
    expect(await client.ok('/store/api/query/material/list', { storeId })).toHaveLength(2);
    expect(await client.ok('/store/api/query/module/status', { storeId, moduleId: 6 })).toEqual({ status: 0 });
    const members = await client.ok('/store/api/query/member/list', { page: 1, pageSize: 100 });
    expect(members.total).toBe(60);
  });

  it('has the expected amounts of everything', async () => {
    const s = env().storeId;
    expect(await one(sql`select count(*) from area where store_id = ${s}`)).toBe(7);
    expect(await one(sql`select count(*) from area where store_id = ${s} and parent_id is null`)).toBe(2);
    expect(await one(sql`select count(*) from teacher where store_id = ${s}`)).toBe(5);
    expect(
      await one(sql`select count(*) from teacher where store_id = ${s} and meeting_type = 1 and join_url is not null`),
    ).toBe(1);
    expect(await one(sql`select count(*) from course where store_id = ${s}`)).toBe(8);
    expect(await one(sql`select count(distinct color) from course where store_id = ${s}`)).toBe(8);
    expect(await one(sql`select count(*) from course where store_id = ${s} and age_limit = 1`)).toBe(1);
    expect(await one(sql`select count(*) from course where store_id = ${s} and gender_limit = 0`)).toBe(1);
    expect(await one(sql`select count(*) from card_product where store_id = ${s}`)).toBe(3);
    expect(await one(sql`select count(*) from card_product where store_id = ${s} and big_type = 2`)).toBe(1);
    // every product gives the issue form (发卡) its balance: 10次卡 starts at 10 classes
    expect(await one(sql`select count(*) from card_product where store_id = ${s} and total_count is null`)).toBe(0);
    expect(await one(sql`select total_count from card_product where store_id = ${s} and card_name = '10次卡'`)).toBe(
      10,
    );
    expect(await one(sql`select count(*) from material where store_id = ${s} and level = 1`)).toBe(2);
    expect(await one(sql`select count(*) from material where store_id = ${s} and level = 3`)).toBe(9);
    expect(await one(sql`select count(*) from member where store_id = ${s}`)).toBe(60);
    expect(await one(sql`select count(distinct mobile) from member where store_id = ${s}`)).toBe(60);
    const cardsPerMember = await sql<{ n: number }>`select count(*) as n from member_card where store_id = ${s}
      group by member_id`.execute(env().database.db);
    expect(cardsPerMember.rows).toHaveLength(60);
    expect(cardsPerMember.rows.every((r) => Number(r.n) >= 1 && Number(r.n) <= 2)).toBe(true);
    const sessions = await one(sql`select count(*) from timetable where store_id = ${s}`);
    expect(sessions).toBeGreaterThanOrEqual(4 * 35 - 10);
    expect(sessions).toBeLessThanOrEqual(6 * 35);
    expect(await one(sql`select count(*) from reservation where store_id = ${s}`)).toBeGreaterThan(300);
  });

  it('marks 少儿体适能 as 少儿 and fills the weekly template with this week of classes', async () => {
    const { client, storeId: s } = env();
    expect(await one(sql`select count(*) from course where store_id = ${s} and for_children = 1`)).toBe(1);
    const children = await client.ok('/store/api/query/store/course/list', { param: '少儿体适能' });
    expect(children.list.map((c: { forChildren: boolean }) => c.forChildren)).toEqual([true]);
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    const monday = addDays(today, -((weekday(today) + 6) % 7));
    const week = await client.ok('/store/api/query/timetable/by/date', {
      fromDate: monday,
      toDate: addDays(monday, 6),
    });
    const classes = week.flatMap((d: { list: { fromTime: string; courseName: string; teacherName: string }[] }) =>
      d.list.map(
        (c) => `${weekday(c.fromTime.slice(0, 10))} ${c.fromTime.slice(11, 16)} ${c.courseName} ${c.teacherName}`,
      ),
    );
    const rows = await client.ok('/store/api/query/fix/timetable/list');
    expect(rows.length).toBeGreaterThanOrEqual(4 * 7 - 3);
    expect(
      rows.map((r: { weekday: number; time: string; courseName: string; teacherName: string }) =>
        [r.weekday, r.time, r.courseName, r.teacherName].join(' '),
      ),
    ).toEqual(
      classes.sort((a: string, b: string) => ((Number(a[0]) + 6) % 7) - ((Number(b[0]) + 6) % 7) || a.localeCompare(b)),
    );
  });

  it('spans two weeks back to two weeks ahead, Monday first, in store time', async () => {
    const s = env().storeId;
    const r = await sql<{ first: string; last: string }>`select min(start_time) as first, max(start_time) as last
      from timetable where store_id = ${s}`.execute(env().database.db);
    const today = localDateTime('Asia/Shanghai').slice(0, 10);
    const monday = addDays(today, -((weekday(today) + 6) % 7));
    expect(r.rows[0].first.slice(0, 10) >= addDays(monday, -14)).toBe(true);
    expect(r.rows[0].first.slice(0, 10) <= addDays(monday, -13)).toBe(true);
    expect(r.rows[0].last.slice(0, 10) <= addDays(monday, 20)).toBe(true);
    expect(r.rows[0].last.slice(0, 10) >= addDays(monday, 19)).toBe(true);
  });

  it('keeps seats, balances, history and ledger exact', async () => {
    const s = env().storeId;
    expect(
      await one(sql`select count(*) from timetable t where t.store_id = ${s} and t.real_count <>
        (select coalesce(sum(r.student_count), 0) from reservation r where r.timetable_id = t.id and r.status in (1, 2))`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) from member_card c where c.store_id = ${s} and c.used_count <>
        (select coalesce(sum(r.used_count), 0) from reservation r where r.member_card_id = c.id and r.status in (1, 2))`),
    ).toBe(0);
    expect(await one(sql`select count(*) from timetable where store_id = ${s} and real_count > reservable_count`)).toBe(
      0,
    );
    expect(await one(sql`select count(*) from member_card where store_id = ${s} and used_count > total_count`)).toBe(0);
    expect(
      await one(sql`select count(*) from reservation r join member_card c on c.id = r.member_card_id
        join card_product p on p.id = c.card_id where r.store_id = ${s} and r.used_count <> p.per_count * r.student_count`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) from reservation r where r.store_id = ${s} and not exists (select 1 from history h
        where h.reservation_id = r.id and h.operate_type = 2 and h.used_count = r.used_count
        and h.student_count = r.student_count and h.member_card_id = r.member_card_id)`),
    ).toBe(0);
    expect(await one(sql`select count(*) from history where store_id = ${s}`)).toBe(
      await one(sql`select count(*) from reservation where store_id = ${s}`),
    );
    expect(
      await one(sql`select count(*) from member_card c where c.store_id = ${s} and c.used_count <>
        (select coalesce(sum(l.amount), 0) from card_ledger l where l.member_card_id = c.id and l.kind = 'deduct')`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) from member_card c where c.store_id = ${s} and c.total_count <>
        (select coalesce(sum(l.amount), 0) from card_ledger l where l.member_card_id = c.id and l.kind in ('issue', 'topup'))`),
    ).toBe(0);
  });

  it('books only by the rules: own card, allowed, not frozen, not expired, limits, no double booking', async () => {
    const s = env().storeId;
    const bad = [
      sql`select count(*) from reservation r join member_card c on c.id = r.member_card_id
        where r.store_id = ${s} and c.member_id <> r.member_id`,
      sql`select count(*) from reservation r join member_card c on c.id = r.member_card_id
        where r.store_id = ${s} and not exists (select 1 from timetable_card tc
          where tc.timetable_id = r.timetable_id and tc.card_id = c.card_id)`,
      sql`select count(*) from reservation r join member_card c on c.id = r.member_card_id where r.store_id = ${s} and c.frozen = 1`,
      sql`select count(*) from reservation r join member_card c on c.id = r.member_card_id
        join card_product p on p.id = c.card_id join timetable t on t.id = r.timetable_id
        where r.store_id = ${s} and p.card_type <> 2 and c.expire_time < t.start_time`,
      sql`select count(*) from reservation r join timetable t on t.id = r.timetable_id join member m on m.id = r.member_id
        where r.store_id = ${s} and t.gender_limit = 0 and m.gender <> 2`,
      sql`select count(*) from reservation r join timetable t on t.id = r.timetable_id join member m on m.id = r.member_id
        where r.store_id = ${s} and t.age_limit = 1 and m.birthday > ${addDays(localDateTime('Asia/Shanghai').slice(0, 10), -4 * 365)}`,
      sql`select count(*) from (select timetable_id, member_id from reservation where store_id = ${s}
        group by timetable_id, member_id having count(*) > 1) d`,
      sql`select count(*) from reservation r join timetable t on t.id = r.timetable_id
        where r.store_id = ${s} and r.status = 2 and t.end_time > ${localDateTime('Asia/Shanghai')}`,
      sql`select count(*) from reservation r join member_card c on c.id = r.member_card_id
        where r.store_id = ${s} and r.create_time < c.created_at`,
    ];
    for (const q of bad) expect(await one(q)).toBe(0);
    expect(await one(sql`select count(*) from reservation where store_id = ${s} and status = 2`)).toBeGreaterThan(0);
  });

  it('gives sessions the course colour, limits and allowed cards, with no teacher or room overlaps', async () => {
    const s = env().storeId;
    expect(
      await one(sql`select count(*) from timetable t join course c on c.id = t.course_id where t.store_id = ${s}
        and (t.color <> c.color or t.gender_limit <> c.gender_limit or t.age_limit <> c.age_limit
          or t.reservable_count <> c.count)`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) from timetable_card tc join timetable t on t.id = tc.timetable_id
        where t.store_id = ${s} and not exists (select 1 from course_card cc
          where cc.course_id = t.course_id and cc.card_id = tc.card_id)`),
    ).toBe(0);
    expect(
      await one(sql`select count(*) from course_card cc join timetable t on t.course_id = cc.course_id
        where t.store_id = ${s} and not exists (select 1 from timetable_card tc
          where tc.timetable_id = t.id and tc.card_id = cc.card_id)`),
    ).toBe(0);
    for (const col of [sql.ref('teacher_id'), sql.ref('area_id')]) {
      expect(
        await one(sql`select count(*) from timetable a join timetable b on a.${col} = b.${col} and a.id < b.id
          where a.store_id = ${s} and a.start_time < b.end_time and b.start_time < a.end_time`),
      ).toBe(0);
    }
    const perDay = await sql<{ n: number }>`select count(*) as n from timetable where store_id = ${s}
      group by substr(start_time, 1, 10)`.execute(env().database.db);
    expect(perDay.rows).toHaveLength(35);
    expect(perDay.rows.every((r) => Number(r.n) >= 3 && Number(r.n) <= 6)).toBe(true);
  });

  it('is deterministic: a second store gets the same studio', async () => {
    const { database } = env();
    const second = await createStoreWithAdmin(database.db, {
      storeName: '演示二店',
      admin: { username: `demo2-${env().dialect}-${Date.now()}`, password: 'demo-password', name: '店长二' },
    });
    await loadDemoData(database.db, second.storeId, second.staffId);
    const summary = async (storeId: number) =>
      (
        await sql<{ k: string }>`select t.start_time || ' ' || c.name || ' ' || t.real_count as k from timetable t
          join course c on c.id = t.course_id where t.store_id = ${storeId} order by t.start_time, c.name`.execute(
          database.db,
        )
      ).rows.map((r) => r.k);
    const [a, b] = await Promise.all([summary(env().storeId), summary(second.storeId)]);
    if (a[0]?.slice(0, 10) === b[0]?.slice(0, 10)) expect(b).toEqual(a);
    const now = localDateTime('Asia/Shanghai');
    expect(planDemo(now)).toEqual(planDemo(now));
  });
});
