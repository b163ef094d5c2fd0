import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, shot } from './harness.ts';
import { addDays, addSession, addSessionTonight, makeFixture, mondayOf } from './seed.ts';
import { modal, toast } from './ui.ts';

const MM = 72 / 25.4;
/** Today's date in the store's time zone (Asia/Shanghai). */
const todayInStore = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);

describeBrowser('printouts (receipt and roster)', (env) => {
  it('the receipt masks the mobile, prints what the card holds after the booking, and 家长签字 only for a 少儿 course', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '票印');
    // A count card of 10 (9 left after this booking) and a money card of 1000.00 元 (50.00 元 a class);
    // a session takes the cards its course allows when it is made: the money card's product first.
    const wallet = await api.ok<{ id: number }>('insert/card/product', {
      cardName: `储值卡票印${f.memberId}`,
      bigType: 2,
      cardType: 1,
      perCount: 5000,
      price: 100000,
      courseIds: [f.courseId],
    });
    const payer = await api.ok<{ id: number }>('insert/member', {
      name: `储值会员${f.memberId}`,
      mobile: `135${String(f.memberId).padStart(8, '0')}`,
      gender: 1,
    });
    const mc = await api.ok<{ id: number }>('insert/member/card', {
      mid: payer.id,
      cardId: wallet.id,
      totalCount: 100000,
      expireTime: '2099-12-31',
    });
    const tid = await addSession(api, f, addDays(mondayOf(1), 6), '20:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1 });
    await api.ok('add/member/reservation', { mcId: mc.id, tid, studentCount: 1 });

    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    const openReceipt = async (name: string) => {
      await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      await drawer
        .getByTestId('booked-table')
        .locator('tr', { hasText: name })
        .getByRole('button', { name: '打印小票' })
        .click();
      const m = modal(page, '打印小票');
      await m.locator('.receipt h1').waitFor();
      return m;
    };

    // An adult class: the mobile masked, the balance, no 家长签字.
    let m = await openReceipt(f.memberName);
    const receipt = m.locator('.receipt');
    expect(await receipt.getByTestId('receipt-mobile').innerText()).toBe(
      `手机：${f.memberMobile.slice(0, 3)}****${f.memberMobile.slice(-4)}`,
    );
    expect(await receipt.innerText()).not.toContain(f.memberMobile);
    expect(await receipt.getByTestId('receipt-balance').allInnerTexts()).toEqual(['剩余：9 次']);
    expect(await page.locator('.receipt h2', { hasText: '家长签字' }).count()).toBe(0);
    await shot(page, 'receipt-adult');
    // What prints is the same: the copy in the print root.
    await page.emulateMedia({ media: 'print' });
    const printed = page.locator('.receipt-print-root .receipt');
    expect(await printed.isVisible()).toBe(true);
    expect(await printed.getByTestId('receipt-mobile').innerText()).toContain('****');
    expect(await printed.getByTestId('receipt-balance').innerText()).toBe('剩余：9 次');
    await page.emulateMedia({ media: null });
    await m
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /关\s*闭/ })
      .click();

    // A money card: yuan, with its expiry.
    m = await openReceipt(`储值会员${f.memberId}`);
    expect(await m.locator('.receipt').getByTestId('receipt-balance').allInnerTexts()).toEqual([
      '剩余：950.00 元',
      '有效期至：2099-12-31',
    ]);
    await m
      .locator('.ant-modal-footer')
      .getByRole('button', { name: /关\s*闭/ })
      .click();

    // 少儿课程, set on the course edit screen: its receipts get the 家长签字 line.
    await page.goto(`${server.url}/course/edit/${f.courseId}`);
    const child = page.getByRole('switch', { name: '少儿课程' });
    await child.waitFor();
    expect(await child.getAttribute('aria-checked')).toBe('false');
    await child.click();
    await shot(page, 'course-for-children');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await toast(page, '课程信息保存成功');
    expect((await api.ok('query/store/course/by/id', { id: f.courseId })).forChildren).toBe(true);
    await page.locator('.ant-table-row', { hasText: f.courseName }).getByText('少儿').waitFor();

    m = await openReceipt(f.memberName);
    await m.locator('.receipt h2', { hasText: '家长签字' }).waitFor();
    await shot(page, 'receipt-children');
    // Still one 58mm x 110mm page with the signature line.
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'receipt-children.pdf'), pdf);
    const boxes = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/g)];
    expect(boxes.length).toBe(1);
    expect(Number(boxes[0][1]) / MM).toBeCloseTo(58, 0);
    expect(Number(boxes[0][2]) / MM).toBeCloseTo(110, 0);
    await page.emulateMedia({ media: 'print' });
    const sign = page.locator('.receipt-print-root .receipt-sign');
    expect(await sign.isVisible()).toBe(true);
    // The line sits inside the page (the receipt clips at 109.5mm).
    const [box, page0] = [await sign.boundingBox(), await page.locator('.receipt-print-root .receipt').boundingBox()];
    expect(box!.y + box!.height).toBeLessThanOrEqual(page0!.y + page0!.height);
    await page.emulateMedia({ media: null });
  });

  it('the roster (打印名单) prints each booking’s 备注', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '名单');
    const tid = await addSessionTonight(api, f, server.database.db, todayInStore());
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1, remark: '膝盖有旧伤，需要垫子' });
    await page.goto(`${server.url}/today`);
    const card = page.getByTestId(`today-session-${tid}`);
    await card.waitFor();
    await card.getByRole('button', { name: '打印名单' }).click();
    const preview = page.getByTestId('roster-preview');
    await preview.waitFor();
    const headings = await preview.locator('th').allInnerTexts();
    expect(headings).toContain('备注');
    const row = preview.locator('tr', { hasText: f.memberName });
    expect(await row.innerText()).toContain('膝盖有旧伤，需要垫子');
    await shot(page, 'roster-remark');
    // In print only the roster shows, 备注 with it.
    await page.emulateMedia({ media: 'print' });
    const sheet = page.locator('.roster-print-root .roster-sheet');
    expect(await sheet.isVisible()).toBe(true);
    expect(await sheet.locator('th', { hasText: '备注' }).isVisible()).toBe(true);
    expect(await sheet.locator('td', { hasText: '膝盖有旧伤，需要垫子' }).isVisible()).toBe(true);
    const pdf = await page.pdf({ printBackground: true });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'roster.pdf'), pdf);
    await page.emulateMedia({ media: null });
  });
});
