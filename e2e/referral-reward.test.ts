// 转介绍奖励 (issue 44, item 5): the manager sets the reward on /lead/referral (the form checks the
// amount before calling the server), a referred friend buys a first card, the reward shows in the list
// as granted on the referrer's card; 撤销奖励 takes it back.
import { expect, it } from 'vitest';
import { referralCodeOf } from '../apps/server/src/features/member-channel/public.ts';
import { describeBrowser, shot } from './harness.ts';
import { field, toast } from './ui.ts';

describeBrowser('转介绍奖励 (店长)', (env) => {
  it('the manager sets the reward, a friend buys a first card, the reward shows and is undone', async () => {
    const { server, page, api } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;

    await page.goto(`${server.url}/lead/referral`);
    const setting = page.getByTestId('referral-setting');
    await setting.getByText('开启转介绍奖励').waitFor();
    await setting.getByRole('switch').click();
    await setting.getByText('好友首次购卡').click();
    const amount = field(setting, '奖励数量').locator('input');
    await amount.fill('0');
    await setting.getByRole('button', { name: '保存设置' }).click();
    await setting.getByText('请输入奖励数量（正整数）').waitFor();
    await amount.fill('101');
    await setting.getByRole('button', { name: '保存设置' }).click();
    await setting.getByText('奖励最多为100 次').waitFor();
    await amount.fill('2');
    await setting.getByRole('button', { name: '保存设置' }).click();
    await toast(page, '已保存');
    expect(await api.ok('query/referral/setting', {})).toEqual({
      enabled: true,
      trigger: 'card',
      kind: 'lessons',
      amount: 2,
    });
    await shot(page, 'referral-setting');

    // A referrer with a 次卡, a friend signing up through the referrer's link, then buying at the desk.
    const product = await api.ok<{ id: number }>('insert/card/product', {
      cardName: '推荐奖励次卡',
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 100000,
      totalCount: 10,
      courseIds: [],
    });
    const referrer = await api.ok<{ id: number }>('insert/member', {
      name: '推荐人周女士',
      mobile: '13700001111',
      gender: 2,
      birthday: '1990-05-01',
    });
    const card = await api.ok<{ id: number }>('insert/member/card', {
      mid: referrer.id,
      cardId: product.id,
      totalCount: 10,
    });
    const ref = await referralCodeOf(server.database.db, storeId, referrer.id);
    const signUp = await fetch(`${server.url}/member/api/insert/trial/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ storeId, name: '好友林先生', mobile: '13700002222', interests: '瑜伽', ref }),
    });
    expect(((await signUp.json()) as { code: number }).code).toBe(0);
    const friend = await api.ok<{ id: number }>('insert/member', {
      name: '好友林先生',
      mobile: '13700002222',
      gender: 1,
      birthday: '1992-03-01',
    });
    await api.ok('insert/member/card', { mid: friend.id, cardId: product.id, totalCount: 10 });

    await page.reload();
    const row = page.getByTestId('referral-rewards').locator('tr', { hasText: '推荐人周女士' });
    await row.getByText('已发放').waitFor();
    expect(await row.innerText()).toContain('好友林先生（13700002222）');
    expect(await row.innerText()).toContain('次卡加课时 2 次（推荐奖励次卡）');
    await shot(page, 'referral-rewards');
    const ledger = await api.ok<{ kind: string; amount: number }[]>('query/member/card/ledger', { id: card.id });
    expect(ledger.filter((e) => e.kind === 'referral').map((e) => e.amount)).toEqual([2]);

    await row.getByRole('button', { name: '撤销奖励' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: '撤销奖励' }).click();
    await toast(page, '奖励已撤销');
    await row.getByText('已撤销').waitFor();
    await shot(page, 'referral-reward-undone');
  });
});
