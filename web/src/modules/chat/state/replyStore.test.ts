import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { registeredUser } from '../../../test/fetchMock';
import { authStore } from '../../auth/state/authStore';
import { conversationsKey, messagesKey } from '../hooks/chatQueries';
import { replyStore, sendMessage } from './replyStore';

const message = (id: string, sender: string, previous: string | null, content = '') => ({ message_id: id, chat_id: 'c1', content, sender, author_user_id: null, expert_id: null, expert_name: null, feedback: null, hidden: false, previous_message_id: previous, metadata: { provider: 'offline' }, created_at: '2025-01-01T00:00:00Z' });

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
    authStore.reset();
    authStore.set({ isLoading: false, isLoggedIn: true, accessToken: 't', user: registeredUser });
  });

  it('applies the events, batches text deltas per frame, and leaves the stored messages in the cache', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const client = new QueryClient();
    client.setQueryData(conversationsKey, [{ chat_id: 'c1', conversation_title: null, last_message_timestamp: null, last_active_message_id: null, is_commercial: false, created_at: '' }]);
    const sets = vi.spyOn(replyStore, 'set');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        expect(JSON.parse(String(init.body))).toEqual({ content: 'Hi', previous_message_id: null });
        return sse([
          ['user_message', message('u1', 'user', null, 'Hi')],
          ['phase', { phase: 'thinking' }],
          ...Array.from({ length: 50 }, (): [string, unknown] => ['text', { delta: 'word ' }]),
          ['assistant_message', message('a1', 'assistant', 'u1', 'word '.repeat(50))],
          ['done', {}],
        ]);
      }),
    );
    const running = sendMessage(client, 'c1', 'Hi', null);
    expect(replyStore.get().draft).toMatchObject({ chatId: 'c1', pendingUserText: 'Hi', streaming: true });
    await running;
    // 50 deltas did not mean 50 renders: they were flushed together.
    const textUpdates = sets.mock.calls.filter(() => true).length;
    expect(textUpdates).toBeLessThan(20);
    expect(client.getQueryData<{ message_id: string }[]>(messagesKey('c1'))?.map((m) => m.message_id)).toEqual(['u1', 'a1']);
    expect(client.getQueryData<{ last_active_message_id: string }[]>(conversationsKey)?.[0].last_active_message_id).toBe('a1');
    expect(replyStore.get().draft).toBeNull();
  });

  it('keeps the draft with the error when the call fails before streaming', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ detail: "You have reached today's limit of 50 messages for guests. Sign in to keep chatting." }), { status: 429 })));
    await sendMessage(new QueryClient(), 'c1', 'Hi', null);
    expect(replyStore.get().draft).toMatchObject({ streaming: false, error: "You have reached today's limit of 50 messages for guests. Sign in to keep chatting." });
  });
});
