import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { hitPath } from '../hooks/useConversationSearch';
import { Highlighted } from './Highlighted';

describe('Highlighted', () => {
  it('marks the given ranges and keeps the rest as text', () => {
    const { container } = render(
      <Highlighted
        text="We ate at the Café, two cafés"
        highlights={[
          { start: 14, end: 18 },
          { start: 24, end: 29 },
        ]}
      />,
    );
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['Café', 'cafés']);
    expect(container.textContent).toBe('We ate at the Café, two cafés');
  });

  it('skips ranges out of bounds, empty or overlapping an earlier one', () => {
    const { container } = render(
      <Highlighted
        text="quokka"
        highlights={[
          { start: 0, end: 3 },
          { start: 2, end: 4 },
          { start: 5, end: 5 },
          { start: 4, end: 99 },
        ]}
      />,
    );
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['quo']);
    expect(container.textContent).toBe('quokka');
  });
});

describe('hitPath', () => {
  it('leads to the message (scrolled to and marked), or to the conversation for a title', () => {
    const hit = {
      chat_id: 'c1',
      conversation_title: 't',
      project_id: null,
      message_id: 'm1',
      sender: 'user',
      snippet: '',
      highlights: [],
      title_highlights: [],
      created_at: '',
    };
    expect(hitPath(hit)).toBe('/chat/c1#message-m1');
    expect(hitPath({ ...hit, message_id: null })).toBe('/chat/c1');
  });
});
