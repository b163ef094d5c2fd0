import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { addDays, makeFixture, signInNewMember } from './seed.ts';
import { modal, pick, toast } from './ui.ts';

/** Store-local (Asia/Shanghai) today, `YYYY-MM-DD`. */
const today = () => new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10);

describeBrowser("a card's life (issue 29): leave, 首次上课开卡, cooling-off refund", (env) => {
  it('a member asks for leave on the phone and sees 请假中 with the new expiry', async () => {
    const { api, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '假');
    const product = await api.ok<{ id: number }>('insert/card/product', {
      cardName: `月卡假${f.memberId}`,
      bigType: 1,
      cardType: 1,
      perCount: 1,
      price: 50000,
      validDays: 30,
      courseIds: [f.courseId],
      leaveAllowed: 1,
      leaveTimes: 2,
      leaveDaysMax: 7,
    });
    const [context, page] = await phoneContext(env().browser);
    try {
      const name = `请假会员${f.memberId}`;
      const { memberId } = await signInNewMember(page, api, server.url, storeId, name);
      await api.ok('insert/member/card', { mid: memberId, cardId: product.id, totalCount: 10 });
      const t = today();
      await page.getByText('会员卡', { exact: true }).tap();
      const card = page.getByTestId('my-card').filter({ hasText: `月卡假${f.memberId}` });
      await card
        .getByTestId('card-expiry')
        .getByText(`有效期至 ${addDays(t, 30)}`)
        .waitFor();
      await card.getByRole('button', { name: '请假' }).tap();
      await page.getByTestId('leave-rules').getByText('可请假 2 次，已用 0 次').waitFor();
      await page.getByLabel('请假开始日期').fill(t);
      await page.getByLabel('请假结束日期').fill(addDays(t, 2));
      await page.getByPlaceholder('如：出差、生病').fill('出差三天');
      await page.getByText('共 3 天').waitFor();
      await shot(page, 'card-life-phone-leave-form');
      await page.getByRole('button', { name: '提交请假' }).tap();
      await page.getByText('请假成功').waitFor();
      // back on 我的会员卡: 请假中, the expiry three days later
      await card.getByText('请假中').waitFor();
      const expiry = await card.getByTestId('card-expiry').innerText();
      expect(expiry).toContain(`有效期至 ${addDays(t, 33)}`);
      expect(expiry).toContain('请假');
      await page.getByText('请假成功').waitFor({ state: 'hidden' });
      await shot(page, 'card-life-phone-in-leave');
      // the desk sees it too
      const desk = env().page;
      await desk.goto(`${server.url}/card/list?tab=member&member_id=${memberId}`);
      const row = desk.getByTestId('member-card-table').locator('.ant-table-row', { hasText: `月卡假${f.memberId}` });
      await row.getByText('请假中').waitFor();
      await row.getByText(addDays(t, 33)).waitFor();
      await row.getByText('请假记录').click();
      const leaves = modal(desk, `请假记录：月卡假${f.memberId}`);
      await leaves.getByText('会员申请').waitFor();
      await shot(desk, 'card-life-desk-leave-list');
    } finally {
      await context.close();
    }
  });

  it('the desk sells a 首次上课开卡 card and sees 未开卡', async () => {
    const { api, page, server } = env();
    const f = await makeFixture(api, '开');
    const name = `首课卡${f.memberId}`;
    await api.ok('insert/card/product', {
      cardName: name,
      bigType: 1,
      cardType: 1,
      perCount: 1,
      price: 120000,
      totalCount: 20,
      validDays: 60,
      courseIds: [f.courseId],
      activation: 'first_class',
      activateWithinDays: 30,
    });
    // the product form says how its cards start, their leave, caps and refund fee
    await page.goto(`${server.url}/card/list`);
    await page.locator('.ant-table-row', { hasText: name }).getByText('编辑').click();
    const form = modal(page, '编辑卡种');
    expect(await form.getByLabel('首次上课开卡').isChecked()).toBe(true);
    await form.getByLabel('最晚开卡天数').waitFor();
    await form.getByLabel('每日上限').waitFor();
    await form.getByLabel('退卡手续费比例').scrollIntoViewIfNeeded();
    await shot(page, 'card-life-product-form');
    await form.getByRole('button', { name: /取\s*消/ }).click();
    await page.goto(`${server.url}/card/list?tab=member&member_id=${f.memberId}`);
    await page.getByTestId('member-card-table').waitFor();
    await page.getByRole('button', { name: /发\s*卡/ }).click();
    const m = modal(page, '发卡');
    await pick(page, m.locator('.ant-form-item', { hasText: '卡种' }), name, name);
    await m.getByTestId('activation-note').getByText('首次上课开卡：从第一节课当天起有效 60 天').waitFor();
    expect(await m.getByText('有效期至（含当天）').count()).toBe(0);
    await m.getByText('微信', { exact: true }).click();
    await shot(page, 'card-life-sell-first-class');
    await m.getByRole('button', { name: '确认发卡' }).click();
    await toast(page, '发卡成功');
    const row = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: name });
    await row.getByText('未开卡').waitFor();
    await row.getByText('开卡后起算').waitFor();
    await shot(page, 'card-life-not-started');
  });

  it('a 指定日期开卡 product whose day has passed: the switch 过期后售出 on the form, then the desk sells a card starting today', async () => {
    const { api, page, server } = env();
    const f = await makeFixture(api, '晚');
    const name = `定日卡${f.memberId}`;
    const t = today();
    const product = await api.ok<{ id: number }>('insert/card/product', {
      cardName: name,
      bigType: 1,
      cardType: 1,
      perCount: 1,
      price: 60000,
      totalCount: 10,
      validDays: 30,
      courseIds: [f.courseId],
      activation: 'date',
      activationDate: addDays(t, -2),
    });
    await page.goto(`${server.url}/card/list`);
    await page.locator('.ant-table-row', { hasText: name }).getByText('编辑').click();
    const form = modal(page, '编辑卡种');
    const late = form.getByRole('switch', { name: '过期后售出' });
    expect(await late.isChecked()).toBe(false);
    await form.getByText('开卡日期已过时，售出当天开卡').waitFor();
    // only for 指定日期开卡
    await form.getByLabel('售卡即开卡').check();
    await late.waitFor({ state: 'detached' });
    await form.getByLabel('指定日期开卡').check();
    await late.click();
    expect(await late.isChecked()).toBe(true);
    await late.scrollIntoViewIfNeeded();
    await shot(page, 'card-life-late-sale-switch');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '操作成功');
    const list = await api.ok<{ id: number; lateSaleStartsToday: number; activationDate: string }[]>(
      'query/card/product/list',
      {},
    );
    expect(list.find((p) => p.id === product.id)).toMatchObject({
      lateSaleStartsToday: 1,
      activationDate: addDays(t, -2),
    });

    await page.goto(`${server.url}/card/list?tab=member&member_id=${f.memberId}`);
    await page.getByTestId('member-card-table').waitFor();
    await page.getByRole('button', { name: /发\s*卡/ }).click();
    const m = modal(page, '发卡');
    await pick(page, m.locator('.ant-form-item', { hasText: '卡种' }), name, name);
    await m
      .getByTestId('activation-note')
      .getByText(`开卡日期（${addDays(t, -2)}）已过，售出当天开卡：今天起有效 30 天`)
      .waitFor();
    await m.getByText('微信', { exact: true }).click();
    await shot(page, 'card-life-sell-late-date');
    await m.getByRole('button', { name: '确认发卡' }).click();
    await toast(page, '发卡成功');
    const row = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: name });
    await row.getByText(addDays(t, 30)).waitFor();
  });

  it('a cooling-off refund shows the full amount paid before it is confirmed', async () => {
    const { api, page, server } = env();
    const f = await makeFixture(api, '退');
    const name = `冷静期卡${f.memberId}`;
    const product = await api.ok<{ id: number }>('insert/card/product', {
      cardName: name,
      bigType: 1,
      cardType: 1,
      perCount: 1,
      price: 88000,
      validDays: 90,
      courseIds: [f.courseId],
      refundFeePercent: 10,
    });
    await api.ok('insert/member/card', {
      mid: f.memberId,
      cardId: product.id,
      totalCount: 10,
      payment: { amount: 88000, method: 'wechat', remark: null },
    });
    await page.goto(`${server.url}/card/list?tab=member&member_id=${f.memberId}`);
    const row = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: name });
    await row.getByText('退卡', { exact: true }).click();
    const m = modal(page, `退卡：${name}`);
    const quote = m.getByTestId('refund-quote');
    await quote.getByText('冷静期全额退款').waitFor();
    expect(await quote.getByTestId('refund-amount').innerText()).toBe('880.00 元');
    expect(await quote.innerText()).toContain('售卡当天，在7天冷静期内');
    await expect.poll(() => m.getByLabel('退款金额').inputValue()).toBe('880.00');
    await m.getByText('微信', { exact: true }).click();
    await shot(page, 'card-life-cooling-off-refund');
    await m.getByRole('button', { name: '确认退款' }).click();
    await toast(page, '退款成功');
    await row.getByText('已退卡').waitFor();
  });
});
