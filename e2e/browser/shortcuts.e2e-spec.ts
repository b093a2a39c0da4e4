import type { Page } from 'playwright-core';
import { expectFocus, newContext, openGuestChat, productSuite, screenshot, VIEWPORTS } from './support/product';

/**
 * The keyboard shortcuts of issue 25 (part 2), each pressed in Chromium against the built product,
 * and the rule they all keep: nothing fires while a dialog is open or another field has the focus.
 */
describe('keyboard shortcuts in a browser', () => {
  // The offline model writes a word every 40 ms: long enough to stop a reply mid-way.
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '40' });

  async function chatPage(viewport: { width: number; height: number } = VIEWPORTS.wide) {
    const context = await newContext(suite.browser, suite.product.url, viewport);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.product.url });
    const { page, errors } = await openGuestChat(context);
    return { context, page, errors };
  }

  async function say(page: Page, text: string) {
    await page.getByLabel('Message', { exact: true }).fill(text);
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page.getByRole('button', { name: 'Stop generating' }).waitFor();
    await page.getByRole('button', { name: 'Send message' }).waitFor({ timeout: 30_000 });
  }

  const composerFocused = (page: Page) => expectFocus(page, (el) => el?.id, 'composer-input');
  const sidebarShown = (page: Page) => page.locator('#sidebar').evaluate((el) => !(el as HTMLElement).hidden);

  it('Ctrl+Shift+O starts a new chat with the message box focused; Shift+Esc focuses the message box', async () => {
    const { context, page, errors } = await chatPage();
    await say(page, 'Hello there');
    await page.waitForURL('**/chat/*');
    await page.locator('.message--assistant').last().click();
    await page.keyboard.press('Control+Shift+O');
    await page.waitForURL((url) => url.pathname === '/chat');
    await composerFocused(page);
    await page.getByRole('heading', { name: 'How can I help?' }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('composer-input');
    await page.keyboard.press('Shift+Escape');
    await composerFocused(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('Ctrl+Shift+C copies the last reply', async () => {
    const { context, page } = await chatPage();
    await say(page, 'First question');
    await say(page, 'Second question');
    const last = (await page.locator('.message--assistant .markdown').last().innerText()).trim();
    await page.keyboard.press('Control+Shift+C');
    // The copy is written asynchronously: wait for it to land.
    await page.waitForFunction(async () => (await navigator.clipboard.readText()).length > 0, null, { timeout: 10_000 });
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.trim()).toContain(last.slice(0, 40));
    expect(copied).toContain('Second question');
    await context.close();
  });

  it('ArrowUp in the empty message box edits the last message', async () => {
    const { context, page } = await chatPage();
    await say(page, 'Edit me later');
    await page.getByLabel('Message', { exact: true }).focus();
    await page.keyboard.press('ArrowUp');
    const edit = page.getByLabel('Edit your message');
    await edit.waitFor();
    expect(await edit.inputValue()).toBe('Edit me later');
    await expectFocus(page, (el) => el?.getAttribute('id')?.startsWith('edit-'), true);
    // Not when the box holds text: the arrow moves the caret.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Message', { exact: true }).fill('draft');
    await page.keyboard.press('ArrowUp');
    expect(await page.getByLabel('Edit your message').count()).toBe(0);
    await context.close();
  });

  it('Esc stops the reply being written', async () => {
    const { context, page } = await chatPage();
    await page.getByLabel('Message', { exact: true }).fill('Tell me a long story');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page.getByRole('button', { name: 'Stop generating' }).waitFor();
    // Once the reply has begun (the message is stored: stopping asks the server, as the button does).
    await page.locator('.message--draft').filter({ hasText: 'You asked' }).waitFor();
    const stopped = page.waitForRequest((request) => request.url().includes('/stop') && request.method() === 'POST');
    await page.keyboard.press('Escape');
    await stopped;
    await page.getByRole('button', { name: 'Send message' }).waitFor();
    await page
      .getByText(/cut short/i)
      .first()
      .waitFor();
    await context.close();
  });

  it('Ctrl+Shift+S hides and shows the sidebar; Ctrl+/ opens the help sheet', async () => {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const { context, page } = await chatPage(viewport);
      const before = await sidebarShown(page);
      await page.keyboard.press('Control+Shift+S');
      await page.waitForFunction((shown) => !document.getElementById('sidebar')!.hidden !== shown, before);
      await page.keyboard.press('Control+Shift+S');
      await page.waitForFunction((shown) => !document.getElementById('sidebar')!.hidden === shown, before);
      await page.keyboard.press('Control+/');
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await help.waitFor();
      for (const label of ['New chat', 'Copy the last reply', 'Show or hide the sidebar', 'Search conversations']) {
        await help.getByRole('rowheader', { name: label }).waitFor();
      }
      await screenshot(page, `shortcuts-help-${name}`);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'hidden' });
      await context.close();
    }
  });

  it('fires nothing while a dialog is open or another field has the focus', async () => {
    const { context, page } = await chatPage();
    await say(page, 'Stay here');
    await page.waitForURL('**/chat/*');
    const here = page.url();
    // A dialog open: the sidebar stays, no new chat.
    await page.keyboard.press('Control+/');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    const shown = await sidebarShown(page);
    await page.keyboard.press('Control+Shift+S');
    await page.keyboard.press('Control+Shift+O');
    expect(await sidebarShown(page)).toBe(shown);
    expect(page.url()).toBe(here);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'hidden' });
    // Another field focused (the sidebar's search): no new chat, no sidebar toggle, the focus stays.
    const search = page.getByRole('combobox', { name: 'Search conversations' });
    await search.focus();
    await page.keyboard.press('Control+Shift+O');
    await page.keyboard.press('Control+Shift+S');
    await page.keyboard.press('Shift+Escape');
    await page.keyboard.press('Control+/');
    expect(page.url()).toBe(here);
    expect(await sidebarShown(page)).toBe(shown);
    await expectFocus(page, (el) => el?.getAttribute('role'), 'combobox');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
    await context.close();
  });
});
