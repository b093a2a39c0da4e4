import type { Page } from 'playwright-core';
import { newContext, productSql, productSuite, screenshot, signInAndOnboard, VIEWPORTS } from './support/product';
import { until } from '../support/until';

/**
 * Issue 8 in the portal: an operator makes a user an insider; the user turns insider mode on and
 * off, sets flags and voice settings (optimistic, replaced by the server's answer, rolled back with
 * a message when the server refuses), and the screens that read a flag follow the effective value.
 */
describe('insider mode, flags and voice settings in a browser', () => {
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '2', PHONE_CODES_PER_IP: '1000' });

  const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('access_token')!);
  const earlyAccess = (page: Page) => page.getByRole('region', { name: 'Early access' });
  const switchNamed = (page: Page, name: string) => earlyAccess(page).getByRole('switch', { name });
  /**
   * Turns a switch on as a user does (a click once it is enabled) and waits for it to show on:
   * the change is applied from the mutation's first step, a microtask or two after the click, so
   * Playwright's check() (which reads the state at once) would call a slow machine's switch unchanged.
   */
  const turnOn = async (page: Page, name: string) => {
    const control = switchNamed(page, name);
    await control.click();
    await until(`the switch '${name}' on`, () => control.isChecked(), 10_000);
  };

  it('follows the operator, the switch, the flags and the voice settings, rolling back what the server refuses', async () => {
    const context = await newContext(suite.browser, suite.product.url, VIEWPORTS.wide);
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    await signInAndOnboard(page, suite.product.url, '+14155557001', 'Ada Lovelace');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/chat');

    // A conversation with one reply from the offline model.
    await page.getByLabel('Message', { exact: true }).fill('Hello there');
    await page.getByRole('button', { name: 'Send message' }).click();
    const reply = page.getByRole('article', { name: 'Assistant said' }).last();
    await reply.getByText("I'm the offline model").waitFor({ timeout: 20_000 });
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    const chatUrl = page.url();
    await page.getByRole('button', { name: 'Send message' }).waitFor();
    expect(await reply.locator('.badge', { hasText: /^offline$/ }).count()).toBe(0);

    // Not an insider: nothing to switch.
    await page.goto('/settings');
    await earlyAccess(page).getByText('Early access is by invitation').waitFor();

    // An operator grants insider standing (insider mode stays off until the user turns it on).
    const me = (await (
      await fetch(`${suite.product.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } })
    ).json()) as { user_id: string };
    await productSql(
      suite.product,
      'INSERT INTO insider_config.insider_status (user_id, is_insider, is_insider_enabled) VALUES ($1, true, false)',
      [me.user_id],
    );
    await page.reload();
    const insiderMode = switchNamed(page, 'Insider mode');
    await insiderMode.waitFor();
    expect(await insiderMode.isChecked()).toBe(false);
    await insiderMode.check();
    await turnOn(page, 'Show which model answered');
    await page.waitForFunction(() => !document.querySelector('[aria-label="Saving"]'));
    expect(await switchNamed(page, 'Show which model answered').isChecked()).toBe(true);

    // A refused change is rolled back, with the reason shown.
    await page.route('**/api/v1/user_config/insider-mode/insider-flags', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"The settings store is down."}' })
        : route.continue(),
    );
    await switchNamed(page, 'Show how my question was rewritten').click();
    await earlyAccess(page).getByRole('alert').filter({ hasText: 'The settings store is down.' }).waitFor();
    expect(await switchNamed(page, 'Show how my question was rewritten').isChecked()).toBe(false);
    await page.unroute('**/api/v1/user_config/insider-mode/insider-flags');
    await turnOn(page, 'Ask why when I dislike a reply');
    await page.waitForFunction(() => !document.querySelector('[aria-label="Saving"]'));
    await screenshot(page, 'settings-insider-on');

    // The chat follows the flags: the model is named, a dislike asks why.
    await page.goto(chatUrl);
    await reply.locator('.badge', { hasText: /^offline$/ }).waitFor();
    await reply.getByRole('button', { name: 'Bad reply' }).click();
    await page.getByRole('dialog', { name: 'What was wrong with this reply?' }).waitFor();
    await page.keyboard.press('Escape');

    // Insider mode off: the flags stop applying everywhere.
    await page.goto('/settings');
    await switchNamed(page, 'Insider mode').uncheck();
    await page.waitForFunction(() => !document.querySelector('[aria-label="Saving"]'));
    expect(await earlyAccess(page).getByRole('group', { name: 'Early-access features' }).count()).toBe(0);
    await page.goto(chatUrl);
    await reply.getByText("I'm the offline model").waitFor();
    expect(await reply.locator('.badge', { hasText: /^offline$/ }).count()).toBe(0);
    await reply.getByRole('button', { name: 'Bad reply' }).click();
    expect(await page.getByRole('dialog', { name: 'What was wrong with this reply?' }).count()).toBe(0);

    // Voice settings: saved, kept across a reload, rolled back when refused. (The select's name
    // includes its chosen option, so it is found as the panel's first list.)
    const voiceSelect = () => page.getByRole('region', { name: 'Voice' }).getByRole('combobox').first();
    await page.goto('/settings');
    await voiceSelect().selectOption('verse');
    await page.waitForFunction(() => !document.querySelector('[aria-label="Saving"]'));
    await page.reload();
    await voiceSelect().waitFor();
    expect(await voiceSelect().inputValue()).toBe('verse');
    await page.route('**/api/v1/user_config/ai-voice', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 422, contentType: 'application/json', body: '{"detail":"voice: not available"}' })
        : route.continue(),
    );
    await voiceSelect().selectOption('sage');
    await page.getByRole('region', { name: 'Voice' }).getByRole('alert').filter({ hasText: 'voice: not available' }).waitFor();
    expect(await voiceSelect().inputValue()).toBe('verse');
    await screenshot(page, 'settings-voice-rollback');
    await context.close();
  }, 150_000);
});
