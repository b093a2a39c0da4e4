import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe';
import { randomUUID } from 'node:crypto';
import { expectFocus, newContext, openGuestChat, productSql, productSuite, screenshot, VIEWPORTS } from './support/product';

type Viewport = { width: number; height: number };

/**
 * Search every conversation (issue 25, part 1) in Chromium against the built product: the sidebar's
 * field and the Ctrl/Cmd+K palette, as you type, keyboard only, announced; a result opens its
 * message scrolled to and marked.
 */
describe('conversation search in a browser', () => {
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '1' });

  /** `bypassCSP`: for axe-core, which the page's CSP would refuse to run. */
  async function guestPage(viewport: Viewport = VIEWPORTS.wide, bypassCSP = false) {
    const context = bypassCSP
      ? await suite.browser.newContext({ baseURL: suite.product.url, viewport, bypassCSP: true })
      : await newContext(suite.browser, suite.product.url, viewport);
    const { page, errors } = await openGuestChat(context);
    return { context, page, errors };
  }

  /** Conversations made through the API with the page's own token (faster than typing each). */
  async function seed(page: Page, contents: string[]): Promise<{ chatId: string; messageId: string }[]> {
    return page.evaluate(async (all) => {
      const token = localStorage.getItem('access_token')!;
      const made: { chatId: string; messageId: string }[] = [];
      for (const content of all) {
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const chat = await (await fetch('/api/v1/chats/', { method: 'POST', headers, body: '{}' })).json();
        const stream = await (
          await fetch(`/api/v1/chats/${chat.chat_id}/messages`, { method: 'POST', headers, body: JSON.stringify({ content }) })
        ).text();
        const line = stream.split('\n').find((l) => l.startsWith('data:') && l.includes('"sender":"user"'))!;
        made.push({ chatId: chat.chat_id, messageId: JSON.parse(line.slice(5)).message_id });
      }
      return made;
    }, contents);
  }

  const LONG = `${'Some words before the point. '.repeat(30)}Our axolotl is called Pancake and likes bloodworms. ${'More words after it. '.repeat(30)}`;

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`finds a conversation from the sidebar's field and opens the message, marked (${name})`, async () => {
      const { context, page, errors } = await guestPage(viewport);
      const [target] = await seed(page, [LONG, 'Plan a weekend in Lisbon', 'Crème brûlée recipe please']);
      await page.reload();
      if (name === 'narrow') await page.getByRole('button', { name: 'Show sidebar' }).click();
      const field = page.getByRole('combobox', { name: 'Search conversations' });
      await field.click();
      await field.pressSequentially('axol', { delay: 30 });
      const results = page.getByRole('listbox', { name: 'Search results' });
      await results.getByRole('option').first().waitFor();
      expect(await results.getByRole('option').count()).toBe(1);
      expect(await results.locator('mark').first().textContent()).toBe('axolotl');
      await expectFocus(page, (el) => el?.getAttribute('role'), 'combobox');
      await page.getByRole('status').filter({ hasText: '1 result' }).waitFor({ state: 'attached' });
      await screenshot(page, `search-sidebar-${name}`);
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/chat/${target.chatId}#message-${target.messageId}`);
      const marked = page.locator(`#message-${target.messageId}`);
      await marked.waitFor();
      await expectFocus(page, (el) => el?.id, `message-${target.messageId}`);
      const box = await marked.evaluate((el) => ({
        top: el.getBoundingClientRect().top,
        bottom: el.getBoundingClientRect().bottom,
        height: window.innerHeight,
      }));
      expect(box.top < box.height && box.bottom > 0).toBe(true);
      expect(await marked.getAttribute('class')).toMatch(/highlight|linked|marked/);
      // The words typed are marked inside the message, as in the snippet; nothing else is.
      await marked.locator('mark.search-mark').first().waitFor();
      expect(await marked.locator('mark.search-mark').allTextContents()).toEqual(['axolotl']);
      expect(await page.locator('mark.search-mark').count()).toBe(1);
      await screenshot(page, `search-opened-${name}`);
      // Accents and case do not matter.
      if (name === 'narrow') await page.getByRole('button', { name: 'Show sidebar' }).click();
      await field.fill('creme BRULEE');
      await results.getByRole('option').first().waitFor();
      expect(await results.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['Crème', 'brûlée']));
      // Escape clears the field and the conversation list is back.
      await field.press('Escape');
      expect(await field.inputValue()).toBe('');
      await page
        .getByRole('link', { name: /Lisbon/ })
        .first()
        .waitFor();
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('opens a message far up a long conversation, which only the messages near the view render', async () => {
    const { context, page, errors } = await guestPage();
    const chatId = await page.evaluate(async () => {
      const headers = { authorization: `Bearer ${localStorage.getItem('access_token')!}`, 'content-type': 'application/json' };
      return (await (await fetch('/api/v1/chats/', { method: 'POST', headers, body: '{}' })).json()).chat_id as string;
    });
    // 160 messages written as the chat service stores them; the third is the one searched for.
    const [{ user_id: userId }] = (await productSql(suite.product, 'SELECT user_id FROM chat.conversation WHERE id = $1', [chatId])) as {
      user_id: string;
    }[];
    const ids = Array.from({ length: 160 }, () => randomUUID());
    const rows = ids.map((id, i) => {
      const user = i % 2 === 0;
      const content =
        i === 2 ? 'Our wombat is called Biscuit.' : user ? `Question ${i}` : `Answer ${i}\n\n${'A line of the answer. '.repeat(20)}`;
      return {
        id,
        sender: user ? 'user' : 'assistant',
        author: user ? userId : null,
        content,
        previous: ids[i - 1] ?? null,
        minutes: 160 - i,
      };
    });
    await productSql(
      suite.product,
      `INSERT INTO chat.message (id, chat_id, user_id, sender, author_user_id, content, previous_message_id, created_at)
       SELECT r.id, $1, $2, r.sender, r.author, r.content, r.previous, now() - make_interval(mins => r.minutes)
       FROM jsonb_to_recordset($3::jsonb) AS r(id uuid, sender text, author uuid, content text, previous uuid, minutes int)`,
      [chatId, userId, JSON.stringify(rows)],
    );
    await productSql(
      suite.product,
      "UPDATE chat.conversation SET title = 'Pets', last_active_message_id = $2, last_message_at = now() WHERE id = $1",
      [chatId, ids[159]],
    );
    // Opened, it shows its end; the start is not rendered.
    await page.goto(`/chat/${chatId}`);
    await page.getByText('Answer 159').waitFor();
    expect(await page.locator('.message').count()).toBeLessThan(40);
    expect(await page.locator(`#message-${ids[2]}`).count()).toBe(0);
    const field = page.getByRole('combobox', { name: 'Search conversations' });
    await field.click();
    await field.pressSequentially('wombat', { delay: 30 });
    await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**#message-${ids[2]}`);
    const marked = page.locator(`#message-${ids[2]}`);
    await marked.waitFor();
    await expectFocus(page, (el) => el?.id, `message-${ids[2]}`);
    const box = await marked.evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));
    expect(box.top < (await page.evaluate(() => window.innerHeight)) && box.bottom > 0).toBe(true);
    expect(await marked.getAttribute('class')).toMatch(/highlight/);
    await screenshot(page, 'search-opened-long-conversation-wide');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches from the Ctrl+K palette with the keyboard alone, cancels outdated searches, and says what it found', async () => {
    const { context, page, errors } = await guestPage(VIEWPORTS.wide, true);
    const made = await seed(page, ['Tell me about quokkas on Rottnest', 'Quokka photos tips', 'Something unrelated']);
    await page.reload();
    await page.getByLabel('Message', { exact: true }).click();
    // Slow answers, to see typing cancel the searches it outdates.
    const aborted: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().includes('/api/v1/chats/search')) aborted.push(new URL(request.url()).searchParams.get('q')!);
    });
    await page.route('**/api/v1/chats/search**', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.continue().catch(() => undefined);
    });
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search conversations' });
    await dialog.waitFor();
    await expectFocus(page, (el) => el?.getAttribute('role'), 'combobox');
    // Before typing: New chat and the recent conversations.
    expect(await dialog.getByRole('option').first().textContent()).toContain('New chat');
    await screenshot(page, 'search-palette-idle-wide');
    await page.keyboard.type('quo', { delay: 20 });
    await page.waitForTimeout(300); // let one search start (debounce is 200 ms), then make it outdated
    await page.keyboard.type('kka', { delay: 20 });
    await dialog.getByRole('status').filter({ hasText: '2 results' }).waitFor({ state: 'attached', timeout: 10_000 });
    expect(aborted).toContain('quo');
    await screenshot(page, 'search-palette-results-wide');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('ArrowDown');
    const active = await dialog.getByRole('combobox').getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    const opened = made.find((m) => page.url().includes(m.chatId))!;
    expect(opened).toBeDefined();
    await page.waitForURL(`**#message-${opened.messageId}`);
    // Escape closes it; Ctrl+K again too.
    await page.keyboard.press('Control+k');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.keyboard.press('Control+k');
    await dialog.waitFor();
    await page.keyboard.press('Control+k');
    await dialog.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the palette at phone width, and finds nothing of another user', async () => {
    const { context, page } = await guestPage(VIEWPORTS.narrow);
    await seed(page, ['My secret is zanzibarwombat']);
    const other = await guestPage(VIEWPORTS.narrow);
    await other.page.keyboard.press('Control+k');
    await other.page.getByRole('combobox', { name: 'Search conversations' }).fill('zanzibarwombat');
    await other.page.getByText('No conversation matches “zanzibarwombat”.', { exact: false }).first().waitFor();
    await screenshot(other.page, 'search-palette-none-narrow');
    await page.reload();
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await page.keyboard.press('Control+k');
    await page.getByRole('combobox', { name: 'Search conversations' }).fill('zanzibar');
    await page.getByRole('option').filter({ hasText: 'zanzibarwombat' }).first().waitFor();
    await screenshot(page, 'search-palette-results-narrow');
    await other.context.close();
    await context.close();
  });
});
