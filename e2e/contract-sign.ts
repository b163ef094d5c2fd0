// The member's signing steps before paying for a card (issue 45): the tick, 获取验证码, and the code
// the SMS stand-in received for them, typed in. Shared by the browser tests that buy online.
import type { Page } from 'playwright-core';
import type { startSmsStandIn } from '../apps/server/test/sms-stand-in.ts';

export type SmsStandIn = Awaited<ReturnType<typeof startSmsStandIn>>;

/** The code the stand-in received for `mobile` after `before` texts (waits for it, up to 20 s). */
export async function textedCode(sms: SmsStandIn, mobile: string, before: number): Promise<string> {
  for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const t = sms.received.slice(before).find((r) => r.mobile === `+86${mobile}`);
    if (t) return t.code;
  }
  throw new Error(`no text to ${mobile}`);
}

/** Ticks 我已阅读并同意, asks for the code, types what the SMS stand-in received; answers the code. */
export async function tickAndCode(page: Page, sms: SmsStandIn, mobile: string): Promise<string> {
  await page.getByTestId('contract-agree').tap();
  const before = sms.received.length;
  await page.getByRole('button', { name: '获取验证码' }).tap();
  const code = await textedCode(sms, mobile, before);
  await page.getByTestId('contract-code').locator('input').fill(code);
  return code;
}
