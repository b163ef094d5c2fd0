import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ARTIFACTS, describeBrowser, shot } from './harness.ts';
import { modal } from './ui.ts';

describeBrowser('timetable picture', (env) => {
  it('downloads 周课表图.png after 3 s, of sane size and not blank', async () => {
    const { page, server } = env();
    await page.goto(`${server.url}/course/calendar`);
    await page.getByRole('button', { name: '生成周课表图片' }).click();
    const m = modal(page, '生成周课表图片');
    const picture = m.getByTestId('timetable-picture');
    await picture.waitFor();
    await picture.getByText('团课课程表').waitFor();
    expect(await picture.locator('tbody tr').allInnerTexts()).toHaveLength(3);
    await m.getByText('暗夜黑').click();
    await m.locator('.ant-input-group-wrapper input, .ant-input-wrapper input').first().fill('本周团课');
    await picture.getByText('本周团课').waitFor();
    await m.getByText('下周', { exact: true }).click();
    await shot(page, 'modal-picture');

    // sending to the store's WeCom group needs a robot webhook: the server says so
    await m.getByRole('button', { name: '发送到企业微信群' }).click();
    await page.locator('.ant-message-notice', { hasText: 'webhookUrl' }).waitFor();

    const started = Date.now();
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      m.getByRole('button', { name: '生成并下载图片' }).click(),
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
    expect(download.suggestedFilename()).toBe('周课表图.png');
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, '周课表图.png');
    await download.saveAs(file);
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBeGreaterThan(20_000);
    expect(bytes.length).toBeLessThan(15_000_000);

    // decode it in the page and measure how much the pixels vary
    const stats = await page.evaluate(async (b64) => {
      const bmp = new Image();
      bmp.src = `data:image/png;base64,${b64}`;
      await bmp.decode();
      const canvas = new OffscreenCanvas(bmp.width, bmp.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bmp, 0, 0);
      const data = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
      let sum = 0;
      let sq = 0;
      let n = 0;
      for (let i = 0; i < data.length; i += 16) {
        const v = (data[i] + data[i + 1] + data[i + 2]) / 3;
        sum += v;
        sq += v * v;
        n += 1;
      }
      const mean = sum / n;
      return { width: bmp.width, height: bmp.height, variance: sq / n - mean * mean };
    }, bytes.toString('base64'));
    expect(stats.width).toBeGreaterThanOrEqual(1000);
    expect(stats.height).toBeGreaterThan(300);
    expect(stats.variance).toBeGreaterThan(100);
  });
});
