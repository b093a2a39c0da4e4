import { notifyManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatMessage, memoryItem } from '../test/builders';
import { json, mockFetch } from '../test/fetchMock';
import { signedIn } from '../test/session';
import { authStore } from '../modules/auth/state/authStore';
import { resetRemovals } from '../modules/memory/state/removalStore';
import { MemoriesPage } from './MemoriesPage';

function open(path = '/memories') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/memories', element: <MemoriesPage /> },
      { path: '/chat/:chatId', element: <p>chat</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const message = (id: string, chatId: string, content: string) =>
  chatMessage(id, { chat_id: chatId, content, created_at: '2025-09-20T10:00:00Z' });

describe('the memories page', () => {
  beforeEach(() => {
    resetRemovals();
    signedIn();
  });

  it('groups the memories per source message, quotes it and links to it in its conversation', async () => {
    const api = mockFetch({
      'GET /api/v1/user_memory/': json(200, [
        memoryItem('a', { text: 'Is vegetarian', source_chat_id: 'c1', source_message_id: 'm2' }),
        memoryItem('b', { text: 'Has a daughter named Ana', source_chat_id: 'c1', source_message_id: 'm1' }),
        memoryItem('c', { text: 'Is a parent', source_chat_id: 'c1', source_message_id: 'm1', is_inference: true, is_confirmed: false }),
      ]),
      'GET /api/v1/messages/all_user_messages': json(200, [
        message('m1', 'c1', 'my daughter is called Ana'),
        message('m2', 'c1', "I'm vegetarian"),
      ]),
      'GET /api/v1/chats/': json(200, [
        {
          chat_id: 'c1',
          conversation_title: 'About me',
          last_message_timestamp: null,
          last_active_message_id: null,
          is_commercial: false,
          created_at: '2025-09-20T10:00:00Z',
        },
      ]),
    });
    open('/memories?source_chat_id=c1');
    const ana = await screen.findByRole('region', { name: 'You said: “my daughter is called Ana”' });
    expect(
      within(ana)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.memory__text')?.textContent),
    ).toEqual(['Has a daughter named Ana', 'Is a parent']);
    expect(
      within(ana)
        .getByRole('link', { name: /Go to the message/ })
        .getAttribute('href'),
    ).toBe('/chat/c1#message-m1');
    expect(within(ana).getByText('In “About me” · September 20, 2025')).toBeTruthy();
    expect(screen.getByRole('region', { name: "You said: “I'm vegetarian”" })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Confirm: Is a parent' })).toBeTruthy();
    expect(screen.getByText('1 guess is waiting for you to confirm or reject it.')).toBeTruthy();
    expect(api.called('GET /api/v1/user_memory/')[0].url).toBe('/api/v1/user_memory/?user_preference_name=default&source_chat_id=c1');
  });

  it('edits inline: Escape cancels, Enter saves', async () => {
    const api = mockFetch({
      'GET /api/v1/user_memory/': json(200, [memoryItem('a', { text: 'Lives in Lisbon' })]),
      'PUT /api/v1/user_memory/a': json(200, memoryItem('a', { text: 'Lives in Porto' })),
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit: Lives in Lisbon' }));
    await user.keyboard('{Escape}');
    expect(screen.getByText('Lives in Lisbon')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit: Lives in Lisbon' }));
    const box = screen.getByLabelText('Edit this memory');
    await user.clear(box);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('A memory cannot be empty.');
    await user.type(box, 'Lives in Porto{Enter}');
    expect(await screen.findByText('Lives in Porto')).toBeTruthy();
    expect(api.called('PUT /api/v1/user_memory/a')).toHaveLength(1);
  });

  it('says when there is nothing yet', async () => {
    mockFetch({ 'GET /api/v1/user_memory/': json(200, []) });
    open();
    expect(await screen.findByRole('heading', { name: 'No memories yet' })).toBeTruthy();
  });

  it('shows the spec’s error text when the list cannot be read', async () => {
    mockFetch({ 'GET /api/v1/user_memory/': json(502, { detail: 'bad gateway' }) });
    open();
    expect((await screen.findByRole('alert')).textContent).toContain('Failed to fetch user memory');
  });

  it('asks nothing until logged in with a token (section 5)', async () => {
    authStore.set({ isLoading: false, isLoggedIn: false, accessToken: null, user: null });
    const api = mockFetch({ 'GET /api/v1/user_memory/': json(200, []) });
    open();
    await new Promise((r) => setTimeout(r, 20));
    expect(api.called('GET /api/v1/user_memory/')).toHaveLength(0);
    expect(screen.getByRole('status')).toBeTruthy(); // still waiting
  });
});

describe('the memories page, removing (query notifications on the next task, as in a browser)', () => {
  afterEach(() => notifyManager.setScheduler((callback) => callback()));
  beforeEach(() => {
    notifyManager.setScheduler((callback) => setTimeout(callback, 0));
    resetRemovals();
    signedIn();
  });

  it('moves the focus to Undo when the deleted memory’s button had it, and back in place on Undo', async () => {
    const api = mockFetch({
      'GET /api/v1/user_memory/': json(200, [
        memoryItem('a', { text: 'Lives in Lisbon' }),
        memoryItem('b', { text: 'Is vegetarian', source_message_id: 'm2' }),
      ]),
      'DELETE /api/v1/user_memory/b': new Response(null, { status: 204 }),
      'POST /api/v1/user_memory/b/restore': json(200, memoryItem('b', { text: 'Is vegetarian', source_message_id: 'm2' })),
    });
    open();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete: Is vegetarian' }));
    const undo = await screen.findByRole('button', { name: 'Undo' });
    expect(screen.queryByText('Is vegetarian')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(undo));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Is vegetarian')).toBeTruthy();
    await waitFor(() => expect(api.called('POST /api/v1/user_memory/b/restore')).toHaveLength(1));
  });
});
