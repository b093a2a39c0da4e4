import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe';
import { until as waitUntil } from '../support/until';
import { expectFocus, newContext, openGuestChat, productSuite, screenshot, VIEWPORTS } from './support/product';

type Viewport = { width: number; height: number };
/** The desktop size the issue asks to be checked at (the suites' "wide" is larger). */
const DESKTOP = { width: 1280, height: 800 };

/**
 * Projects (issue 25, part 5) in Chromium against the built product: one made in the sidebar, a
 * conversation dragged into it, moved out through the conversation's menu, a new chat started in
 * it, and deleting it asks what becomes of its conversations.
 */
describe('projects in a browser', () => {
  const suite = productSuite({ OFFLINE_TOKEN_DELAY_MS: '1' });

  async function guestPage(viewport: Viewport, bypassCSP = false) {
    const context = bypassCSP
      ? await suite.browser.newContext({ baseURL: suite.product.url, viewport, bypassCSP: true })
      : await newContext(suite.browser, suite.product.url, viewport);
    context.setDefaultTimeout(20_000);
    return { context, ...(await openGuestChat(context)) };
  }

  /** A call of the API with the page's own token. */
  const api = (page: Page, method: string, path: string, body?: unknown) =>
    page.evaluate(
      async ({ method, path, body }) => {
        const token = localStorage.getItem('access_token')!;
        const res = await fetch(path, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return res.status === 204 ? null : res.json();
      },
      { method, path, body },
    );
  const chatOf = async (page: Page, chatId: string) => (await api(page, 'GET', `/api/v1/chats/${chatId}`)) as { project_id: string | null };
  /** The server says what the page did (a move is saved after the drop's render): asked until it does, 30 s at most. */
  const until = (probe: () => Promise<boolean>) => waitUntil('the server to agree with the page', probe, 30_000, 100);

  /** Makes a project from the sidebar's "New project" (its dialog) and lands on its page. */
  async function createProject(page: Page, name: string, instructions: string) {
    await page.locator('#sidebar').getByRole('button', { name: 'New project' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Instructions').fill(instructions);
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    return page.url().split('/projects/')[1];
  }

  it('creates a project, drags a conversation into it, moves it out by the menu, starts a chat in it, deletes it as asked (desktop)', async () => {
    const { context, page, errors } = await guestPage(DESKTOP);
    const chat = (await api(page, 'POST', '/api/v1/chats/', { conversation_title: 'Tiles and grout' })) as { chat_id: string };
    const kept = (await api(page, 'POST', '/api/v1/chats/', { conversation_title: 'Paint colours' })) as { chat_id: string };
    await page.reload();
    const sidebar = page.locator('#sidebar');
    await sidebar.getByRole('link', { name: 'Tiles and grout' }).waitFor();

    const projectId = await createProject(page, 'Kitchen', 'Use metric units. Budget is 20,000 euros.');
    await page.getByText('Use metric units. Budget is 20,000 euros.').waitFor();
    const project = sidebar.locator(`[data-project-id="${projectId}"]`);
    await project.getByRole('link', { name: 'Kitchen' }).waitFor();

    // Dragged onto the project, the conversation moves into it (and is listed under it).
    await sidebar.locator(`[data-chat-id="${chat.chat_id}"]`).dragTo(project);
    await project.getByRole('link', { name: 'Tiles and grout' }).waitFor();
    expect(await project.getByRole('button', { name: 'Collapse Kitchen' }).getAttribute('aria-expanded')).toBe('true');
    await until(async () => (await chatOf(page, chat.chat_id)).project_id === projectId);
    await sidebar.locator(`[data-chat-id="${kept.chat_id}"]`).dragTo(project);
    await project.getByRole('link', { name: 'Paint colours' }).waitFor();
    await screenshot(page, 'projects-sidebar-desktop');

    // The keyboard's way out: the conversation's menu, "Move to project…", "No project".
    await project.getByRole('link', { name: 'Tiles and grout' }).click();
    await page.getByRole('note').filter({ hasText: 'In project Kitchen' }).waitFor();
    await page.getByRole('button', { name: 'Conversation options' }).click();
    await page.getByRole('button', { name: 'Move to project…' }).click();
    const move = page.getByRole('dialog', { name: 'Move to project' });
    expect(await move.getByRole('radio', { name: 'Kitchen' }).isChecked()).toBe(true);
    await move.getByRole('radio', { name: 'No project' }).check();
    await screenshot(page, 'projects-move-dialog-desktop');
    await move.getByRole('button', { name: 'Move', exact: true }).click();
    await until(async () => (await chatOf(page, chat.chat_id)).project_id === null);
    await page.waitForFunction(
      ([projectId, chatId]) => !document.querySelector(`[data-project-id="${projectId}"] [data-chat-id="${chatId}"]`),
      [projectId, chat.chat_id],
    );

    // A new chat in the project: its reply is in the project.
    await project.locator('.project__row').hover();
    await project.getByRole('button', { name: 'New chat in Kitchen' }).click();
    await page.getByRole('note').filter({ hasText: 'New chat in project Kitchen' }).waitFor();
    await page.getByLabel('Message', { exact: true }).fill('How many tiles for 12 square metres?');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page.waitForURL('**/chat/*');
    const started = page.url().split('/chat/')[1];
    await page.locator('.message--assistant').first().waitFor();
    expect((await chatOf(page, started)).project_id).toBe(projectId);
    await page.getByRole('note').filter({ hasText: 'In project Kitchen' }).waitFor();
    await screenshot(page, 'projects-chat-desktop');

    // Deleting asks: its conversations deleted with it here.
    await project.getByRole('link', { name: 'Kitchen' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Delete project?' });
    expect(await ask.getByRole('radio', { name: /Keep them/ }).isChecked()).toBe(true);
    await ask.getByRole('radio', { name: /Delete them too/ }).check();
    await screenshot(page, 'projects-delete-dialog-desktop');
    await ask.getByRole('button', { name: 'Delete project' }).click();
    await page.waitForURL('**/chat');
    await until(async () => ((await api(page, 'GET', `/api/v1/chats/${kept.chat_id}`)) as { detail?: string }).detail !== undefined);
    expect(((await api(page, 'GET', '/api/v1/projects/')) as unknown[]).length).toBe(0);
    await sidebar.getByRole('link', { name: 'Tiles and grout' }).waitFor();
    expect(await sidebar.getByRole('link', { name: 'Paint colours' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves a conversation into a project from the sidebar by keyboard, and deletes the project keeping it (phone)', async () => {
    const { context, page, errors } = await guestPage(VIEWPORTS.narrow);
    const chat = (await api(page, 'POST', '/api/v1/chats/', { conversation_title: 'Seed catalogue' })) as { chat_id: string };
    await page.reload();
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    const projectId = await createProject(page, 'Garden', 'Plants for a north-facing plot.');
    await screenshot(page, 'projects-page-phone');
    await page.getByRole('button', { name: 'Show sidebar' }).click();
    const sidebar = page.locator('#sidebar');
    // By keyboard: the conversation's link, then its first action (shown while the row has the focus).
    await sidebar.getByRole('link', { name: 'Seed catalogue' }).focus();
    await page.keyboard.press('Tab');
    await expectFocus(page, (el) => el?.getAttribute('aria-label') ?? null, 'Move Seed catalogue to a project');
    await page.keyboard.press('Enter');
    const move = page.getByRole('dialog', { name: 'Move to project' });
    await move.getByRole('radio', { name: 'Garden' }).focus();
    await page.keyboard.press('Space');
    await move.getByRole('button', { name: 'Move', exact: true }).press('Enter');
    const project = sidebar.locator(`[data-project-id="${projectId}"]`);
    await until(async () => (await chatOf(page, chat.chat_id)).project_id === projectId);
    await project.getByRole('button', { name: 'Expand Garden' }).click();
    await project.getByRole('link', { name: 'Seed catalogue' }).waitFor();
    await screenshot(page, 'projects-sidebar-phone');

    await project.getByRole('link', { name: 'Garden' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Delete project?' });
    await ask.getByText('What should happen to its 1 conversation?').waitFor();
    await screenshot(page, 'projects-delete-dialog-phone');
    await ask.getByRole('button', { name: 'Delete project' }).click();
    await page.waitForURL('**/chat');
    await until(async () => (await chatOf(page, chat.chat_id)).project_id === null);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no accessibility violations on the project page and in its dialogs', async () => {
    const { context, page } = await guestPage(DESKTOP, true);
    const projectId = (await api(page, 'POST', '/api/v1/projects/', { name: 'Reading list', instructions: 'Short answers.' })) as {
      project_id: string;
    };
    await page.goto(`/projects/${projectId.project_id}`);
    await page.getByRole('heading', { name: 'Reading list', level: 1 }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('dialog', { name: 'Edit project' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'projects-edit-dialog-desktop');
    await context.close();
  });
});
