import { describe, expect, it } from 'vitest';
import { chatMessage, replyDraft } from '../../../test/builders';
import { askKey, keepRowKey, replyKey } from '../state/rowKeys';
import { toDisplayMessage } from './history';
import { branchPlaces, estimateRowHeight, messageRows } from './messageRows';

const message = (id: string, previous: string | null, sender = 'user', created = '2025-01-01T00:00:00Z') =>
  toDisplayMessage(chatMessage(id, { sender, previous_message_id: previous, created_at: created }));

describe('the rows of a conversation', () => {
  it('places each message among its versions, oldest first, and leaves single ones out', () => {
    const all = [
      message('u1', null),
      message('a1', 'u1', 'assistant', '2025-01-01T00:00:01Z'),
      message('a1b', 'u1', 'assistant', '2025-01-01T00:00:03Z'),
      message('a1c', 'u1', 'assistant', '2025-01-01T00:00:02Z'),
    ];
    const places = branchPlaces(all);
    expect(places.get('u1')).toBeUndefined();
    expect([places.get('a1'), places.get('a1c'), places.get('a1b')]).toEqual([
      { index: 0, count: 3 },
      { index: 1, count: 3 },
      { index: 2, count: 3 },
    ]);
  });

  it('gives the exchange streaming keys of its own, which its stored messages then keep', () => {
    const draft = replyDraft({ id: 'd1' });
    const sending = message('pending', 'a0');
    const streaming = messageRows([message('a0', null, 'assistant')], new Map(), sending, draft);
    expect(streaming.map((row) => [row.kind, row.key])).toEqual([
      ['message', 'a0'],
      ['sending', askKey('d1')],
      ['draft', replyKey('d1')],
    ]);
    keepRowKey('u9', askKey('d1'));
    keepRowKey('a9', replyKey('d1'));
    const stored = messageRows(
      [message('a0', null, 'assistant'), message('u9', 'a0'), message('a9', 'u9', 'assistant')],
      new Map(),
      null,
      null,
    );
    expect(stored.map((row) => row.key)).toEqual(streaming.map((row) => row.key));
  });

  it('guesses a taller row for a longer reply', () => {
    const short = { kind: 'message', key: 'a', message: message('a', null, 'assistant') } as const;
    const long = { ...short, message: { ...short.message, text: 'line\n'.repeat(40) } };
    expect(estimateRowHeight(long)).toBeGreaterThan(estimateRowHeight(short));
  });
});
