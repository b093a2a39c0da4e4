import { chatGptExportZip, claudeExportZip } from '@app/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations } from './support/axe';
import { newContext, openGuestChat, productSuite, screenshot, VIEWPORTS } from './support/product';

/**
 * Import chats (issue 25, part 3) in Chromium: Settings → Import chats, the export zip picked and
 * uploaded, the import followed to its summary, the conversations in the sidebar with their branches.
 */
describe('importing chats in a browser', () => {
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '1' });
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'import-browser-'));
    await writeFile(join(dir, 'chatgpt.zip'), chatGptExportZip());
    await writeFile(join(dir, 'claude.zip'), claudeExportZip());
    await writeFile(join(dir, 'notes.zip'), Buffer.from('this is not a zip'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    it(`imports a ChatGPT export from Settings and shows its summary and its branches (${name})`, async () => {
      // bypassCSP: axe-core's script is added to the page.
      const context = await suite.browser.newContext({ baseURL: suite.product.url, viewport, bypassCSP: true });
      context.setDefaultTimeout(15_000);
      const { page, errors } = await openGuestChat(context);
      await page.goto('/settings');
      await page.getByRole('button', { name: 'Import chats' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import chats' });
      await dialog.waitFor();
      // A file that is not a zip is refused with the server's reason, and the picker stays.
      await dialog.getByLabel('Export zip').setInputFiles(join(dir, 'notes.zip'));
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await dialog.getByText(/not a zip/).waitFor();
      expect(await axeViolations(page, '.import-dialog')).toEqual([]);
      await dialog.getByLabel('Export zip').setInputFiles(join(dir, 'chatgpt.zip'));
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await dialog.getByText('Imported 2 conversations from ChatGPT').waitFor({ timeout: 60_000 });
      await dialog.getByText('5 items could not be imported').click();
      await dialog.getByText('Trip to Lisbon: Tool calls the model made').waitFor();
      await screenshot(page, `import-summary-${name}`);
      await dialog.getByRole('button', { name: 'Done' }).click();
      // Listed in Settings, and the conversation is in the sidebar with its edited question as a branch.
      await page.getByRole('list', { name: 'Recent imports' }).getByText('chatgpt.zip').waitFor();
      if (name === 'narrow') await page.getByRole('button', { name: 'Show sidebar' }).click();
      await page.locator('#sidebar').getByText('Trip to Lisbon').click();
      await page.getByText('Where should we eat?').waitFor();
      await page.getByText('Day one: Belém, then Alfama.').waitFor();
      expect(await page.getByText('2 / 2').count()).toBeGreaterThanOrEqual(2);
      await screenshot(page, `import-conversation-${name}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('follows an import run from the Claude export and imports nothing twice', async () => {
    const context = await newContext(suite.browser, suite.product.url, VIEWPORTS.wide);
    const page = await context.newPage();
    await page.addInitScript(() => localStorage.setItem('firstTimeModalShown', 'true'));
    await page.goto('/chat');
    await page.getByRole('heading', { name: 'How can I help?' }).waitFor();
    await page.goto('/settings');
    for (const expected of ['Imported 2 conversations from Claude', 'Imported 0 conversations from Claude']) {
      await page.getByRole('button', { name: 'Import chats' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import chats' });
      await dialog.getByLabel('Export zip').setInputFiles(join(dir, 'claude.zip'));
      await dialog.getByLabel('From', { exact: true }).selectOption('claude');
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      await dialog.getByText(expected).waitFor({ timeout: 60_000 });
      if (expected.includes(' 0 ')) await dialog.getByText('2 conversations were imported before and left untouched.').waitFor();
      await dialog.getByRole('button', { name: 'Done' }).click();
    }
    expect(await page.locator('#sidebar').getByText('Sourdough starter').count()).toBe(1);
    await context.close();
  });
});
