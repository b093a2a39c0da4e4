import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient, listenForWindowFocus } from '../../../app/queryClient';
import { json, mockFetch } from '../../../test/fetchMock';
import { chatMessage, replyDraft } from '../../../test/builders';
import { signedIn } from '../../../test/session';
import { addMessages, prefetchOpenedConversation, useConversations } from './chatQueries';
import { useConversationView } from './useConversationView';

describe('the conversation list', () => {
  beforeEach(() => {
    signedIn();
  });

  it('is fetched again when the window is focused, though fetched seconds ago (a second tab is not stale)', async () => {
    listenForWindowFocus();
    let served = 0;
    const api = mockFetch({
      'GET /api/v1/chats/': () =>
        json(200, [
          {
            chat_id: `c${++served}`,
            conversation_title: null,
            last_message_timestamp: null,
            last_active_message_id: null,
            is_commercial: false,
            created_at: '',
          },
        ]),
    });
    // The app's defaults: data is fresh for 30 s and other queries do not refetch on focus.
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false, refetchOnWindowFocus: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useConversations(), { wrapper });
    await waitFor(() => expect(result.current.data?.[0].chat_id).toBe('c1'));
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(result.current.data?.[0].chat_id).toBe('c2'));
    act(() => {
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await waitFor(() => expect(result.current.data?.[0].chat_id).toBe('c3'));
    expect(api.called('GET /api/v1/chats/')).toHaveLength(3);
  });
});

describe("a conversation's messages, a page at a time", () => {
  // One branch of 120 messages, m0 … m119; m119 has a second version, m119b, whose branch ends at it.
  const chain = Array.from({ length: 120 }, (_, i) =>
    chatMessage(`m${i}`, { sender: i % 2 ? 'assistant' : 'user', previous_message_id: i ? `m${i - 1}` : null }),
  );
  const conversation = (lastActive: string) => ({
    chat_id: 'c1',
    conversation_title: 'Long',
    last_message_timestamp: null,
    last_active_message_id: lastActive,
    is_commercial: false,
    created_at: '',
  });

  beforeEach(() => {
    signedIn();
  });

  /** The server's pages of the chain: `limit` messages before `before` (or the newest), as the route answers. */
  function serve() {
    return mockFetch({
      'GET /api/v1/chats/': () => json(200, [conversation('m119')]),
      'GET /api/v1/chats/c1/messages': ({ url }) => {
        const query = new URL(url, window.location.href).searchParams;
        const end = query.get('before') ? Number(query.get('before')!.slice(1)) : chain.length;
        const limit = Number(query.get('limit'));
        const start = Math.max(0, end - limit);
        const versions =
          end === chain.length
            ? [
                {
                  message_id: 'm119',
                  versions: [
                    { message_id: 'm119b', leaf_id: 'm119b' },
                    { message_id: 'm119', leaf_id: 'm119' },
                  ],
                },
              ]
            : [];
        return json(200, {
          messages: chain.slice(start, end),
          versions,
          has_more: start > 0,
          leaf_id: query.get('before') ? null : 'm119',
        });
      },
      'GET /api/v1/chats/gone/messages': () => json(404, { detail: 'Conversation not found' }),
    });
  }

  const setup = () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    return { client, wrapper };
  };
  const ids = (messages: { id: string }[]) => messages.map((m) => m.id);

  it('opens on the newest page, reads older pages by the oldest message read, and stops at the start', async () => {
    const api = serve();
    const { wrapper } = setup();
    const { result } = renderHook(() => useConversationView('c1', null), { wrapper });
    await waitFor(() => expect(result.current.history).toHaveLength(50));
    expect(ids(result.current.history)).toEqual(ids(chain.slice(70).map((m) => ({ id: m.message_id }))));
    expect(api.calls.map((c) => c.url)).toContain('/api/v1/chats/c1/messages?limit=50');
    expect(result.current.older.more).toBe(true);
    expect(result.current.versions.get('m119')).toEqual({ index: 1, count: 2, leaves: ['m119b', 'm119'] });

    act(() => result.current.older.load());
    await waitFor(() => expect(result.current.history).toHaveLength(100));
    expect(api.calls.map((c) => c.url)).toContain('/api/v1/chats/c1/messages?before=m70&limit=50');
    act(() => result.current.older.load());
    await waitFor(() => expect(result.current.history).toHaveLength(120));
    expect(result.current.history[0].id).toBe('m0');
    expect(result.current.older.more).toBe(false);
    expect(api.called('GET /api/v1/chats/c1/messages')).toHaveLength(3);
  });

  it('puts a stored reply after the newest page read, and replaces a message read by its new version', async () => {
    serve();
    const { client, wrapper } = setup();
    const { result } = renderHook(() => useConversationView('c1', null), { wrapper });
    await waitFor(() => expect(result.current.history).toHaveLength(50));
    act(() => {
      addMessages(client, 'c1', [chatMessage('m120', { previous_message_id: 'm119' }), { ...chain[100], feedback: 'like' }]);
      client.setQueryData(['conversations'], [conversation('m120')]);
    });
    await waitFor(() => expect(result.current.history.at(-1)?.id).toBe('m120'));
    expect(result.current.history).toHaveLength(51);
    expect(result.current.history.find((m) => m.id === 'm100')?.feedback).toBe('like');
  });

  it('asks for the newest page of the conversation the app opens on as soon as the user is known, which the view then uses', async () => {
    const api = serve();
    // The app's client: what was read in the last 30 s is not read again on mounting.
    const client = createQueryClient({ queries: { retry: false } });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    expect(prefetchOpenedConversation(client, '/chat')).toBe(false);
    expect(prefetchOpenedConversation(client, '/settings/profile')).toBe(false);
    expect(prefetchOpenedConversation(client, '/chat/c1')).toBe(true);
    await waitFor(() => expect(api.called('GET /api/v1/chats/c1/messages')).toHaveLength(1));
    const { result } = renderHook(() => useConversationView('c1', null), { wrapper });
    await waitFor(() => expect(result.current.history).toHaveLength(50));
    expect(api.called('GET /api/v1/chats/c1/messages')).toHaveLength(1);
  });

  it('follows a reply being written elsewhere: shown as streaming with its text so far, read again until stored, stoppable', async () => {
    const question = chatMessage('u1', { sender: 'user', previous_message_id: null, content: 'Go on' });
    const stored = chatMessage('a1', { sender: 'assistant', previous_message_id: 'u1', content: 'Hello world' });
    const answers = [
      { messages: [question], replying: { message_id: 'a1', previous_message_id: 'u1', content: 'Hel' }, leaf_id: 'u1' },
      { messages: [question], replying: { message_id: 'a1', previous_message_id: 'u1', content: 'Hello wor' }, leaf_id: 'u1' },
      { messages: [question, stored], replying: null, leaf_id: 'a1' },
    ];
    let reads = 0;
    const api = mockFetch({
      // The conversation moves on to the reply once it is stored (the third read).
      'GET /api/v1/chats/': () => json(200, [conversation(reads >= answers.length ? 'a1' : 'u1')]),
      'GET /api/v1/chats/c1/messages': () =>
        json(200, { versions: [], has_more: false, ...answers[Math.min(reads++, answers.length - 1)] }),
      'POST /api/v1/messages/u1/stop': () => json(200, { stopped: true }),
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => useConversationView('c1', null), { wrapper });
    await waitFor(() => expect(result.current.draft?.text).toBe('Hel'));
    expect(result.current.draft).toMatchObject({ streaming: true, regenerateOf: 'u1', stopping: false });
    expect(ids(result.current.visible)).toEqual(['u1']);
    expect(result.current.pendingUser).toBeNull();
    // Stop, as the tab that holds it would: the server is asked, the page read again.
    await act(() => result.current.stopElsewhere());
    expect(api.called('POST /api/v1/messages/u1/stop')).toHaveLength(1);
    await waitFor(() => expect(result.current.draft?.text).toBe('Hello wor'));
    expect(result.current.draft?.stopping).toBe(true);
    // Read again on its own (every 1.5 s) until stored: then the stored reply ends the branch.
    await waitFor(() => expect(result.current.draft).toBeNull(), { timeout: 5_000 });
    expect(ids(result.current.history)).toEqual(['u1', 'a1']);
    expect(result.current.history[1].text).toBe('Hello world');
    const settled = api.called('GET /api/v1/chats/c1/messages').length;
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    expect(api.called('GET /api/v1/chats/c1/messages')).toHaveLength(settled);
  });

  it('follows another version of the last reply being written elsewhere (a regenerate): the old one hidden meanwhile, the new one then the branch', async () => {
    const question = chatMessage('u1', { sender: 'user', previous_message_id: null, content: 'Go on' });
    const first = chatMessage('a1', { sender: 'assistant', previous_message_id: 'u1', content: 'Hello world' });
    const second = chatMessage('a2', { sender: 'assistant', previous_message_id: 'u1', content: 'Hi there, world' });
    const versions = [
      {
        message_id: 'a2',
        versions: [
          { message_id: 'a1', leaf_id: 'a1' },
          { message_id: 'a2', leaf_id: 'a2' },
        ],
      },
    ];
    const answers = [
      {
        messages: [question, first],
        versions: [],
        replying: { message_id: 'a2', previous_message_id: 'u1', content: 'Hi th' },
        leaf_id: 'a1',
      },
      { messages: [question, second], versions, replying: null, leaf_id: 'a2' },
    ];
    let reads = 0;
    const api = mockFetch({
      'GET /api/v1/chats/': () => json(200, [conversation(reads >= answers.length ? 'a2' : 'a1')]),
      'GET /api/v1/chats/c1/messages': () => json(200, { has_more: false, ...answers[Math.min(reads++, answers.length - 1)] }),
      'POST /api/v1/messages/u1/stop': () => json(200, { stopped: true }),
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => useConversationView('c1', null), { wrapper });
    await waitFor(() => expect(result.current.draft?.text).toBe('Hi th'));
    expect(result.current.draft).toMatchObject({ streaming: true, regenerateOf: 'u1', previousMessageId: null });
    expect(ids(result.current.visible)).toEqual(['u1']);
    // Its Stop asks for the reply to the user message to stop (what the server stops by).
    await act(() => result.current.stopElsewhere());
    expect(api.called('POST /api/v1/messages/u1/stop')).toHaveLength(1);
    await waitFor(() => expect(result.current.draft).toBeNull(), { timeout: 5_000 });
    expect(ids(result.current.history)).toEqual(['u1', 'a2']);
  });

  it('shows a reply stored after the list was read (the list one message behind the page), as the app starting mid-reply meets it', async () => {
    const question = chatMessage('u1', { sender: 'user', previous_message_id: null, content: 'Go on' });
    const stored = chatMessage('a1', { sender: 'assistant', previous_message_id: 'u1', content: 'Hello world' });
    mockFetch({
      'GET /api/v1/chats/': () => json(200, [conversation('u1')]),
      'GET /api/v1/chats/c1/messages': () =>
        json(200, { versions: [], has_more: false, messages: [question, stored], replying: null, leaf_id: 'a1' }),
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => useConversationView('c1', null), { wrapper });
    await waitFor(() => expect(ids(result.current.history)).toEqual(['u1', 'a1']));
    expect(result.current.draft).toBeNull();
  });

  it("never shows one being written elsewhere over this page's own reply, nor reads again for it", async () => {
    const question = chatMessage('u1', { sender: 'user', previous_message_id: null, content: 'Go on' });
    const api = mockFetch({
      'GET /api/v1/chats/': () => json(200, [conversation('u1')]),
      'GET /api/v1/chats/c1/messages': () =>
        json(200, {
          versions: [],
          has_more: false,
          messages: [question],
          replying: { message_id: 'a1', previous_message_id: 'u1', content: 'Hel' },
          leaf_id: 'u1',
        }),
    });
    const { wrapper } = setup();
    const own = replyDraft({ chatId: 'c1', regenerateOf: 'u1', text: 'Hello', streaming: true });
    const { result } = renderHook(() => useConversationView('c1', own), { wrapper });
    await waitFor(() => expect(api.called('GET /api/v1/chats/c1/messages')).toHaveLength(1));
    expect(result.current.draft).toBe(own);
    await new Promise((resolve) => setTimeout(resolve, 1_700));
    expect(api.called('GET /api/v1/chats/c1/messages')).toHaveLength(1);
  });

  it("is a conversation not found when it is not the caller's (404), not a failure", async () => {
    const api = serve();
    const { wrapper } = setup();
    const { result } = renderHook(() => useConversationView('gone', null), { wrapper });
    await waitFor(() => expect(result.current.notFound).toBe(true));
    expect(result.current.history).toEqual([]);
    expect(api.called('GET /api/v1/chats/gone/messages')).toHaveLength(1);
  });
});
