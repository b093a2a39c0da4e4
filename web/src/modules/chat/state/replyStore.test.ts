import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chatMessage } from '../../../test/builders';
import { mockFetch } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { conversationsKey, messagesKey, messagesOfPages, type MessagePages } from '../hooks/chatQueries';
import { dismissDraft, replyStore, sendMessage, TITLE_REFETCH_DELAYS_MS } from './replyStore';

const message = (id: string, sender: string, previous: string | null, content = '') =>
  chatMessage(id, { sender, previous_message_id: previous, content, metadata: { provider: 'offline' } });

function sse(events: [string, unknown][]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const [event, data] of events) controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('the reply stream', () => {
  beforeEach(() => {
    replyStore.reset();
    signedIn();
  });

  it('applies the events, batches text deltas per frame, and leaves the stored messages in the cache', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const client = new QueryClient();
    client.setQueryData(conversationsKey, [
      {
        chat_id: 'c1',
        conversation_title: null,
        last_message_timestamp: null,
        last_active_message_id: null,
        is_commercial: false,
        created_at: '',
      },
    ]);
    const sets = vi.spyOn(replyStore, 'set');
    const api = mockFetch({
      'POST /api/v1/chats/c1/messages': () =>
        sse([
          ['user_message', message('u1', 'user', null, 'Hi')],
          ['phase', { phase: 'thinking' }],
          ...Array.from({ length: 50 }, (): [string, unknown] => ['text', { delta: 'word ' }]),
          ['assistant_message', message('a1', 'assistant', 'u1', 'word '.repeat(50))],
          ['done', {}],
        ]),
    });
    const running = sendMessage(client, 'c1', 'Hi', null);
    expect(replyStore.get().draft).toMatchObject({ chatId: 'c1', pendingUserText: 'Hi', streaming: true });
    await running;
    expect(JSON.parse(api.called('POST /api/v1/chats/c1/messages')[0].body!)).toEqual({ content: 'Hi', previous_message_id: null });
    // 50 deltas did not mean 50 renders: they were flushed together.
    const textUpdates = sets.mock.calls.filter(() => true).length;
    expect(textUpdates).toBeLessThan(20);
    expect(messagesOfPages(client.getQueryData<MessagePages>(messagesKey('c1'))).map((m) => m.message_id)).toEqual(['u1', 'a1']);
    expect(client.getQueryData<{ last_active_message_id: string }[]>(conversationsKey)?.[0].last_active_message_id).toBe('a1');
    expect(replyStore.get().draft).toBeNull();
  });

  it('keeps the draft with the error when the call fails before streaming', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ detail: "You have reached today's limit of 50 messages for guests. Sign in to keep chatting." }), {
            status: 429,
          }),
      ),
    );
    await sendMessage(new QueryClient(), 'c1', 'Hi', null);
    expect(replyStore.get().draft).toMatchObject({
      streaming: false,
      error: "You have reached today's limit of 50 messages for guests. Sign in to keep chatting.",
    });
  });

  describe('the conversation list after a reply (another tab, a new title, the order)', () => {
    const listed = () => {
      const client = new QueryClient();
      client.setQueryData(conversationsKey, []);
      return client;
    };
    const invalidated = (client: QueryClient) => client.getQueryState(conversationsKey)?.isInvalidated;
    /** The reply stream the server sends to the message. */
    const answerWith = (reply: () => Response) => mockFetch({ 'POST /api/v1/chats/c1/messages': reply });
    const HELLO: [string, unknown][] = [
      ['user_message', message('u1', 'user', null, 'Hi')],
      ['assistant_message', message('a1', 'assistant', 'u1', 'Hello')],
      ['done', {}],
    ];

    it('is fetched again when the reply is done', async () => {
      const client = listed();
      answerWith(() => sse(HELLO));
      expect(invalidated(client)).toBe(false);
      await sendMessage(client, 'c1', 'Hi', null);
      expect(invalidated(client)).toBe(true);
    });

    it('is fetched again when the reply ends with an error', async () => {
      const client = listed();
      answerWith(() =>
        sse([
          ['user_message', message('u1', 'user', null, 'Hi')],
          ['error', { detail: 'The model did not answer.' }],
        ]),
      );
      await sendMessage(client, 'c1', 'Hi', null);
      expect(replyStore.get().draft?.error).toBe('The model did not answer.');
      expect(invalidated(client)).toBe(true);
    });

    it('is asked again after 2 s and 8 s while the conversation has no title yet (it is named after done), and not once it has one', async () => {
      const client = new QueryClient();
      const listing = (title: string | null) => [
        { chat_id: 'c1', conversation_title: title, last_message_timestamp: null, last_active_message_id: null, is_commercial: false },
      ];
      client.setQueryData(conversationsKey, listing(null));
      answerWith(() => sse(HELLO));
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        await sendMessage(client, 'c1', 'Hi', null);
        client.setQueryData(conversationsKey, listing(null)); // fetched again at done: still untitled
        expect(invalidated(client)).toBe(false);
        vi.advanceTimersByTime(TITLE_REFETCH_DELAYS_MS[0]);
        expect(invalidated(client)).toBe(true);
        client.setQueryData(conversationsKey, listing('Greetings')); // the title arrived
        vi.advanceTimersByTime(TITLE_REFETCH_DELAYS_MS[1]);
        expect(invalidated(client)).toBe(false);
      } finally {
        vi.useRealTimers();
      }
    });

    it('is fetched again when the draft was dismissed before the end', async () => {
      const client = listed();
      answerWith(() => {
        dismissDraft();
        return sse(HELLO);
      });
      await sendMessage(client, 'c1', 'Hi', null);
      expect(invalidated(client)).toBe(true);
    });
  });
});
