import {
  CONTRACT_DEFAULT_BODY,
  CONTRACT_DEFAULT_TITLE,
  ContractMsg,
  insertCardProduct,
  insertMemberCard,
  Msg,
  queryCardContract,
  queryContractTemplate,
  updateContractTemplate,
  updateMember,
} from '@studio/contract';
import { expect, it } from 'vitest';
import { describeEachDb, staffClient } from '../../../test/harness.ts';

/**
 * 电子合同, item 1 of issue 45: the template (the default as version 1, a new version for each
 * change), and each sale's contract naming the version in force, filled with the sale's terms.
 */
describeEachDb('contracts: the template and each sale’s contract', (env) => {
  const manager = () => env().client;

  /** A 10次卡 product (2,000 元, 90 days, leave allowed twice up to 14 days) and a member it is sold to. */
  async function sale(paid = 200000) {
    const member = await env().factory.member({ name: '合同会员' });
    const { id: productId } = await manager().ok(insertCardProduct.path, {
      cardName: '合同十次卡',
      bigType: 1,
      cardType: 1,
      perCount: 1,
      price: 200000,
      totalCount: 10,
      validDays: 90,
      courseIds: [],
      leaveAllowed: 1,
      leaveTimes: 2,
      leaveDaysMax: 14,
      leaveDaysTotal: null,
      refundFeePercent: 10,
    });
    const { id } = await manager().ok(insertMemberCard.path, {
      mid: member.id,
      cardId: productId,
      totalCount: 10,
      expireTime: '2099-12-31',
      payment: { amount: paid, method: 'wechat', remark: null },
    });
    return { member, cardId: id as number };
  }
  const contractOf = (mcId: number) =>
    manager().ok<{ version: number; title: string; text: string } | null>(queryCardContract.path, { mcId });

  it('starts from the default text as version 1; a sale names it and fills the sale’s terms and the buyer', async () => {
    const t = await manager().ok(queryContractTemplate.path, {});
    expect(t).toMatchObject({
      current: 1,
      template: { version: 1, title: CONTRACT_DEFAULT_TITLE, body: CONTRACT_DEFAULT_BODY, createdAt: null },
      versions: [],
    });
    const { member, cardId } = await sale();
    const c = (await contractOf(cardId))!;
    expect(c).toMatchObject({ version: 1, title: CONTRACT_DEFAULT_TITLE });
    expect(c.text).not.toMatch(/\{\{/);
    for (const part of [
      `乙方（会员）：合同会员，手机号 ${member.mobile}`,
      '乙方购买「合同十次卡」（次卡），卡内10 次，实付2000.00 元',
      '有效期：至 2099-12-31',
      '可请假：次数2次，每次最多14天，累计最多不限',
      '自购卡之日起7天内（冷静期）',
      '并扣除实付金额的 10% 作为手续费',
    ]) {
      expect(c.text).toContain(part);
    }
    // the default was written as version 1 with the sale
    const after = await manager().ok(queryContractTemplate.path, {});
    expect(after.versions).toMatchObject([{ version: 1, cards: 1, createdByName: null }]);
  });

  it('a changed text is a new version; earlier cards keep theirs; the same text makes none; the licence name fills in', async () => {
    const first = await sale();
    const body = '{{经营者名称}} 与 {{会员姓名}} 签订：{{卡种名称}}，{{次数或余额}}，实付 {{实付金额}}，{{签订日期}}。';
    expect(
      await manager().ok(updateContractTemplate.path, { title: '会员服务协议', body, licenceName: '悦动健身有限公司' }),
    ).toEqual({ version: 2 });
    expect(
      await manager().ok(updateContractTemplate.path, { title: '会员服务协议', body, licenceName: '悦动健身有限公司' }),
    ).toEqual({ version: 2 });
    const second = await sale(150000);
    const c2 = (await contractOf(second.cardId))!;
    expect(c2.version).toBe(2);
    expect(c2.text).toMatch(
      /^悦动健身有限公司 与 合同会员 签订：合同十次卡，10 次，实付 1500\.00 元，\d{4}-\d{2}-\d{2}。$/,
    );
    // the first card still reads as version 1, with the name of its buyer as it is now
    await manager().ok(updateMember.path, {
      id: first.member.id,
      name: '改名会员',
      mobile: first.member.mobile,
      gender: 2,
    });
    const c1 = (await contractOf(first.cardId))!;
    expect(c1.version).toBe(1);
    expect(c1.text).toContain('乙方（会员）：改名会员');
    // an old version is shown on asking; one that does not exist is not found
    const v1 = await manager().ok(queryContractTemplate.path, { version: 1 });
    expect(v1).toMatchObject({ current: 2, template: { version: 1, title: CONTRACT_DEFAULT_TITLE } });
    const none = await manager().call(queryContractTemplate.path, { version: 99 });
    expect([none.status, none.msg]).toEqual([404, Msg.notFound('合同版本')]);
  });

  it('refuses a field it does not know, an empty text, and other roles; a card of another store is not found', async () => {
    const bad = await manager().call(updateContractTemplate.path, {
      title: '合同',
      body: '{{会员姓名}} 的 {{折扣}} 和 {{会员等级}}',
      licenceName: '',
    });
    expect([bad.status, bad.msg]).toEqual([400, '合同中有不认识的字段：{{折扣}}、{{会员等级}}']);
    const empty = await manager().call(updateContractTemplate.path, { title: '合同', body: '  ', licenceName: '' });
    expect([empty.status, empty.msg]).toEqual([400, ContractMsg.body]);
    const teacher = await env().factory.teacher();
    for (const [role, teacherId] of [
      ['desk', null],
      ['teacher', teacher.id],
    ] as const) {
      const c = await staffClient(env(), role, teacherId);
      const r = await c.call(updateContractTemplate.path, { title: '合同', body: '{{会员姓名}}', licenceName: '' });
      expect(r.status).toBe(403);
    }
    const desk = await staffClient(env(), 'desk');
    const { cardId } = await sale();
    expect((await desk.ok(queryCardContract.path, { mcId: cardId }))!.text).toContain('合同会员');
    const theirs = await env().other.client.call(queryCardContract.path, { mcId: cardId });
    expect([theirs.status, theirs.msg]).toEqual([404, Msg.notFound('会员卡')]);
    // a card made without a sale (the factory: as an import makes one) has no contract
    const m = await env().factory.member();
    const product = await env().factory.cardProduct();
    const imported = await env().factory.memberCard(m.id, product.id);
    expect(await contractOf(imported.id)).toBeNull();
  });
});
