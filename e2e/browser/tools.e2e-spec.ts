import { newContext, productSql, productSuite, screenshot, signInAndOnboard, VIEWPORTS } from './support/product';
import { until } from '../support/until';

/**
 * The tool loop and reminders in a browser, with no keys (the offline model): a reminder asked for
 * in the chat shows the tools used under the reply, is listed on the Reminders page, comes as a
 * notification at its time (and by text to the account's number), and can be cancelled there.
 */
describe('tools and reminders in a browser', () => {
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '2', PHONE_CODES_PER_IP: '1000', REMINDER_POLL_MS: '200' });

  it('sets a reminder from the chat, lists it, notifies it at its time, and cancels another', async () => {
    const context = await newContext(suite.browser, suite.product.url, VIEWPORTS.wide);
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    const phone = '+14155557301';
    await signInAndOnboard(page, suite.product.url, phone, 'Grace Hopper');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL('**/chat');

    await page.getByLabel('Message', { exact: true }).fill('Remind me in 2 hours to call the dentist');
    await page.getByRole('button', { name: 'Send message' }).click();
    const reply = page.getByRole('article', { name: 'Assistant said' }).last();
    await reply.getByText(/I'll remind you on .+ to call the dentist/).waitFor({ timeout: 20_000 });
    // The tools used, collapsed under the reply.
    const used = reply.getByText('Used a tool: set_reminder');
    await used.waitFor();
    await used.click();
    await reply.getByLabel('Arguments of set_reminder').getByText('"when": "in 2 hours"').waitFor();
    await screenshot(page, 'tools-reminder-reply');

    // Listed on the Reminders page, cancellable there.
    await page.getByRole('link', { name: 'Reminders' }).click();
    await page.waitForURL('**/reminders');
    const list = page.getByRole('list', { name: 'Your reminders' });
    await list.getByText('call the dentist').waitFor();
    await page.getByRole('button', { name: 'Cancel the reminder: call the dentist' }).click();
    await list.getByText(/cancelled/).waitFor();

    // One whose time comes: a notification at the top of the page, and a text to the number.
    await page.goto('/chat');
    await page.getByLabel('Message', { exact: true }).fill('Remind me in 3 hours to water the plants');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page
      .getByRole('article', { name: 'Assistant said' })
      .last()
      .getByText(/to water the plants/)
      .waitFor({ timeout: 20_000 });
    await productSql(suite.product, "UPDATE chat.reminder SET due_at = now() WHERE text = 'water the plants'");
    // The page asks for reminders as it opens (and every 20 s after): it opens once the reminder has
    // come, so that a busy machine's slow poller is not raced against the page's first read.
    await until(
      'the reminder fired',
      async () =>
        (await productSql(suite.product, "SELECT 1 FROM chat.reminder WHERE text = 'water the plants' AND notified_at IS NOT NULL"))
          .length === 1,
      60_000,
      250,
    );
    await page.goto('/reminders');
    const note = page.getByRole('region', { name: 'Reminders' }).getByRole('status');
    await note.getByText('water the plants').waitFor({ timeout: 20_000 });
    await screenshot(page, 'tools-reminder-notification');
    await note.getByRole('button', { name: 'Dismiss' }).click();
    await until('the notification dismissed', async () => (await note.count()) === 0, 10_000);
    const texted = async () => {
      const inbox = (await (await fetch(`${suite.product.url}/api/v1/dev/sms/messages?to=${encodeURIComponent(phone)}`)).json()) as {
        messages: { body: string }[];
      };
      return inbox.messages.some((m) => m.body === 'Reminder: water the plants');
    };
    await until('the reminder texted', texted, 60_000, 250);
    await context.close();
  });
});
