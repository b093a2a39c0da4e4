import type { BrowserContext, Page } from 'playwright-core';
import { axeViolations } from './support/axe';
import { productSuite, screenshot, signInAndOnboard, VIEWPORTS } from './support/product';
import { until } from '../support/until';

/**
 * Issue 15 in the portal: a newcomer texts the assistant from the development phone and reads the
 * reply; /text shows the number and the limits; a number joins a group from its invite page by
 * replying YES from the development phone; the group's search finds a message with the match
 * marked. Every page is looked at in both themes and checked with axe-core.
 */
describe('the text service in a browser', () => {
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '2', PHONE_CODES_PER_IP: '1000' });
  const violations: Record<string, string[]> = {};

  /** A visitor's tab: the welcome dialog already seen, dark or light. */
  async function visitor(
    light = false,
    viewport: { width: number; height: number } = VIEWPORTS.wide,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await suite.browser.newContext({ baseURL: suite.product.url, viewport, bypassCSP: true, deviceScaleFactor: 1 });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    await page.addInitScript((isLight) => {
      localStorage.setItem('firstTimeModalShown', 'true');
      if (isLight) localStorage.setItem('isDarkMode', 'false');
    }, light);
    return { context, page };
  }

  /** axe-core (WCAG 2.1 A/AA) on the page as it is; serious and critical findings are kept. */
  async function axe(page: Page, name: string): Promise<void> {
    violations[name] = (await axeViolations(page))
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact}: ${v.id} (${v.nodes}) ${v.sample.slice(0, 140)}`);
  }

  /** Looked at: a screenshot and an axe run, in the theme the tab was opened with. */
  async function lookAt(page: Page, name: string): Promise<void> {
    await page.waitForTimeout(200);
    await screenshot(page, name);
    await axe(page, name);
  }

  const service = async () =>
    (await (await fetch(`${suite.product.url}/api/v1/sms/service`)).json()) as {
      phone_number: string | null;
      monthly_allowance: number;
      max_segments: number;
      dev_phone: boolean;
    };

  it('serves the development phone in development, and /text says what the service is', async () => {
    const info = await service();
    expect(info.dev_phone).toBe(true);
    for (const light of [false, true]) {
      const theme = light ? 'light' : 'dark';
      const { context, page } = await visitor(light);
      await page.goto('/text');
      await page.getByRole('heading', { level: 1, name: 'Text the assistant' }).waitFor();
      if (info.phone_number)
        await page
          .getByRole('link', { name: new RegExp(info.phone_number.slice(-4)) })
          .first()
          .waitFor();
      else await page.getByText('not set up on this server').waitFor();
      await page.getByText(`Up to ${info.monthly_allowance} texts a month per account`).waitFor();
      await page.getByText(`at most ${info.max_segments} texts`).waitFor();
      await page.getByRole('heading', { name: 'Stop, help and start' }).waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      await lookAt(page, `sms-text-${theme}`);
      await page.getByRole('link', { name: 'development phone' }).click();
      await page.waitForURL('**/dev/phone');
      await page.getByRole('heading', { level: 1, name: 'Development phone' }).waitFor();
      await context.close();
    }
  }, 60_000);

  it('a newcomer texts the assistant from the development phone and reads its reply', async () => {
    for (const light of [false, true]) {
      const theme = light ? 'light' : 'dark';
      const { context, page } = await visitor(light);
      await page.goto('/dev/phone');
      const number = await page.getByLabel('Play the number').inputValue();
      expect(number).toMatch(/^\+1\d{3}55501\d{2}$/);
      await page.getByLabel('Text message').fill(`Hello! My name is Grace and I paddle a kayak (${theme}).`);
      await page.getByRole('button', { name: 'Send' }).click();
      const thread = page.getByRole('log', { name: 'Messages' });
      await thread.locator('.sms-bubble--out').first().waitFor();
      await thread.locator('.sms-bubble--in').first().waitFor({ timeout: 60_000 });
      expect((await thread.locator('.sms-bubble--in .sms-bubble__body').first().textContent())?.trim().length).toBeGreaterThan(0);
      await page.getByText('Waiting for the reply…').waitFor({ state: 'detached' });
      // The number is kept for the tab's session: a reload shows the same thread.
      await page.reload();
      expect(await page.getByLabel('Play the number').inputValue()).toBe(number);
      await thread.locator('.sms-bubble--in').first().waitFor();
      await lookAt(page, `sms-dev-phone-${theme}`);
      if (!light) {
        const narrow = await visitor(false, VIEWPORTS.narrow);
        await narrow.page.goto('/dev/phone');
        await narrow.page.getByLabel('Text message').waitFor();
        await screenshot(narrow.page, 'sms-dev-phone-narrow');
        await narrow.context.close();
      }
      await context.close();
    }
  }, 180_000);

  it('a number joins a group from its invite page by replying YES, and the group search finds its message marked', async () => {
    // Ada, signed in with her number, starts a group from the settings.
    const ada = await visitor();
    await signInAndOnboard(ada.page, suite.product.url, '+14155557301', 'Ada Lovelace');
    await ada.page.goto('/settings');
    const texts = ada.page.getByRole('region', { name: 'Text messages' });
    await texts.getByRole('progressbar').waitFor();
    await lookAt(ada.page, 'sms-settings-dark');
    await texts.getByLabel('New group name').fill('Hiking club');
    await texts.getByRole('button', { name: 'Create group' }).click();
    await texts.getByRole('link', { name: 'Open it to invite people' }).click();
    await ada.page.getByRole('heading', { level: 1, name: 'Hiking club' }).waitFor();
    const groupUrl = ada.page.url();
    await ada.page.getByRole('button', { name: 'Create invite link' }).click();
    const inviteUrl = await ada.page.getByRole('textbox', { name: 'Invite link' }).inputValue();
    expect(inviteUrl).toMatch(/\/group-search\/invite\/[A-Za-z0-9_-]+$/);
    const groupNumber = ((await ada.page.locator('.public__subtitle').textContent()) ?? '').match(/\+[\d ]+/)?.[0].replace(/ /g, '');
    expect(groupNumber).toMatch(/^\+\d{8,15}$/);

    const dark = await visitor();
    await dark.page.goto(inviteUrl);
    await dark.page.getByLabel('Mobile number').waitFor();
    await lookAt(dark.page, 'sms-invite-dark');
    await dark.context.close();

    // Grace, a new visitor, opens the link, enters her number as she would write it, and replies YES.
    const grace = await visitor(true);
    await grace.page.goto(inviteUrl);
    await grace.page
      .getByRole('heading', { level: 1, name: 'Join “Hiking club”' })
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\nThe page said: ${await grace.page.locator('main').innerText()}`);
      });
    expect(await grace.page.getByRole('dialog').count()).toBe(0);
    await lookAt(grace.page, 'sms-invite-light');
    await grace.page.getByRole('button', { name: 'Join' }).click();
    await grace.page.getByText('Enter your mobile number.', { exact: true }).waitFor();
    await grace.page.getByLabel('Mobile number').fill('(415) 555-0142');
    await grace.page.getByRole('button', { name: 'Join' }).click();
    await grace.page.getByText('We texted +1 415 555 0142. Reply YES to join.').waitFor();
    await lookAt(grace.page, 'sms-invite-sent-light');

    await grace.page.goto('/dev/phone');
    await grace.page.getByLabel('Play the number').fill('+14155550142');
    await grace.page.getByRole('button', { name: 'Use this number' }).click();
    const thread = grace.page.getByRole('log', { name: 'Messages' });
    await thread.getByText(/YES/).first().waitFor({ timeout: 30_000 });
    await grace.page.getByLabel('Text message').fill('YES');
    await grace.page.getByRole('button', { name: 'Send' }).click();
    await until(
      'Grace in the group',
      async () => {
        await ada.page.goto(groupUrl);
        await ada.page.getByRole('heading', { level: 1, name: 'Hiking club' }).waitFor();
        return (await ada.page.getByRole('heading', { name: 'Members (2)' }).count()) > 0;
      },
      30_000,
      500,
    );

    // Grace texts the group; Ada finds it by a word, marked.
    await grace.page.getByLabel('Text to').fill(groupNumber!);
    await grace.page.getByLabel('Text message').fill('Shall we meet at the trailhead on Saturday morning?');
    await grace.page.getByRole('button', { name: 'Send' }).click();
    await thread.locator('.sms-bubble--out', { hasText: 'trailhead' }).waitFor();
    await lookAt(grace.page, 'sms-dev-phone-group-light');

    await until(
      'the message found',
      async () => {
        await ada.page.goto(groupUrl);
        const search = ada.page.getByLabel('Search this group’s messages');
        await search.fill('trailhead');
        await ada.page.getByText(/match(es)? “trailhead”|No messages match “trailhead”/).waitFor();
        return (await ada.page.locator('.group-result mark', { hasText: /trailhead/i }).count()) > 0;
      },
      30_000,
      500,
    );
    expect(await ada.page.locator('.group-result').first().textContent()).toContain('Shall we meet at the trailhead');
    await lookAt(ada.page, 'sms-group-search-dark');
    await ada.page.evaluate(() => localStorage.setItem('isDarkMode', 'false'));
    await ada.page.reload();
    await ada.page.getByLabel('Search this group’s messages').fill('trailhead');
    await ada.page.locator('.group-result mark').first().waitFor();
    await lookAt(ada.page, 'sms-group-search-light');
    await ada.page.goto('/settings');
    await ada.page.getByRole('region', { name: 'Text messages' }).getByRole('link', { name: 'Hiking club' }).waitFor();
    await lookAt(ada.page, 'sms-settings-light');

    // Someone outside the group gets the not-found page.
    await grace.page.goto(new URL(groupUrl).pathname);
    await grace.page.waitForURL('**/404');

    // Ada leaves the group (asked twice): back in the settings, it is no longer listed.
    await ada.page.goto(groupUrl);
    await ada.page.getByRole('button', { name: /Leave “Hiking club”/ }).click();
    await lookAt(ada.page, 'sms-group-leave-light');
    await ada.page.getByRole('button', { name: 'Leave the group' }).click();
    await ada.page.waitForURL('**/settings');
    await ada.page.getByRole('region', { name: 'Text messages' }).getByRole('progressbar').waitFor();
    expect(await ada.page.getByRole('region', { name: 'Text messages' }).getByRole('link', { name: 'Hiking club' }).count()).toBe(0);

    await ada.context.close();
    await grace.context.close();
    expect(violations).toEqual(Object.fromEntries(Object.keys(violations).map((k) => [k, []])));
  }, 240_000);
});
