import { expect, it } from 'vitest';
import { describeBrowser, shot } from './harness.ts';
import { addSessionTonight, makeFixture } from './seed.ts';
import { modal, toast } from './ui.ts';

/** Today's date in the store's time zone (Asia/Shanghai). */
const todayInStore = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

describeBrowser('今日 (the desk’s day)', (env) => {
  it('shows today’s class with its roster, signs one in, 全部签到 asks about a member with two cards, prints the roster', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '今');
    const store = (await api.ok('/api/auth/me')).posts[0].storeId;
    // A class late today (still to come whatever the hour), one member booked in mode 0.
    const tid = await addSessionTonight(api, f, server.database.db, todayInStore());
    const booked = await api.ok<{ id: number }>('insert/member', {
      name: `预约会员${tid}`,
      mobile: `137${String(tid).padStart(8, '0')}`,
    });
    const bookedCard = await api.ok<{ id: number }>('insert/member/card', {
      mid: booked.id,
      cardId: f.productId,
      totalCount: 10,
      expireTime: null,
    });
    await api.ok('add/member/reservation', { mcId: bookedCard.id, tid, studentCount: 1, remark: '' });
    // Mode 1: the fixture's member (one card) and a member with two usable cards wait for sign-in.
    const two = await api.ok<{ id: number }>('insert/member', {
      name: `双卡会员${tid}`,
      mobile: `136${String(tid).padStart(8, '0')}`,
    });
    for (const n of [5, 8]) {
      await api.ok('insert/member/card', { mid: two.id, cardId: f.productId, totalCount: n, expireTime: null });
    }
    await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 1 });
    try {
      await api.ok('add/member/group/pending', { mid: f.memberId, tid, studentCount: 1, remark: '' });
      await api.ok('add/member/group/pending', { mid: two.id, tid, studentCount: 1, remark: '' });

      await page.goto(`${server.url}/today`);
      const card = page.getByTestId(`today-session-${tid}`);
      await card.waitFor();
      expect(await card.innerText()).toContain(f.courseName);
      expect(await card.getByTestId('free-seats').innerText()).toBe('3/6 · 余 3 位');
      const row = (name: string) => card.locator('tr', { hasText: name });
      expect(await row(`预约会员${tid}`).innerText()).toContain('已预约');
      expect(await row(f.memberName).innerText()).toContain('待签到');
      await shot(page, 'today');

      // 全部签到: the member with one usable card is signed in; the one with two is named.
      await card.getByRole('button', { name: /全部签到/ }).click();
      await page.locator('.ant-message-notice', { hasText: `双卡会员${tid} 需要选择会员卡` }).waitFor();
      await row(f.memberName).getByText('已签到').waitFor();
      const fixtureCard = (await api.ok('query/member/info', { id: f.memberId })).cards[0];
      expect(fixtureCard.usedCount).toBe(1);

      // One tap on 签到 for the member with two cards: choose the card, sign in.
      await row(`双卡会员${tid}`).getByRole('button', { name: '签到' }).click();
      const m = modal(page, `双卡会员${tid} 签到`);
      await m.getByTestId('sign-in-card').waitFor();
      await shot(page, 'today-choose-card');
      await m
        .getByRole('button', { name: '签 到' })
        .or(m.getByRole('button', { name: '签到' }))
        .click();
      await toast(page, `双卡会员${tid} 签到成功`);
      await row(`双卡会员${tid}`).getByText('已签到').waitFor();
      expect(await card.getByRole('button', { name: /全部签到/ }).count()).toBe(0);

      // The printable roster lists everyone with a signature column.
      await card.getByRole('button', { name: '打印名单' }).click();
      const preview = page.getByTestId('roster-preview');
      await preview.waitFor();
      const text = await preview.innerText();
      for (const name of [f.memberName, `双卡会员${tid}`, `预约会员${tid}`]) expect(text).toContain(name);
      expect(text).toContain('签名');
      await shot(page, 'today-roster');
    } finally {
      await api.ok('update/module/status', { storeId: store, moduleId: 6, status: 0 });
    }
  });
});
