import { expect, it } from 'vitest';
import { describeBrowser, phoneContext, shot } from './harness.ts';
import { addDays, addSession, makeFixture, signInNewMember } from './seed.ts';
import { modal, pickIn, toast } from './ui.ts';

/** Store-local (Asia/Shanghai) today, `YYYY-MM-DD`. */
const today = () => new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 10);

describeBrowser('多人共享 and 转卡 (issue 29): a family card, a card moved', (env) => {
  it('the desk shares a family card with a daughter, who books on it on her phone; the ledger names her', async () => {
    const { api, page, server } = env();
    const storeId = (await api.ok<{ posts: { storeId: number }[] }>('/api/auth/me')).posts[0].storeId;
    const f = await makeFixture(api, '享');
    const name = `家庭卡${f.memberId}`;
    const product = await api.ok<{ id: number }>('insert/card/product', {
      cardName: name,
      bigType: 1,
      cardType: 2,
      perCount: 1,
      price: 300000,
      courseIds: [f.courseId],
      shareMax: 2,
    });
    const mc = await api.ok<{ id: number }>('insert/member/card', {
      mid: f.memberId,
      cardId: product.id,
      totalCount: 20,
      expireTime: null,
    });
    const date = addDays(today(), 3);
    const tid = await addSession(api, f, date, '19:00');
    const [context, phone] = await phoneContext(env().browser);
    try {
      // The daughter signs in on her phone first: she holds no card of her own.
      const daughter = `女儿${f.memberId}`;
      const { memberId } = await signInNewMember(phone, api, server.url, storeId, daughter);

      // The product form offers 共享人数.
      await page.goto(`${server.url}/card/list`);
      await page.locator('.ant-table-row', { hasText: name }).getByText('可共享2人').waitFor();

      // The desk opens the mother's card and shares it.
      await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
      const row = page.getByTestId('member-card-table').locator('.ant-table-row', { hasText: name });
      await row.getByText('共享', { exact: true }).click();
      const m = modal(page, `共享成员：${name}`);
      await m.getByText('这张卡最多共享给 2 位会员，已共享 0 位').waitFor();
      // The form's own check first: nobody chosen.
      await m.getByRole('button', { name: '添加共享成员' }).click();
      await m.getByText('请选择共享给哪位会员').waitFor();
      // The holder herself is refused before the server is asked.
      await pickIn(page, m.getByTestId('member-picker'), f.memberName, f.memberName);
      await m.getByRole('button', { name: '添加共享成员' }).click();
      await m.getByText('持卡人本人无需添加为共享成员').waitFor();
      await pickIn(page, m.getByTestId('member-picker'), daughter, daughter);
      await m.getByRole('button', { name: '添加共享成员' }).click();
      await toast(page, '已共享');
      await m.getByTestId('share-list').getByText(daughter).waitFor();
      await m.getByText('已共享 1 位').waitFor();
      await shot(page, 'card-share-desk-modal');
      await m.locator('.ant-modal-close').click();
      await row.getByTestId('card-shared-with').getByText(`共享：${daughter}`).waitFor();
      // Her own page says which card she may book on, and whose it is.
      await page.goto(`${server.url}/member/detail?member_id=${memberId}`);
      await page.getByTestId('shared-cards').getByText(`${name}（`).waitFor();
      expect(await page.getByTestId('shared-cards').innerText()).toContain(`${f.memberName}的卡`);
      await shot(page, 'card-share-sharer-page');
      await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);

      // On her phone the card is hers to book with, named as her mother's.
      await phone.getByText('会员卡', { exact: true }).tap();
      const card = phone.getByTestId('my-card').filter({ hasText: name });
      await card.getByTestId('shared-by').getByText(`${f.memberName}共享`).waitFor();
      // Not hers to top up or put on leave.
      expect(await card.getByRole('button', { name: '请假' }).count()).toBe(0);
      await shot(phone, 'card-share-phone-cards');
      await phone.getByText('课表', { exact: true }).tap();
      await phone.getByTestId(`day-${date}`).tap();
      await phone.getByTestId(`session-${tid}`).tap();
      const sheet = phone.getByTestId('session-sheet');
      const option = sheet.getByTestId(`card-${mc.id}`);
      expect(await option.innerText()).toContain(`${name}（${f.memberName}共享）`);
      await option.tap();
      await shot(phone, 'card-share-phone-book');
      await sheet.getByRole('button', { name: '预约', exact: true }).tap();
      await phone.getByText('预约成功').waitFor();

      // The card's ledger (流水) names who booked.
      await page.reload();
      await row.getByText('流水').click();
      const ledger = page.getByTestId('ledger-table');
      const charge = ledger.locator('.ant-table-row', { hasText: '扣费' });
      await charge.getByText(daughter).waitFor();
      expect(await charge.innerText()).toContain(f.courseName);
      await ledger.locator('.ant-table-row', { hasText: `共享给 ${daughter}` }).waitFor();
      await shot(page, 'card-share-ledger');
    } finally {
      await context.close();
    }
  });

  it('转卡: the modal shows the holder and the open bookings, takes a fee, and the card moves', async () => {
    const { api, page, server } = env();
    const f = await makeFixture(api, '转');
    const date = addDays(today(), 4);
    const tid = await addSession(api, f, date, '10:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, mid: f.memberId, studentCount: 1 });
    const to = `新持卡人${f.memberId}`;
    await api.ok('insert/member', { name: to, mobile: `136${String(f.memberId).padStart(8, '0')}`, gender: 1 });
    await page.goto(`${server.url}/member/detail?member_id=${f.memberId}`);
    const row = page.getByTestId('member-card-table').locator('.ant-table-row').first();
    await row.getByText('转卡').click();
    const m = modal(page, '转卡：');
    await m.getByText(`持卡人 ${f.memberName}（${f.memberMobile}）`).waitFor();
    await m.getByText('未上课程的预约（1 节）').waitFor();
    // The form's own checks: nobody chosen; a fee without how it was paid.
    await m.getByRole('button', { name: '确认转卡' }).click();
    await m.getByText('请选择转给哪位会员').waitFor();
    await pickIn(page, m.getByTestId('member-picker'), to, to);
    await m.getByLabel('转卡手续费').fill('50');
    await m.getByRole('button', { name: '确认转卡' }).click();
    await m.getByText('请选择收款方式').waitFor();
    await m.getByText('微信', { exact: true }).click();
    await m.getByText('保留给原持卡人').click();
    await shot(page, 'card-transfer-modal');
    await m.getByRole('button', { name: '确认转卡' }).click();
    await toast(page, '转卡成功');
    // The card left the old holder's page; the new holder's shows it and its ledger note.
    await page.getByTestId('member-card-table').getByText('暂无会员卡').waitFor();
    const detail = await api.ok<{ id: number }[]>('query/member/search', { param: to });
    await page.goto(`${server.url}/member/detail?member_id=${detail[0].id}`);
    const moved = page.getByTestId('member-card-table').locator('.ant-table-row').first();
    await moved.getByText('流水').click();
    const note = page.getByTestId('ledger-table').locator('.ant-table-row', { hasText: '转卡' });
    expect(await note.innerText()).toContain(`${f.memberName}（${f.memberMobile}）→ ${to}`);
    expect(await note.innerText()).toContain('收手续费50.00 元');
    await shot(page, 'card-transfer-ledger');
  });
});
