import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '../support/api-client';
import {
  chatApiAvailable,
  launchBrowser,
  newContext,
  onboard as onboardToConfirmation,
  screenshot,
  seedConversation,
  smsCodeFor,
  startProduct,
  VIEWPORTS,
  type Product,
  type StoredMessage,
} from './support/product';

/**
 * The web portal in Debian's Chromium against the product started the README's way (the built
 * embedded host): guests, guards, the theme, phone sign-in and onboarding, settings, viewports,
 * and the chat itself.
 */
describe('the web portal in a browser', () => {
  let product: Product;
  let browser: Browser;
  let chatReady = false;
  let phoneSeq = 0;
  const nextPhone = () => `+1415555${String(2000 + phoneSeq++).padStart(4, '0')}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    product = await startProduct({ OFFLINE_TOKEN_DELAY_MS: '15', PHONE_CODES_PER_IP: '1000' });
    chatReady = await chatApiAvailable(product.url);
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  async function open(path: string, viewport: { width: number; height: number } = VIEWPORTS.wide, init?: (page: Page) => Promise<void>) {
    const context = await newContext(browser, product.url, viewport);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await init?.(page);
    await page.goto(path);
    return { context, page, errors };
  }

  /** A guest who has seen the welcome dialog already. */
  async function guestPage(path = '/chat', viewport: { width: number; height: number } = VIEWPORTS.wide) {
    return open(path, viewport, async (page) => {
      await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    });
  }

  /** Phone sign-in through the real form and the development SMS inbox; answers the page after /login-success. */
  async function signInWithPhone(page: Page, phone = nextPhone()): Promise<string> {
    await page.goto('/login');
    await page.getByLabel('Mobile number').fill(phone);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await page.getByLabel('Code').waitFor();
    await page.getByRole('link', { name: 'SMS inbox' }).waitFor();
    await page.getByLabel('Code').fill(await smsCodeFor(product.url, phone));
    await page.getByRole('button', { name: 'Sign in' }).click();
    return phone;
  }

  /** A reply has been stored: the streaming draft is gone and the composer can send again. */
  async function replyDone(page: Page) {
    await page.locator('.message--draft').waitFor({ state: 'detached', timeout: 30_000 });
    await page.getByRole('button', { name: 'Send message' }).waitFor();
  }

  async function onboard(page: Page, name = 'Ada Lovelace') {
    await onboardToConfirmation(page, name);
    await page.getByRole('heading', { name: 'Nothing to confirm yet' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/chat');
  }

  it('lands a first-time visitor on /chat as a guest, with the welcome dialog once', async () => {
    const { context, page, errors } = await open('/');
    await page.waitForURL('**/chat');
    const dialog = page.getByRole('dialog', { name: 'Welcome to Assistant' });
    await dialog.waitFor();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toMatch(/^ey/);
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    await screenshot(page, 'guest-welcome-wide-dark');
    await dialog.getByRole('button', { name: 'Continue as a guest' }).click();
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await screenshot(page, 'guest-chat-wide-dark');
    await page.reload();
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Welcome to Assistant' }).isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('keeps the theme across a reload, light and dark', async () => {
    const { context, page } = await guestPage();
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    expect(await page.evaluate(() => [localStorage.getItem('isDarkMode'), document.documentElement.hasAttribute('data-theme')])).toEqual([
      'false',
      false,
    ]);
    await page.reload();
    await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-theme'))).toBe(false);
    await screenshot(page, 'guest-chat-wide-light');
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.reload();
    expect(await page.evaluate(() => [localStorage.getItem('isDarkMode'), document.documentElement.getAttribute('data-theme')])).toEqual([
      'true',
      'dark',
    ]);
    await context.close();
  }, 60_000);

  it('guards the routes: logged-out visitors, guests and unknown paths', async () => {
    // A logged-out visitor (the server refuses to create guests for it here) goes to /login from protected routes.
    const { context, page } = await open('/terms', VIEWPORTS.wide, async (p) => {
      await p.route('**/api/v1/auth/anon', (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: '{"detail":"down"}' }),
      );
    });
    await page.getByRole('heading', { name: 'Terms of Use' }).waitFor();
    await page.getByText('Last updated 17 September 2025').waitFor();
    for (const path of ['/chat', '/settings', '/suggested-queries', '/group-search/channel-1', '/new-user', '/onboarding', '/kba/spring']) {
      await page.goto(path);
      await page.waitForURL(/\/login\?next=/);
    }
    await page.getByRole('button', { name: 'Continue as a guest' }).waitFor();
    for (const path of ['/privacy', '/text', '/group-search/invite/inv-1', '/loading-test', '/share/404/abc', '/jobs']) {
      await page.goto(path);
      expect(new URL(page.url()).pathname).toBe(path);
    }
    await screenshot(page, 'logged-out-jobs');
    await context.close();

    // A guest: chat yes; campaign, new-user, onboarding and confirm-memories no.
    const guest = await guestPage('/chat');
    await guest.page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    for (const path of ['/new-user', '/onboarding', '/confirm-memories', '/kba/spring']) {
      await guest.page.goto(path);
      await guest.page.waitForURL(/\/login\?next=/);
    }
    await guest.page.goto('/settings');
    await guest.page.getByRole('heading', { name: 'Your data', exact: true }).waitFor();
    await guest.page.goto('/definitely/not/here/at-all');
    await guest.page.waitForURL('**/404');
    await guest.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await guest.page.goto('/nonsense-type/123');
    await guest.page.waitForURL('**/404');
    await guest.context.close();
  }, 90_000);

  it('shows the phases on /loading-test in 2.5 s steps', async () => {
    const { context, page } = await guestPage('/loading-test');
    await page.getByRole('button', { name: 'Start Loading' }).click();
    // The phase follows the click's render in an effect: wait for it (within the first 2.5 s step) rather than race it.
    await page.waitForFunction(() => document.querySelector('[data-testid=phase]')?.textContent === 'Personalizing query', undefined, {
      timeout: 5_000,
    });
    await page.waitForFunction(() => document.querySelector('[data-testid=phase]')?.textContent === 'Searching', undefined, {
      timeout: 10_000,
    });
    await page.waitForFunction(() => document.querySelector('[data-testid=phase]')?.textContent === 'Thinking', undefined, {
      timeout: 10_000,
    });
    await page.getByRole('button', { name: 'Stop Loading' }).click();
    // The phase returns to idle in an effect after the click's render: wait for it rather than race it.
    await page.waitForFunction(() => document.querySelector('[data-testid=phase]')?.textContent === 'Idle', undefined, { timeout: 5_000 });
    await context.close();
  }, 30_000);

  it('signs in with a phone code from the development SMS inbox, onboards to /chat, and guards a registered user', async () => {
    const { context, page } = await guestPage('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await page.goto('/login');
    await page.getByLabel('Mobile number').waitFor();
    await screenshot(page, 'login-wide-dark');
    await signInWithPhone(page);
    await onboard(page);
    await page.getByRole('heading', { name: 'How can I help, Ada?' }).waitFor();
    expect(await page.evaluate(() => window.location.hash)).toBe('');
    // Registered and onboarded: onboarding pages send back to /chat; /new-user stays reachable.
    await page.goto('/onboarding');
    await page.waitForURL('**/chat');
    await page.goto('/confirm-memories');
    await page.waitForURL('**/chat');
    await page.goto('/kba/nope');
    await page.getByRole('heading', { name: 'Campaign not found' }).waitFor();
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await screenshot(page, 'settings-wide-dark');
    await context.close();
  }, 90_000);

  it('refuses an under-age birth date with the server’s message', async () => {
    const { context, page } = await guestPage('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await signInWithPhone(page);
    await page.waitForURL('**/new-user');
    const young = new Date(Date.now() - 17 * 365.25 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Your date of birth').fill(young);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'You must be 18 or older to use the assistant.' }).waitFor();
    await screenshot(page, 'new-user-under-age');
    await context.close();
  }, 60_000);

  it('keeps a wrong code on the code step with the tries left (not in the address), then signs in with the right code', async () => {
    const { context, page, errors } = await guestPage('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await page.goto('/login');
    const phone = nextPhone();
    await page.getByLabel('Mobile number').fill(phone);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    const code = await smsCodeFor(product.url, phone);
    await page.getByLabel('Code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Back from the callback: the code step for the same number, the error under the field.
    const alert = page.getByRole('alert').filter({ hasText: 'That code is not right.' });
    await alert.waitFor();
    expect(await alert.textContent()).toBe('That code is not right. 4 tries left.');
    await page.waitForURL((url) => url.pathname === '/login' && url.search === '');
    const field = page.getByLabel('Code');
    expect(await field.getAttribute('aria-describedby')).toBe(await alert.getAttribute('id'));
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await page.getByRole('status').textContent()).toContain(phone);
    await page.getByRole('button', { name: 'Use a different number' }).waitFor();
    await page.getByRole('button', { name: 'Send a new code' }).waitFor();
    await screenshot(page, 'login-code-wrong');

    // A reload stays on the code step and does not show the error again.
    await page.reload();
    await page.getByLabel('Code').waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/new-user');
    expect(
      await page.evaluate(() => [
        window.location.hash,
        sessionStorage.getItem('login_state'),
        sessionStorage.getItem('login_phone_number'),
      ]),
    ).toEqual(['', null, null]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it('does not sign a browser in from a crafted /login-success link carrying another user’s valid token', async () => {
    // The attacker signs in to their own account and takes its token.
    const attacker = await guestPage('/chat');
    await attacker.page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await signInWithPhone(attacker.page);
    await attacker.page.waitForURL('**/new-user');
    const attackerToken = await attacker.page.evaluate(() => localStorage.getItem('access_token'));
    const me = await fetch(`${product.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${attackerToken}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { is_anon: boolean }).is_anon).toBe(false);
    await attacker.context.close();

    // The victim, a guest, opens the link: with no login_state, and with a guessed one.
    const victim = await guestPage('/chat');
    await victim.page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    const victimToken = await victim.page.evaluate(() => localStorage.getItem('access_token'));
    for (const fragment of [`access_token=${attackerToken}`, `access_token=${attackerToken}&login_state=${'A'.repeat(32)}`]) {
      await victim.page.goto('/terms'); // so that the link loads a page, not a fragment change
      await victim.page.goto(`/login-success#${fragment}`);
      await victim.page
        .getByRole('alert')
        .filter({ hasText: 'This sign-in link was not started in this browser. Sign in again here.' })
        .waitFor();
      await victim.page.getByRole('link', { name: 'Back to sign in' }).waitFor();
      expect(await victim.page.evaluate(() => [window.location.hash, localStorage.getItem('access_token')])).toEqual(['', victimToken]);
    }
    await screenshot(victim.page, 'login-success-refused');
    await victim.page.goto('/chat');
    await victim.page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    expect(await victim.page.evaluate(() => localStorage.getItem('access_token'))).toBe(victimToken);
    await victim.context.close();
  }, 90_000);

  it('exports the data as a zip and deletes the account after a typed confirmation', async () => {
    const { context, page } = await guestPage('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await signInWithPhone(page);
    await onboard(page, 'Grace Hopper');
    await page.goto('/settings');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^assistant-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path).subarray(0, 2).toString()).toBe('PK');

    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await screenshot(page, 'settings-delete-confirm');
    await confirm.click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    await context.close();
  }, 90_000);

  it('is usable on a phone (390×844) and on a desktop (1440×900)', async () => {
    const narrow = await guestPage('/chat', VIEWPORTS.narrow);
    await narrow.page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    // Closed by default below 768 px; the toggle opens it as a drawer and stores the choice.
    expect(await narrow.page.locator('#sidebar').isVisible()).toBe(false);
    await screenshot(narrow.page, 'guest-chat-narrow-dark');
    await narrow.page.getByRole('button', { name: 'Show sidebar' }).click();
    await narrow.page.getByRole('button', { name: 'New chat' }).waitFor();
    expect(await narrow.page.evaluate(() => localStorage.getItem('sidebarOpen'))).toBe('true');
    await screenshot(narrow.page, 'sidebar-narrow-dark');
    await narrow.page.getByRole('button', { name: 'Close sidebar' }).click();
    expect(await narrow.page.evaluate(() => localStorage.getItem('sidebarOpen'))).toBe('false');
    const overflow = await narrow.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const path of ['/login', '/terms', '/settings']) {
      await narrow.page.goto(path);
      await narrow.page.locator('h1').first().waitFor();
      await narrow.page.waitForTimeout(300);
      expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(narrow.page, `narrow${path.replace(/\//g, '-')}`);
    }
    await narrow.context.close();

    const wide = await guestPage('/chat', VIEWPORTS.wide);
    await wide.page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    const box = await wide.page.locator('#sidebar').boundingBox();
    expect(box?.width).toBe(300);
    await wide.page.goto('/terms');
    await screenshot(wide.page, 'terms-wide-dark');
    await wide.context.close();
  }, 60_000);

  describe('chat (once the chat API is there)', () => {
    const needsChat = () => {
      if (!chatReady) {
        console.warn('Skipped: GET /api/v1/chats/ answers 404, the chat service has not landed yet.');
        return false;
      }
      return true;
    };

    it('sends a message and watches the reply stream, finds it after a reload, edits and switches branches, deletes it', async () => {
      if (!needsChat()) return;
      const { context, page, errors } = await guestPage('/chat');
      await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
      await page.getByLabel('Message', { exact: true }).fill('What is the capital of Portugal?');
      await page.getByRole('button', { name: 'Send message' }).click();
      await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
      // While it streams: the phase line or the growing text, and a Stop button.
      await page.getByRole('button', { name: 'Stop generating' }).waitFor();
      await page.locator('.message--draft').waitFor();
      await screenshot(page, 'chat-streaming');
      await replyDone(page);
      const reply = page.locator('.message--assistant').last();
      await reply.getByText('offline model').first().waitFor();
      await reply.getByText('Offline model', { exact: true }).waitFor();
      await screenshot(page, 'chat-replied-wide-dark');
      const url = page.url();

      await page.reload();
      await page.locator('.message--user').getByText('What is the capital of Portugal?').waitFor();
      await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link').first().waitFor();
      expect(page.url()).toBe(url);

      // Edit: a new branch; then switch back to the first version.
      await page.getByRole('button', { name: 'Edit message' }).click();
      await page.getByLabel('Edit your message').fill('And the capital of Spain?');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await replyDone(page);
      await page.locator('.message--user').getByText('And the capital of Spain?').waitFor();
      await page.getByText('2 / 2').first().waitFor();
      await page.getByRole('button', { name: 'Previous version' }).first().click();
      await page.locator('.message--user').getByText('What is the capital of Portugal?').waitFor();
      await page.getByText('1 / 2').first().waitFor();
      await page.reload();
      await page.locator('.message--user').getByText('What is the capital of Portugal?').waitFor();
      await screenshot(page, 'chat-branches');

      // Regenerate: a second reply to the same message.
      await page.getByRole('button', { name: 'Regenerate reply' }).last().click();
      await replyDone(page);
      await page.locator('.message--assistant .branches').getByText('2 / 2').waitFor();

      // Delete it from the sidebar.
      const item = page.getByRole('navigation', { name: 'Conversations' }).locator('.conversation').first();
      await item.hover();
      await item.getByRole('button', { name: /^Delete / }).click();
      await page.getByRole('dialog', { name: 'Delete conversation?' }).getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL('**/chat');
      await page.getByText('No conversations yet.').waitFor();
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);

    it('shares a conversation read-only, and a missing share goes to /share/404', async () => {
      if (!needsChat()) return;
      const { context, page } = await guestPage('/chat');
      await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
      await page.getByLabel('Message', { exact: true }).fill('Share this **please**');
      await page.keyboard.press('Enter');
      await replyDone(page);
      await page.getByRole('button', { name: 'Share conversation' }).click();
      const link = await page.getByLabel('Share link').inputValue();
      expect(link).toMatch(/\/share\/.+/);
      await screenshot(page, 'chat-share-dialog');
      await page.keyboard.press('Escape');
      const reader = await guestPage(new URL(link).pathname);
      await reader.page.locator('.message--user').getByText('Share this **please**').waitFor();
      await reader.page.goto('/share/does-not-exist');
      await reader.page.waitForURL('**/share/404/does-not-exist');
      await reader.page.getByRole('heading', { name: 'Shared conversation not found' }).waitFor();
      await reader.context.close();
      await context.close();
    }, 90_000);

    it('opens a long shared conversation at its start, renders only the messages near the view, and reaches its end', async () => {
      if (!needsChat()) return;
      const { context, page } = await guestPage('/chat');
      await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
      // 400 messages, the replies with a table and code, written straight into the tables.
      const ids = Array.from({ length: 400 }, () => randomUUID());
      const messages: StoredMessage[] = ids.map((id, i) => ({
        id,
        sender: i % 2 ? 'assistant' : 'user',
        content:
          i % 2 ? `Answer ${i}\n\n| n | square |\n|---|---|\n| ${i} | ${i * i} |\n\n\`\`\`ts\nconst n = ${i};\n\`\`\`` : `Question ${i}`,
        previous: ids[i - 1] ?? null,
        minutes: 400 - i,
      }));
      const chatId = await seedConversation(product, page, 'A long talk', messages, ids[399]);
      const { share_id: shareId } = await page.evaluate(async (id) => {
        const headers = { authorization: `Bearer ${localStorage.getItem('access_token')!}` };
        return (await (await fetch(`/api/v1/chats/${id}/share`, { method: 'POST', headers })).json()) as { share_id: string };
      }, chatId);

      const reader = await guestPage(`/share/${shareId}`);
      const { page: shared } = reader;
      const pagesRead: string[] = [];
      shared.on('request', (request) => {
        if (request.url().includes('/api/v1/shared/')) pagesRead.push(new URL(request.url()).search);
      });
      await shared.getByRole('heading', { name: 'A long talk' }).waitFor();
      await shared.getByText(/^A read-only copy shared on /).waitFor();
      // At its start (a reader begins there), a window of the messages, not 400.
      await shared.getByText('Question 0', { exact: true }).waitFor();
      const scroller = shared.locator('.chat__scroll');
      expect(await scroller.evaluate((el) => el.scrollTop)).toBe(0);
      const articles = shared.getByRole('article');
      expect(await articles.count()).toBeLessThan(40);
      expect(await articles.first().getAttribute('aria-label')).toBe('You said');
      expect(await shared.getByRole('button', { name: 'Edit message' }).count()).toBe(0);
      await screenshot(shared, 'share-long-start-wide');

      // Read in pages of 50: only the first so far.
      expect(pagesRead).toEqual(['?limit=50']);
      // Scrolled to the bottom (again as the rows below are measured, and as each next page comes
      // below): the last reply and the link.
      const link = shared.getByRole('link', { name: 'Start your own conversation' });
      const last = shared.getByText('Answer 399', { exact: true });
      await eventually(async () => {
        await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        if (!(await last.count())) return undefined;
        const box = await link.boundingBox();
        return (box && box.y + box.height <= (await shared.evaluate(() => window.innerHeight)) && box.y >= 0) || undefined;
      }, 45_000);
      expect(pagesRead).toHaveLength(8);
      expect(pagesRead.at(-1)).toBe(`?limit=50&after=${ids[349]}`);
      expect(await shared.getByText('Question 0', { exact: true }).count()).toBe(0);
      expect(await articles.count()).toBeLessThan(40);
      await screenshot(shared, 'share-long-end-wide');
      await reader.context.close();
      await context.close();
    }, 90_000);

    it('streams on a phone too', async () => {
      if (!needsChat()) return;
      const { context, page } = await guestPage('/chat', VIEWPORTS.narrow);
      await page.getByLabel('Message', { exact: true }).fill('Hello from a phone');
      await page.getByRole('button', { name: 'Send message' }).click();
      await replyDone(page);
      await page.locator('.message--assistant').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await screenshot(page, 'chat-replied-narrow-dark');
      await context.close();
    }, 60_000);
  });
});
