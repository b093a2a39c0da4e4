import type { Message } from '@app/contracts/chat';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { SharedConversation } from '../modules/chat/api/chatApi';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatMessage } from '../test/builders';
import { json, mockFetch } from '../test/fetchMock';
import { signedInAsGuest } from '../test/session';
import { SharedChatPage } from './SharedChatPage';

/** A conversation of `count` messages, the user's and the assistant's in turn, one a minute: m0 → m1 → … */
function conversation(count: number, patch: (index: number) => Partial<Message> = () => ({})): Message[] {
  return Array.from({ length: count }, (_, i) =>
    chatMessage(`m${i}`, {
      sender: i % 2 ? 'assistant' : 'user',
      content: `Message number ${i}`,
      previous_message_id: i ? `m${i - 1}` : null,
      created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
      ...patch(i),
    }),
  );
}

/** The share's page as the server answers it: `limit` messages from the first, or after `after` (the branch as `branch()` says now). */
function openShare(initial: Message[], branch: () => Message[] = () => initial) {
  const fetched = mockFetch({
    'GET /api/v1/shared/s1': ({ url }) => {
      const query = new URL(url, window.location.href).searchParams;
      const after = query.get('after');
      const limit = Number(query.get('limit') ?? 50);
      const messages = branch();
      const start = after ? messages.findIndex((m) => m.message_id === after) + 1 : 0;
      if (after && start === 0) return json(404, { detail: 'Message not found' });
      const page: SharedConversation = {
        share_id: 's1',
        conversation_title: 'Planning the garden',
        messages: messages.slice(start, start + limit),
        has_more: start + limit < messages.length,
        shared_at: '2025-03-04T10:00:00Z',
      };
      return json(200, page);
    },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/share/:shareId', element: <SharedChatPage /> }], { initialEntries: ['/share/s1'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return fetched;
}

const articles = () => screen.queryAllByRole('article');
/** The reader scrolls to near the end of the first page read (50 rows of 100 px in an 800 px view). */
function scrollNearTheEnd() {
  const scroller = document.querySelector<HTMLElement>('.chat__scroll')!;
  scroller.scrollTop = 4_600;
  fireEvent.scroll(scroller);
}
const texts = () => articles().map((article) => article.textContent ?? '');
/** Which of the conversation's messages are shown, by their number. */
const shownNumbers = () => texts().map((text) => Number(text.match(/Message number (\d+)/)?.[1]));

describe('the shared conversation page', () => {
  // jsdom lays nothing out: the scroll area gets a size, so that the list renders the rows in view,
  // and each row measures 100 px (else every row would measure 0 and all would be in view).
  const sizes = ['clientHeight', 'clientWidth', 'offsetHeight'] as const;
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 800 });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 800 });
    Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('messages__row') ? 100 : 0;
      },
    });
  });
  afterAll(() => {
    for (const size of sizes) Reflect.deleteProperty(HTMLElement.prototype, size);
  });
  beforeEach(() => signedInAsGuest());

  it('reads a long conversation in pages from its first message, renders a window of it, with the notice and the link', async () => {
    const { called } = openShare(conversation(500));
    // The replies' text shows once the markdown renderer (loaded on demand) is there.
    await screen.findByText('Message number 49', {}, { timeout: 5000 });
    expect(screen.getByRole('heading', { name: 'Planning the garden' })).toBeTruthy();
    expect(screen.getByText(/^A read-only copy shared on /)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start your own conversation' }).getAttribute('href')).toBe('/chat');

    // One page read (50 messages); the first messages and the last two read (always kept) rendered,
    // not 50 (where it opens: the browser suite).
    expect(called('GET /api/v1/shared/s1').map((c) => c.url)).toEqual(['/api/v1/shared/s1?limit=50']);
    expect(articles().length).toBeGreaterThan(2);
    expect(articles().length).toBeLessThan(40);
    expect(texts().some((text) => text.includes('Message number 1'))).toBe(true);
    expect(texts().some((text) => text.includes('Message number 25'))).toBe(false);
    expect(texts().at(-1)).toContain('Message number 49');

    // The reader nears the end of what is read: the next page comes below it.
    scrollNearTheEnd();
    await screen.findByText('Message number 99', {}, { timeout: 5000 });
    expect(called('GET /api/v1/shared/s1').map((c) => c.url)).toEqual([
      '/api/v1/shared/s1?limit=50',
      '/api/v1/shared/s1?limit=50&after=m49',
    ]);
    expect(texts().some((text) => text.includes('Message number 48'))).toBe(true);
    // Read-only: no edit, regenerate or feedback.
    const reply = articles().find((article) => article.textContent?.includes('Message number 49'))!;
    expect(within(reply).getByRole('button', { name: 'Copy reply' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit message' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Regenerate reply' })).toBeNull();
  });

  it('reads the share again from its start when a later page follows a message no longer on the branch', async () => {
    let branch = conversation(120);
    const { called } = openShare(branch, () => branch);
    await screen.findByText('Message number 49', {}, { timeout: 5000 });
    // The owner switches branches: the message the next page follows is not on the shared branch any more.
    branch = conversation(120, (i) => ({ message_id: `n${i}`, previous_message_id: i ? `n${i - 1}` : null, content: `Other number ${i}` }));
    scrollNearTheEnd();
    await screen.findByText('Other number 49', {}, { timeout: 5000 });
    expect(called('GET /api/v1/shared/s1').map((c) => c.url)).toEqual([
      '/api/v1/shared/s1?limit=50',
      '/api/v1/shared/s1?limit=50&after=m49',
      '/api/v1/shared/s1?limit=50',
    ]);
    expect(screen.queryByText('Message number 49')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when a later page could not be read, asks for it no more by scrolling, and reads it on "Try again"', async () => {
    const messages = conversation(120);
    let failures = 1;
    const fetched = openShare(messages, () => messages);
    await screen.findByText('Message number 49', {}, { timeout: 5000 });
    const serve = fetched.fetchMock.getMockImplementation()!;
    let later = 0;
    fetched.fetchMock.mockImplementation(async (input, init) => {
      if (!String(input).includes('after=')) return serve(input, init);
      later++;
      return failures-- > 0 ? json(503, { detail: 'The chat service is unavailable' }) : serve(input, init);
    });
    scrollNearTheEnd();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The rest of the conversation could not be loaded.');
    scrollNearTheEnd(); // scrolling on does not ask for it again
    expect(later).toBe(1);
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByText('Message number 99', {}, { timeout: 5000 });
    expect(later).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('leaves out hidden messages, and keeps the messages before one', async () => {
    openShare(conversation(6, (i) => (i === 2 ? { hidden: true, content: 'A hidden note' } : {})));
    await screen.findByText('Message number 5', {}, { timeout: 5000 });
    expect(screen.queryByText('A hidden note')).toBeNull();
    expect(shownNumbers()).toEqual([0, 1, 3, 4, 5]);
  });

  it('shows the branch as the server sends it, oldest first, though a hidden message it left out breaks the chain', async () => {
    openShare(conversation(6).filter((m) => m.message_id !== 'm2'));
    await screen.findByText('Message number 5', {}, { timeout: 5000 });
    expect(shownNumbers()).toEqual([0, 1, 3, 4, 5]);
  });
});
