import type { Import } from '@app/contracts/chat';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { ImportChatsSection } from './ImportChatsSection';

const base: Import = {
  import_id: '6f1c2a4e-0b7d-4c1e-9a55-3d2f7e8b9c10',
  status: 'done',
  source: 'chatgpt',
  filename: 'chatgpt-export.zip',
  learn_memories: true,
  conversations_total: 3,
  conversations_done: 3,
  conversations_imported: 2,
  conversations_existing: 1,
  messages_imported: 8,
  attachments_imported: 1,
  skipped: [{ kind: 'message', conversation: 'Trip to Lisbon', reason: 'Tool calls the model made', count: 2 }],
  skipped_total: 2,
  error: null,
  created_at: '2026-11-26T09:00:00.000Z',
  finished_at: '2026-11-26T09:00:05.000Z',
};

function show() {
  render(
    <MemoryRouter>
      <ImportChatsSection />
    </MemoryRouter>,
    withQueryClient(),
  );
}

describe('settings, Import chats', () => {
  beforeEach(() => {
    signedIn({ csrfToken: 'c' });
  });
  afterEach(cleanup);

  it('lists the last imports and opens one as its summary: imported, already there, what was left out and why', async () => {
    mockFetch({
      'GET /api/v1/imports/': json(200, [base]),
      [`GET /api/v1/imports/${base.import_id}`]: json(200, base),
    });
    show();
    const listed = await screen.findByRole('list', { name: 'Recent imports' });
    await userEvent.click(within(listed).getByRole('button', { name: 'chatgpt-export.zip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import chats' });
    expect((await within(dialog).findByRole('status')).textContent).toContain(
      'Imported 2 conversations from ChatGPT (8 messages, 1 attachment).',
    );
    expect(within(dialog).getByText('1 conversation was imported before and left untouched.')).toBeTruthy();
    expect(within(dialog).getByText('2 items could not be imported')).toBeTruthy();
    expect(within(dialog).getByText(/Tool calls the model made/).textContent).toContain('Tool calls the model made');
    expect(within(dialog).getByRole('link', { name: 'review them' }).getAttribute('href')).toBe('/confirm-memories');
  });

  it('shows a running import with its progress bar, and a refused one with its reason', async () => {
    const running = { ...base, import_id: 'a0000000-0000-4000-8000-000000000001', status: 'running' as const, conversations_done: 1 };
    const failed = {
      ...base,
      import_id: 'a0000000-0000-4000-8000-000000000002',
      status: 'failed' as const,
      error: 'The zip is encrypted.',
    };
    mockFetch({
      'GET /api/v1/imports/': json(200, [running, failed]),
      [`GET /api/v1/imports/${running.import_id}`]: json(200, running),
      [`GET /api/v1/imports/${failed.import_id}`]: json(200, failed),
    });
    show();
    expect(await screen.findByText('Importing conversations: 1 of 3')).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: 'chatgpt-export.zip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import chats' });
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The import was refused: The zip is encrypted. Nothing was imported.',
    );
  });

  it('stops a running import: what it imported stays, said so; a refusal of the stop is shown', async () => {
    const running = { ...base, import_id: 'a0000000-0000-4000-8000-000000000003', status: 'running' as const, conversations_done: 1 };
    const stopped = { ...running, status: 'cancelled' as const, conversations_imported: 1, finished_at: base.finished_at };
    let state: typeof running | typeof stopped = running;
    const api = mockFetch({
      'GET /api/v1/imports/': () => json(200, [state]),
      [`GET /api/v1/imports/${running.import_id}`]: () => json(200, state),
      [`POST /api/v1/imports/${running.import_id}/cancel`]: () => {
        state = stopped;
        return json(200, stopped);
      },
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Stop import' }));
    expect(api.called(`POST /api/v1/imports/${running.import_id}/cancel`)).toHaveLength(1);
    const listed = await screen.findByRole('list', { name: 'Recent imports' });
    expect(within(listed).getByText(/1 conversations imported \(stopped\)/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Stop import' })).toBeNull();
    await userEvent.click(within(listed).getByRole('button', { name: 'chatgpt-export.zip' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import chats' });
    expect((await within(dialog).findByRole('status')).textContent).toContain(
      'You stopped this import. What it imported before it stopped stays in your conversations',
    );
  });

  it('shows why a stop was refused (the import ended meanwhile)', async () => {
    const running = { ...base, import_id: 'a0000000-0000-4000-8000-000000000004', status: 'running' as const, conversations_done: 1 };
    mockFetch({
      'GET /api/v1/imports/': json(200, [running]),
      [`POST /api/v1/imports/${running.import_id}/cancel`]: json(409, {
        detail: 'This import is over already: there is nothing to cancel.',
      }),
    });
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Stop import' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This import is over already: there is nothing to cancel.');
  });
});
