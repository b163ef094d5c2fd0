import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, loginWithCookie, newContext, shot } from './harness.ts';
import { addDays, addSession, makeFixture, mondayOf } from './seed.ts';
import { modal } from './ui.ts';

const MM = 72 / 25.4;

/** The demo store's wall clock (Asia/Shanghai), `YYYY-MM-DD HH:mm`. */
const storeMinute = () => new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' }).slice(0, 16);

describeBrowser('receipt', (env) => {
  it('prints a 58mm x 110mm page with course, member and card (no parent signature: not a 少儿 course)', async () => {
    const { page, api, server } = env();
    const f = await makeFixture(api, '票');
    const tid = await addSession(api, f, addDays(mondayOf(1), 6), '21:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1 });
    await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
    const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
    await drawer.getByTestId('booked-table').getByRole('button', { name: '打印小票' }).click();
    const m = modal(page, '打印小票');
    for (const h of ['课程', '会员', '会员卡']) await m.locator('.receipt h2', { hasText: h }).first().waitFor();
    // 家长签字 is for 少儿 courses only (e2e/printouts.test.ts).
    expect(await m.locator('.receipt h2', { hasText: '家长签字' }).count()).toBe(0);
    await m.locator('.receipt h1', { hasText: '悦动健身工作室' }).waitFor();
    await shot(page, 'modal-receipt');

    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'receipt.pdf'), pdf);
    const text = pdf.toString('latin1');
    // in print, only the receipt is shown (checked after the PDF: with print media emulated
    // before page.pdf, Chromium produced a second, empty page)
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.ant-layout').first().isVisible()).toBe(false);
    expect(await page.locator('.receipt-print-root .receipt').isVisible()).toBe(true);
    await page.emulateMedia({ media: 'screen' });
    const boxes = [...text.matchAll(/\/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]/g)];
    expect(boxes.length).toBe(1);
    expect(Number(boxes[0][1]) / MM).toBeCloseTo(58, 0);
    expect(Number(boxes[0][2]) / MM).toBeCloseTo(110, 0);
  });

  it("prints the store's time, not the browser's, on a browser set to UTC", async () => {
    const { browser, api, server } = env();
    const f = await makeFixture(api, '时');
    const tid = await addSession(api, f, addDays(mondayOf(1), 5), '20:00');
    await api.ok('add/member/reservation', { mcId: f.mcId, tid, studentCount: 1 });
    // A desk PC whose clock is set to UTC: eight hours behind the store (Asia/Shanghai).
    const context = await newContext(browser, { timezoneId: 'UTC' });
    try {
      await loginWithCookie(context, api);
      const page = await context.newPage();
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
      await page.goto(`${server.url}/course/calendar/detail?course_calendar_id=${tid}`);
      const drawer = page.locator('.ant-drawer', { hasText: '课程详情' });
      const before = storeMinute();
      await drawer.getByTestId('booked-table').getByRole('button', { name: '打印小票' }).click();
      const printed = modal(page, '打印小票').getByTestId('receipt-printed-at').first();
      await printed.waitFor();
      const text = (await printed.innerText()).replace('打印时间', '').trim();
      const after = storeMinute();
      expect([before, after]).toContain(text);
      await shot(page, 'receipt-utc-browser');
    } finally {
      await context.close();
    }
  });
});
