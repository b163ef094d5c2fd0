import { expect, it } from 'vitest';
import { EngineFactory } from '../../../test/factory-engine.ts';
import { describeEachDb } from '../../../test/harness.ts';
import { localDateTime } from '../../lib/time.ts';

const API = '/store/api';
const tenTimes = { cardName: '10次卡', bigType: 1, cardType: 1, perCount: 1, price: 880_00 };

describeEachDb('card products', (env) => {
  it('adds a product with its courses, edits it, and soft-deletes it', async () => {
    const { client, factory } = env();
    const c1 = await factory.course({ name: '瑜伽' });
    const c2 = await factory.course({ name: '单车' });
    const { id } = await client.ok(`${API}/insert/card/product`, { ...tenTimes, courseIds: [c1.id] });
    let list = await client.ok(`${API}/query/card/product/list`);
    expect(list.find((p: { id: number }) => p.id === id)).toEqual({
      id,
      ...tenTimes,
      totalCount: null,
      validDays: null,
      enabled: 1,
      courses: [{ id: c1.id, name: '瑜伽' }],
      // Not sold online unless marked so (issue 28).
      onlineSale: 0,
      onlinePrice: 0,
      trial: 0,
      // A card's life (issue 29): started at the sale, no leave, no caps, no refund fee.
      activation: 'sale',
      activationDate: null,
      lateSaleStartsToday: 0,
      startsIfSoldToday: localDateTime('Asia/Shanghai').slice(0, 10),
      activateWithinDays: 30,
      leaveAllowed: 0,
      leaveTimes: null,
      leaveDaysMax: null,
      leaveDaysTotal: null,
      maxPerDay: null,
      maxPerWeek: null,
      refundFeePercent: 0,
      // 多人共享 (issue 29): not shared unless set.
      shareMax: 0,
      // 私教课包 (issue 43): any teacher unless bound.
      teacherId: null,
      teacherLevel: null,
    });
    await client.ok(`${API}/update/card/product`, { id, ...tenTimes, cardName: '十次卡', courseIds: [c1.id, c2.id] });
    list = await client.ok(`${API}/query/card/product/list`);
    expect(list.find((p: { id: number }) => p.id === id)).toMatchObject({
      cardName: '十次卡',
      courses: [{ id: c1.id }, { id: c2.id }],
    });
    await client.ok(`${API}/delete/card/product`, { id });
    list = await client.ok(`${API}/query/card/product/list`);
    expect(list.some((p: { id: number }) => p.id === id)).toBe(false);
    const m = await factory.member();
    const issue = await client.call(`${API}/insert/member/card`, {
      mid: m.id,
      cardId: id,
      totalCount: 10,
      expireTime: '2199-01-01',
    });
    expect([issue.status, issue.msg]).toEqual([404, '卡种不存在']);
  });

  it('binds a lesson pack to one teacher or a teacher level, keeps it on an update leaving it out, never both', async () => {
    const { client, factory, other } = env();
    const t = await factory.teacher({ name: '王老师' });
    const listed = async (id: number) =>
      ((await client.ok(`${API}/query/card/product/list`)) as { id: number }[]).find((p) => p.id === id);
    const { id } = await client.ok(`${API}/insert/card/product`, { ...tenTimes, courseIds: [], teacherId: t.id });
    expect(await listed(id)).toMatchObject({ teacherId: t.id, teacherLevel: null });
    // An update that leaves the binding out keeps it (older screens and the import send none).
    await client.ok(`${API}/update/card/product`, { id, ...tenTimes, cardName: '王老师私教10次', courseIds: [] });
    expect(await listed(id)).toMatchObject({ cardName: '王老师私教10次', teacherId: t.id, teacherLevel: null });
    // Both a teacher and a level: refused, and nothing written; so is a level added beside the kept teacher.
    const both = await client.call(`${API}/update/card/product`, {
      id,
      ...tenTimes,
      courseIds: [],
      teacherId: t.id,
      teacherLevel: 'senior',
    });
    expect([both.status, both.msg]).toEqual([400, '课包只能限定一位老师或一个老师级别，不能同时限定']);
    const added = await client.call(`${API}/update/card/product`, {
      id,
      ...tenTimes,
      courseIds: [],
      teacherLevel: 'master',
    });
    expect([added.status, added.msg]).toEqual([400, '课包只能限定一位老师或一个老师级别，不能同时限定']);
    expect(await listed(id)).toMatchObject({ teacherId: t.id, teacherLevel: null });
    // From the teacher to a level.
    await client.ok(`${API}/update/card/product`, {
      id,
      ...tenTimes,
      courseIds: [],
      teacherId: null,
      teacherLevel: 'master',
    });
    expect(await listed(id)).toMatchObject({ teacherId: null, teacherLevel: 'master' });
    const level = await client.call(`${API}/insert/card/product`, { ...tenTimes, courseIds: [], teacherLevel: 'top' });
    expect([level.status, level.msg]).toEqual([400, '老师级别应为初级、高级或导师']);
    // Another store's teacher, or a deleted one: 404, nothing written.
    const theirs = await other.factory.teacher();
    const gone = await factory.teacher({ deleted: 1 });
    for (const teacherId of [theirs.id, gone.id]) {
      const r = await client.call(`${API}/insert/card/product`, {
        ...tenTimes,
        cardName: '别人的课包',
        courseIds: [],
        teacherId,
      });
      expect([r.status, r.msg]).toEqual([404, '老师不存在']);
    }
    expect(JSON.stringify(await client.ok(`${API}/query/card/product/list`))).not.toContain('别人的课包');
  });

  it('refuses changing the card kind once members hold it', async () => {
    const { client, factory } = env();
    const { id } = await client.ok(`${API}/insert/card/product`, { ...tenTimes, courseIds: [] });
    const m = await factory.member();
    await client.ok(`${API}/insert/member/card`, { mid: m.id, cardId: id, totalCount: 10, expireTime: '2199-01-01' });
    const a = await client.call(`${API}/update/card/product`, { id, ...tenTimes, bigType: 2, courseIds: [] });
    expect([a.status, a.msg]).toEqual([409, '已有会员持有该卡种，不能修改卡类别']);
  });

  it('validates in Chinese and keeps stores apart', async () => {
    const { client, other } = env();
    const a = await client.call(`${API}/insert/card/product`, { ...tenTimes, bigType: 3 });
    expect([a.status, a.msg]).toEqual([400, '卡类别只能是1（次卡）或2（储值卡）']);
    const b = await client.call(`${API}/insert/card/product`, { ...tenTimes, cardName: '' });
    expect(b.msg).toBe('请输入卡名称');
    const c = await client.call(`${API}/insert/card/product`, { ...tenTimes, perCount: -1 });
    expect(c.msg).toBe('每次扣除数量不能小于0');
    const big = await client.call(`${API}/insert/card/product`, { ...tenTimes, perCount: 100_000_001 });
    expect([big.status, big.msg]).toEqual([400, '每次扣除数量不能超过100000000']);
    const theirCourse = await other.factory.course();
    const d = await client.call(`${API}/insert/card/product`, { ...tenTimes, courseIds: [theirCourse.id] });
    expect([d.status, d.msg]).toEqual([404, '课程不存在']);
    const theirs = await other.factory.cardProduct({ cardName: '别店卡' });
    for (const id of [theirs.id, 444_444]) {
      expect((await client.call(`${API}/update/card/product`, { id, ...tenTimes })).status).toBe(404);
      const del = await client.call(`${API}/delete/card/product`, { id });
      expect([del.status, del.msg, del.data]).toEqual([404, '卡种不存在', null]);
    }
    expect(JSON.stringify(await client.ok(`${API}/query/card/product/list`))).not.toContain('别店卡');
  });
});

describeEachDb('member cards', (env) => {
  it('issues a card valid through the end of the day with an issue ledger row', async () => {
    const { client, factory } = env();
    const p = await factory.cardProduct({ cardType: 1 });
    const m = await factory.member();
    const { id } = await client.ok(`${API}/insert/member/card`, {
      mid: m.id,
      cardId: p.id,
      totalCount: 10,
      expireTime: '2199-03-31',
    });
    const info = await client.ok(`${API}/query/member/info`, { id: m.id });
    expect(info.cards[0]).toMatchObject({
      id,
      totalCount: 10,
      usedCount: 0,
      expireTime: '2199-03-31 23:59:59',
      frozen: 0,
    });
    const ledger = await client.ok(`${API}/query/member/card/ledger`, { id });
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ kind: 'issue', amount: 10, reservationId: null });
    expect(ledger[0].operator).toMatch(/^管理员/);
  });

  it('never expires a card of a never-expiring product; asks for a date otherwise', async () => {
    const { client, factory } = env();
    const forever = await factory.cardProduct({ cardType: 2 });
    const expiring = await factory.cardProduct({ cardType: 1, validDays: null });
    const m = await factory.member();
    const { id } = await client.ok(`${API}/insert/member/card`, {
      mid: m.id,
      cardId: forever.id,
      totalCount: 20,
      expireTime: '2199-01-01',
    });
    const card = (await client.ok(`${API}/query/member/info`, { id: m.id })).cards.find(
      (c: { id: number }) => c.id === id,
    );
    expect(card.expireTime).toBeNull();
    const a = await client.call(`${API}/insert/member/card`, { mid: m.id, cardId: expiring.id, totalCount: 10 });
    expect([a.status, a.msg]).toEqual([400, '请选择到期日期']);
    const b = await client.call(`${API}/insert/member/card`, {
      mid: m.id,
      cardId: expiring.id,
      totalCount: 10,
      expireTime: '2199-02-30',
    });
    expect([b.status, b.msg]).toEqual([400, '日期不存在']);
  });

  it('freezes, tops up (ledger newest first) and moves the expiry', async () => {
    const { client, factory } = env();
    const p = await factory.cardProduct();
    const m = await factory.member();
    const { id } = await client.ok(`${API}/insert/member/card`, { mid: m.id, cardId: p.id, totalCount: 10 });
    await client.ok(`${API}/update/member/card/status`, { id, frozen: 1 });
    await client.ok(`${API}/update/member/card/topup`, { id, amount: 5 });
    await client.ok(`${API}/update/member/card/expire`, { id, expireTime: '2199-12-31' });
    const card = (await client.ok(`${API}/query/member/info`, { id: m.id })).cards[0];
    expect(card).toMatchObject({ frozen: 1, totalCount: 15, expireTime: '2199-12-31 23:59:59' });
    const ledger = await client.ok(`${API}/query/member/card/ledger`, { id });
    expect(ledger.map((l: { kind: string; amount: number }) => [l.kind, l.amount])).toEqual([
      ['topup', 5],
      ['issue', 10],
    ]);
    await client.ok(`${API}/update/member/card/status`, { id, frozen: 0 });
    const bad = await client.call(`${API}/update/member/card/topup`, { id, amount: 0 });
    expect([bad.status, bad.msg]).toEqual([400, '充值数量必须大于0']);
    const bad2 = await client.call(`${API}/update/member/card/status`, { id, frozen: 2 });
    expect(bad2.status).toBe(400);
  });

  it('names the session of each booking entry in the ledger answer itself', async () => {
    const { client } = env();
    const e = new EngineFactory(env().factory);
    const s = await e.scene({ course: { name: '流水里的课' } });
    const session = await e.session({
      courseId: s.course.id,
      teacherId: s.teacher.id,
      startTime: '2099-08-03 09:00:00',
    });
    const m = await e.memberWithCard(s.product.id, { card: { totalCount: 5 } });
    await client.ok(`${API}/add/member/reservation`, { mcId: m.card.id, tid: session.id, studentCount: 1, remark: '' });
    const ledger = await client.ok(`${API}/query/member/card/ledger`, { id: m.card.id });
    expect(ledger[0]).toMatchObject({
      kind: 'deduct',
      timetableId: session.id,
      session: { courseName: '流水里的课', startTime: '2099-08-03 09:00:00' },
    });
  });

  it('answers 404 for another store’s member, product or card and changes nothing', async () => {
    const { client, factory, other } = env();
    const myProduct = await factory.cardProduct();
    const myMember = await factory.member();
    const theirMember = await other.factory.member();
    const theirProduct = await other.factory.cardProduct();
    const theirCard = await other.factory.memberCard(theirMember.id, theirProduct.id, { totalCount: 7 });
    const a = await client.call(`${API}/insert/member/card`, {
      mid: theirMember.id,
      cardId: myProduct.id,
      totalCount: 1,
    });
    expect([a.status, a.msg]).toEqual([404, '会员不存在']);
    const b = await client.call(`${API}/insert/member/card`, {
      mid: myMember.id,
      cardId: theirProduct.id,
      totalCount: 1,
    });
    expect([b.status, b.msg]).toEqual([404, '卡种不存在']);
    const calls: [string, object][] = [
      ['update/member/card/status', { id: theirCard.id, frozen: 1 }],
      ['update/member/card/topup', { id: theirCard.id, amount: 100 }],
      ['update/member/card/expire', { id: theirCard.id, expireTime: '2199-01-01' }],
      ['query/member/card/ledger', { id: theirCard.id }],
      ['query/member/card/ledger', { id: 333_333 }],
    ];
    for (const [url, body] of calls) {
      const r = await client.call(`${API}/${url}`, body);
      expect([r.status, r.msg, r.data]).toEqual([404, '会员卡不存在', null]);
    }
    const untouched = await other.client.ok(`${API}/query/member/info`, { id: theirMember.id });
    expect(untouched.cards[0]).toMatchObject({ totalCount: 7, frozen: 0, expireTime: null });
  });
});
