import type { Conversation, Message, MessagePage, MessageVersions } from '@app/contracts/chat';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { chatMessage } from '../../../test/builders';
import { json, mockFetch } from '../../../test/fetchMock';
import { testQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { replyStore, useReplyDraft } from '../state/replyStore';
import { toDisplayMessage } from '../utils/history';
import { placesOf, serverVersions } from '../utils/messageRows';
import { messagesKey, messagesOfPages, type MessagePages } from './chatQueries';
import { useConversationView } from './useConversationView';
import { useReplyActions } from './useReplyActions';

const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString();

/**
 * u0 → a0 → u1 (its reply failed) → u2 → a2 → … → u25 → a25: the newest page (50 messages) begins
 * with the reply a0, whose question u0 is on the page before it. a0 has an older version, a0old,
 * on a branch never read.
 */
function conversationTree() {
  const chain: Message[] = [];
  const add = (id: string, sender: 'user' | 'assistant') =>
    chain.push(chatMessage(id, { sender, previous_message_id: chain.at(-1)?.message_id ?? null, created_at: at(10 + chain.length) }));
  add('u0', 'user');
  add('a0', 'assistant');
  add('u1', 'user');
  for (let k = 2; k <= 25; k++) {
    add(`u${k}`, 'user');
    add(`a${k}`, 'assistant');
  }
  const a0old = chatMessage('a0old', { sender: 'assistant', previous_message_id: 'u0', created_at: at(5) });
  return { chain, a0old };
}

/** An SSE response whose events the test writes as it goes. */
function openStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    send: (event: string, data: unknown) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)),
    end: () => controller.close(),
  };
}

describe('regenerating a reply of a conversation read a page at a time', () => {
  beforeEach(() => {
    replyStore.reset();
    signedIn();
  });

  it('starts at once on the oldest reply read (its question not read), and shows the versions the server counts once stored', async () => {
    const { chain, a0old } = conversationTree();
    const a0new = chatMessage('a0new', { sender: 'assistant', previous_message_id: 'u0', content: 'Again', created_at: at(90) });
    let branch = chain;
    let lastActive = 'a25';
    const versionsOfA0 = () =>
      [a0old, chain[1], ...(branch === chain ? [] : [a0new])].map((m) => ({
        message_id: m.message_id,
        leaf_id: m === chain[1] ? 'a25' : m.message_id,
      }));
    /** The versions of the messages of a page that has a0 or a0new, as the chat service counts them. */
    const versionsIn = (messages: Message[]): MessageVersions[] =>
      messages
        .filter((m) => m.previous_message_id === 'u0' && m.sender === 'assistant')
        .map((m) => ({ message_id: m.message_id, versions: versionsOfA0() }));
    const stream = openStream();
    const api = mockFetch({
      'GET /api/v1/chats/': () =>
        json(200, [
          {
            chat_id: 'c1',
            conversation_title: 'Long',
            last_message_timestamp: null,
            last_active_message_id: lastActive,
            is_commercial: false,
            temporary: false,
            expires_at: null,
            project_id: null,
            created_at: at(0),
          } satisfies Conversation,
        ]),
      'GET /api/v1/chats/c1/messages': ({ url }) => {
        const query = new URL(url, window.location.href).searchParams;
        const limit = Number(query.get('limit'));
        const cursor = query.get('before') ?? query.get('through');
        const end = query.get('before')
          ? branch.findIndex((m) => m.message_id === cursor)
          : query.get('through')
            ? branch.findIndex((m) => m.message_id === cursor) + 1
            : branch.length;
        const start = Math.max(0, end - limit);
        const messages = branch.slice(start, end);
        const page: MessagePage = {
          messages,
          versions: versionsIn(messages),
          has_more: start > 0,
          leaf_id: query.get('before') ? null : lastActive,
          replying: null,
        };
        return json(200, page);
      },
      'POST /api/v1/messages/u0/regenerate': () => stream.response,
    });
    const client = testQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/chat/c1']}>{children}</MemoryRouter>
      </QueryClientProvider>
    );
    const { result } = renderHook(
      () => {
        const draft = useReplyDraft('c1');
        const view = useConversationView('c1', draft);
        const reply = useReplyActions({ chatId: 'c1', history: view.history, draft, onStart: () => undefined });
        return { view, reply };
      },
      { wrapper },
    );
    await waitFor(() => expect(result.current.view.history).toHaveLength(50));
    const oldest = result.current.view.history[0];
    expect(oldest.id).toBe('a0');
    const reads = () => api.called('GET /api/v1/chats/c1/messages').map((c) => c.url);

    // Asked at once, without the page that holds its question.
    act(() => result.current.reply.regenerate(oldest));
    await waitFor(() => expect(api.called('POST /api/v1/messages/u0/regenerate')).toHaveLength(1));
    expect(reads().some((url) => url.includes('before='))).toBe(false);
    expect(replyStore.get().draft).toMatchObject({ regenerateOf: 'u0', streaming: true });
    // Nothing read comes before the question answered again: the reply streams alone.
    await waitFor(() => expect(result.current.view.visible).toEqual([]));

    // Stored: the server's branch now ends with it; a0 had two versions, it is the third.
    const dismissed: (ReturnType<typeof placesOf> | null)[] = [];
    const unsubscribe = replyStore.subscribe(() => {
      if (replyStore.get().draft || dismissed.length) return;
      // What the list shows at the moment the stored reply replaces the draft.
      const data = client.getQueryData<MessagePages>(messagesKey('c1'));
      dismissed.push(data ? placesOf(messagesOfPages(data).map(toDisplayMessage), serverVersions(data.pages)) : null);
    });
    branch = [chain[0], a0new];
    lastActive = 'a0new';
    stream.send('user_message', chain[0]);
    stream.send('text', { delta: 'Again' });
    stream.send('assistant_message', a0new);
    stream.send('done', {});
    stream.end();
    await waitFor(() => expect(dismissed).toHaveLength(1));
    unsubscribe();
    expect(reads()).toContain('/api/v1/chats/c1/messages?through=a0new&limit=2');
    expect(dismissed[0]?.get('a0new')).toMatchObject({ index: 2, count: 3 });

    // Once the history is read again, the branch is the new one, counted the same.
    await waitFor(() => expect(result.current.view.history.map((m) => m.id)).toEqual(['u0', 'a0new']));
    expect(placesOf(result.current.view.all, result.current.view.versions).get('a0new')).toMatchObject({ index: 2, count: 3 });
  });
});
