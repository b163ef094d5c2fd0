import type { Locator, Page } from 'playwright-core';

/** The open antd modal with this title. */
export function modal(page: Page, title: string): Locator {
  return page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
}

/** A form item of a container by its label text. */
export function field(container: Locator, label: string): Locator {
  return container.locator('.ant-form-item').filter({ has: container.page().locator('label', { hasText: label }) });
}

/**
 * Opens the antd Select `select` (its root element) once it is enabled, types `search` and picks
 * the option containing `option` from that select's own dropdown (found by the list id the select
 * names, not by page order: another dropdown may still be closing), then waits for the choice to show.
 */
export async function pickIn(page: Page, select: Locator, option: string, search?: string): Promise<void> {
  await select.and(page.locator('.ant-select:not(.ant-select-disabled)')).waitFor();
  await select.click();
  if (search !== undefined) await page.keyboard.type(search);
  const id = await select.locator('input').first().getAttribute('id');
  const dropdown = page.locator('.ant-select-dropdown', { has: page.locator(`[id="${id}_list"]`) });
  const item = dropdown.locator('.ant-select-item-option:not(.ant-select-item-option-disabled)', { hasText: option });
  await item.first().waitFor();
  // The option list re-renders while its data settles (the select's loading state, a refetch of the
  // same query by another row): a pointer click whose mousedown and mouseup land on two renderings
  // of the option selects nothing. The click is sent to the option as it is at that instant.
  await item.first().dispatchEvent('click');
  await select.locator('.ant-select-content', { hasText: option }).waitFor();
}

/** Picks `option` in the first antd Select inside `item` (a form item); see `pickIn`. */
export async function pick(page: Page, item: Locator, option: string, search?: string): Promise<void> {
  await pickIn(page, item.locator('.ant-select').first(), option, search);
}

/** Picks a tree-select node by its title. */
export async function pickTree(page: Page, item: Locator, title: string): Promise<void> {
  await item.locator('.ant-select').first().click();
  await page.keyboard.type(title);
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  await dropdown.locator('.ant-select-tree-title', { hasText: title }).first().click();
  // The choice closes the dropdown; should it stay open (a slow re-render), blur the select so it
  // cannot cover the buttons clicked next.
  const open = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  try {
    await open.first().waitFor({ state: 'hidden', timeout: 2000 });
  } catch {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await open.first().waitFor({ state: 'hidden' });
  }
}

/** Types a value into an antd date or time picker input and confirms it. */
export async function typeInto(page: Page, input: Locator, value: string): Promise<void> {
  await input.click();
  await input.fill(value);
  await page.keyboard.press('Enter');
  await closePickers(page);
}

/** Leaves any picker popup that is still open (blur commits a typed value). */
async function closePickers(page: Page): Promise<void> {
  const open = page.locator('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
  if (await open.count()) {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await open
      .first()
      .waitFor({ state: 'hidden', timeout: 3000 })
      .catch(() => undefined);
  }
}

/** Fills both ends of a RangePicker. */
export async function typeRange(page: Page, picker: Locator, from: string, to: string): Promise<void> {
  const inputs = picker.locator('input');
  await inputs.nth(0).click();
  await inputs.nth(0).fill(from);
  await page.keyboard.press('Enter');
  await inputs.nth(1).fill(to);
  await page.keyboard.press('Enter');
  await closePickers(page);
}

/** Waits for an antd message (toast) with this text. */
export async function toast(page: Page, text: string): Promise<void> {
  // A toast counts once: the one seen here is marked, so the next check of the same words waits
  // for a new toast rather than matching this one while it is still on screen (3 s).
  await page.locator('.ant-message-notice:not([data-seen])', { hasText: text }).first().waitFor();
  await page.evaluate((t) => {
    for (const n of Array.from(document.querySelectorAll('.ant-message-notice'))) {
      if (n.textContent?.includes(t)) n.setAttribute('data-seen', '1');
    }
  }, text);
}

/**
 * The preview a bulk change shows before it runs (the server's dry run): waits for it, answers its
 * lines, and confirms with `okText` (antd spaces two-character button labels).
 */
export async function confirmBulk(page: Page, okText: string): Promise<string> {
  const c = page.locator('.ant-modal-confirm', { has: page.getByTestId('bulk-preview') });
  await c.waitFor();
  const text = await c.getByTestId('bulk-preview').innerText();
  await c.getByRole('button', { name: new RegExp(`^${okText.split('').join('\\s*')}$`) }).click();
  await c.waitFor({ state: 'detached' });
  return text;
}
