import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe';
import { randomUUID } from 'node:crypto';
import { eventually } from '../support/api-client';
import {
  expectFocus,
  newContext,
  openGuestChat,
  productSuite,
  screenshot,
  seedConversation,
  VIEWPORTS,
  type StoredMessage,
} from './support/product';

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

  it('opens a long conversation at its end with its newest page, reads older pages as it scrolls up, and follows links deep into it or onto another branch', async () => {
    const { context, page, errors } = await guestPage();
    // 160 messages written as the chat service stores them; the third is the one searched for. Two
    // other branches: message 10 asked otherwise (a platypus), and message 158 asked again, answered.
    const ids = Array.from({ length: 160 }, () => randomUUID());
    const [platypus, again, againAnswer] = [randomUUID(), randomUUID(), randomUUID()];
    const row = (id: string, i: number, content: string, previous: string | null, minutes: number): StoredMessage => ({
      id,
      sender: i % 2 === 0 ? 'user' : 'assistant',
      content,
      previous,
      minutes,
    });
    const rows = [
      ...ids.map((id, i) =>
        row(
          id,
          i,
          i === 2
            ? 'Our wombat is called Biscuit.'
            : i % 2 === 0
              ? `Question ${i}`
              : `Answer ${i}\n\n${'A line of the answer. '.repeat(20)}`,
          ids[i - 1] ?? null,
          (160 - i) * 10,
        ),
      ),
      row(platypus, 10, 'Our platypus is called Noodle.', ids[9], 1495),
      row(again, 158, 'Question 158, asked again', ids[157], 15),
      row(againAnswer, 159, 'The answer to the question asked again.', again, 12),
    ];
    const chatId = await seedConversation(suite.product, page, 'Pets', rows, ids[159]);
    const reads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname === `/api/v1/chats/${chatId}/messages`) reads.push(url.search);
    });
    // Opened, it shows its end, read in one page; the start is neither read nor rendered.
    await page.goto(`/chat/${chatId}`);
    await page.getByText('Answer 159').waitFor();
    expect(await page.locator('.message').count()).toBeLessThan(40);
    expect(await page.locator(`#message-${ids[2]}`).count()).toBe(0);
    expect(reads).toEqual(['?limit=50']);

    /** Searches from the sidebar and opens the first result: the message is shown, focused and marked. */
    async function openFound(words: string, messageId: string) {
      const field = page.getByRole('combobox', { name: 'Search conversations' });
      await field.click();
      await field.fill('');
      await field.pressSequentially(words, { delay: 30 });
      // The results of these words (not those of the words before), the first opened.
      await page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().filter({ hasText: words }).waitFor();
      await page.keyboard.press('Enter');
      await page.waitForURL(`**#message-${messageId}`);
      const marked = page.locator(`#message-${messageId}`);
      await marked.waitFor();
      await expectFocus(page, (el) => el?.id, `message-${messageId}`);
      const box = await marked.evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));
      expect(box.top < (await page.evaluate(() => window.innerHeight)) && box.bottom > 0).toBe(true);
      expect(await marked.getAttribute('class')).toMatch(/highlight/);
    }

    // Deep in the active branch: the pages before the newest are read until it is there.
    await openFound('wombat', ids[2]);
    expect(reads.filter((query) => query.includes('before='))).toHaveLength(3);
    await screenshot(page, 'search-opened-long-conversation-wide');

    // On another branch, whose messages were not read: its end is asked for, switched to, and read.
    await openFound('platypus', platypus);
    expect(reads).toContain(`?through=${platypus}&limit=1`);
    expect(await page.getByText('Answer 159').count()).toBe(0);
    const versions = page.locator(`#message-${platypus}`).getByRole('group', { name: 'Versions' });
    await versions.filter({ hasText: '2 / 2' }).waitFor();

    // Its switcher goes back to the other version, down to where that branch ends now (asked again).
    await versions.getByRole('button', { name: 'Previous version' }).click();
    await page.getByText('The answer to the question asked again.').waitFor();
    await page.locator(`#message-${again}`).getByRole('group', { name: 'Versions' }).filter({ hasText: '2 / 2' }).waitFor();

    // Opened again and scrolled up: each older page is put above without moving what is in view.
    await page.goto(`/chat/${chatId}`);
    await page.getByText('The answer to the question asked again.').waitFor();
    const scroller = page.locator('.chat__scroll');
    // The branch's 160 messages: the newest 50 read on opening, then 50, 50 and 10.
    for (let older = 0; older < 3; older++) {
      const before = reads.length;
      await scroller.evaluate((el) => (el.scrollTop = 0));
      await eventually(async () => reads.length > before || undefined);
      // The page before the oldest message read, which was at the top of the view.
      const top = `message-${new URLSearchParams(reads.at(-1)).get('before')}`;
      await page.waitForFunction((first) => document.querySelector('.message')?.id !== first, top, { polling: 'raf' });
      // The message that was at the top is still in view: the view did not jump to the page read.
      const inView = await page.evaluate((id) => {
        const box = document.getElementById(id)?.getBoundingClientRect();
        const view = document.querySelector('.chat__scroll')!.getBoundingClientRect();
        return !!box && box.bottom > view.top && box.top < view.bottom;
      }, top);
      expect(inView).toBe(true);
    }
    await scroller.evaluate((el) => (el.scrollTop = 0));
    await page.getByText('Question 0', { exact: true }).waitFor();
    expect(reads.filter((query) => query.includes('before='))).toHaveLength(6);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('regenerates the oldest reply read at once, before the page with its question is read, and shows the count of versions the server has', async () => {
    const { context, page, errors } = await guestPage();
    // q0 → r0 → q1 (its reply failed) → q2 → r2 → … → q25 → r25: the newest page (50) begins with
    // the reply r0, whose question q0 is on the page before. r0 has an older version, never read.
    const names = ['q0', 'r0', 'q1', ...Array.from({ length: 24 }, (_, k) => [`q${k + 2}`, `r${k + 2}`]).flat()];
    const id = Object.fromEntries([...names, 'r0old'].map((name) => [name, randomUUID()]));
    const row = (name: string, previous: string | null, minutes: number): StoredMessage => ({
      id: id[name],
      sender: name.startsWith('q') ? 'user' : 'assistant',
      content: name.startsWith('q') ? `Question ${name.slice(1)}` : `Answer ${name.slice(1)}`,
      previous: previous && id[previous],
      minutes,
    });
    const rows = [
      ...names.map((name, i) => row(name, names[i - 1] ?? null, (names.length - i) * 10)),
      row('r0old', 'q0', names.length * 10 + 5),
    ];
    const chatId = await seedConversation(suite.product, page, 'Questions', rows, id.r25);
    // The page before the newest is held until the end: the regenerate must not wait for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const olderAsked: string[] = [];
    await page.route(
      (url) => url.pathname === `/api/v1/chats/${chatId}/messages` && url.searchParams.has('before'),
      async (route) => {
        olderAsked.push(route.request().url());
        await held;
        await route.continue().catch(() => undefined);
      },
    );
    await page.goto(`/chat/${chatId}`);
    await page.getByText('Answer 25', { exact: true }).waitFor();
    await page.locator('.chat__scroll').evaluate((el) => (el.scrollTop = 0));
    const oldest = page.locator(`#message-${id.r0}`);
    await oldest.waitFor();
    await eventually(async () => olderAsked.length > 0 || undefined);
    await oldest.getByRole('button', { name: 'Regenerate reply' }).click();
    // The new reply, stored; its switcher counts the version never read: the third.
    const versions = page.locator('.message--assistant .branches').filter({ hasText: '3 / 3' });
    await versions.waitFor({ timeout: 30_000 });
    expect(await page.locator('.message--draft').count()).toBe(0);
    expect(await page.getByText('Answer 25', { exact: true }).count()).toBe(0);
    // Its question is there too, once the branch is read again from its new end.
    await page.getByText('Question 0', { exact: true }).waitFor();
    release();
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
