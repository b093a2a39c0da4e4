import { newContext, openGuestChat, productSuite, screenshot, VIEWPORTS } from './support/product';
import { until } from '../support/until';

/** Temporary chats (issue 25, part 4) in Chromium: marked while open, never in the sidebar, deleted when left. */
describe('temporary chats in a browser', () => {
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '1' });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`starts a temporary chat, marks it, keeps it out of the sidebar and deletes it when left (${name})`, async () => {
      const context = await newContext(suite.browser, suite.product.url, viewport);
      const { page, errors } = await openGuestChat(context);
      const toggle = page.getByRole('button', { name: 'Temporary chat' });
      await toggle.click();
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      await page.getByRole('note').filter({ hasText: 'Temporary chat.' }).waitFor();
      await page.getByLabel('Message', { exact: true }).fill('A secret about quokkafruit');
      await page.getByLabel('Message', { exact: true }).press('Enter');
      await page.waitForURL('**/chat/*');
      const chatId = page.url().split('/chat/')[1];
      await page.locator('.message--assistant').first().waitFor();
      await page.getByRole('heading', { name: 'Temporary chat', level: 1 }).waitFor();
      await page.getByRole('note').filter({ hasText: 'Temporary chat.' }).waitFor();
      // Not shareable: no share button, and the conversation's menu offers no sharing either.
      await page.getByRole('button', { name: 'Conversation options' }).click();
      await page.locator('.menu__popup:not([hidden])').waitFor();
      expect(await page.getByRole('button', { name: /share conversation/i }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await screenshot(page, `temporary-chat-${name}`);
      // Not in the sidebar.
      if (name === 'narrow') await page.getByRole('button', { name: 'Show sidebar' }).click();
      expect(await page.locator('#sidebar').getByText('A secret about quokkafruit').count()).toBe(0);
      expect(await page.locator(`#sidebar a[href="/chat/${chatId}"]`).count()).toBe(0);
      // Leaving it (a new chat) deletes it.
      const token = await page.evaluate(() => localStorage.getItem('access_token')!);
      const deleted = page.waitForRequest((r) => r.method() === 'DELETE' && r.url().endsWith(`/api/v1/chats/${chatId}`));
      await page.getByRole('button', { name: 'New chat' }).click();
      await deleted;
      const gone = async () =>
        (await fetch(`${suite.product.url}/api/v1/chats/${chatId}`, { headers: { authorization: `Bearer ${token}` } })).status;
      await until('the temporary chat deleted', async () => (await gone()) === 404, 30_000, 100);
      // The toggle is off again for the next chat.
      expect(await page.getByRole('button', { name: 'Temporary chat' }).getAttribute('aria-pressed')).toBe('false');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
