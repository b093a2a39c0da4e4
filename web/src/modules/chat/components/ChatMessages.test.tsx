import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessage, replyDraft } from '../../../test/builders';
import type { ReplyDraft } from '../state/replyStore';
import { askKey, keepRowKey, replyKey } from '../state/rowKeys';
import { toDisplayMessage, type DisplayMessage } from '../utils/history';
import { ChatMessages } from './ChatMessages';

const user = chatMessage('u1', { content: 'Tell me' });
const reply = chatMessage('a1', { sender: 'assistant', previous_message_id: 'u1', content: 'Here **it** is.\n\n- one\n- two' });

function List({
  visible,
  pendingUser,
  draft,
}: {
  visible: DisplayMessage[];
  pendingUser: DisplayMessage | null;
  draft: ReplyDraft | null;
}) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  return (
    <div ref={setScroller}>
      <ChatMessages
        chatId="c1"
        visible={visible}
        all={visible}
        versions={new Map()}
        pendingUser={pendingUser}
        draft={draft}
        linked={{ target: null, highlighted: null, marks: null }}
        onEdit={() => undefined}
        onRegenerate={() => undefined}
        onRetry={() => undefined}
        scroller={scroller}
      />
    </div>
  );
}

describe('the reply streaming, then stored', () => {
  // jsdom lays nothing out: the scroll area gets a size, so that the list renders the rows in view.
  const sizes = ['clientHeight', 'clientWidth'] as const;
  beforeAll(() => {
    for (const size of sizes) Object.defineProperty(HTMLElement.prototype, size, { configurable: true, get: () => 800 });
  });
  afterAll(() => {
    for (const size of sizes) Reflect.deleteProperty(HTMLElement.prototype, size);
  });

  it('keeps its elements when the stored message replaces the draft (no rebuild of the reply)', async () => {
    const client = new QueryClient();
    const wrap = (node: ReactNode) => <QueryClientProvider client={client}>{node}</QueryClientProvider>;
    const draft = replyDraft({ id: 'd1', userMessage: user, text: reply.content, streaming: false });
    const view = render(wrap(<List visible={[]} pendingUser={toDisplayMessage(user)} draft={draft} />));
    const streaming = await view.findByRole('article', { name: 'The assistant is replying' });
    // The markdown renderer is loaded on demand: until then the text shows as it is.
    await waitFor(() => expect(view.container.querySelector('.message--draft li')?.textContent).toBe('one'));
    const item = view.container.querySelector('.message--draft li');

    // What the reply stream does as the messages are stored, then the draft dropped.
    keepRowKey('u1', askKey('d1'));
    keepRowKey('a1', replyKey('d1'));
    view.rerender(wrap(<List visible={[toDisplayMessage(user), toDisplayMessage(reply)]} pendingUser={null} draft={null} />));
    const stored = await view.findByRole('article', { name: 'The assistant said' });
    expect(stored).toBe(streaming);
    expect(stored.classList.contains('message--draft')).toBe(false);
    expect(stored.querySelector('li')).toBe(item);
  });
});
