import { describe, expect, it } from 'vitest';
import { chatMessage } from '../../../test/builders';
import { activeEnd, activeHistory, latestLeafFrom, siblingsOf, toDisplayMessage, type DisplayMessage } from './history';
import { createSseParser } from './sse';

let clock = 0;
const msg = (id: string, previous: string | null, sender = 'user'): DisplayMessage =>
  toDisplayMessage(
    chatMessage(id, { chat_id: 'c', sender, previous_message_id: previous, created_at: new Date(2025, 0, 1, 0, 0, clock++).toISOString() }),
  );

// u1 → a1 → u2 → a2 ; u1 → a1b (regenerated) ; u2b (edit of u2) → a2b
const all = [
  msg('u1', null),
  msg('a1', 'u1', 'assistant'),
  msg('u2', 'a1'),
  msg('a2', 'u2', 'assistant'),
  msg('a1b', 'u1', 'assistant'),
  msg('u2b', 'a1'),
  msg('a2b', 'u2b', 'assistant'),
];

describe('active history and branches (section 3)', () => {
  it('walks back from the last active message', () => {
    expect(activeHistory(all, 'a2').map((m) => m.id)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(activeHistory(all, 'a2b').map((m) => m.id)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    expect(activeHistory(all, 'a1b').map((m) => m.id)).toEqual(['u1', 'a1b']);
  });

  it("ends the branch where the newest page does when that is further down the list's branch, else where the list says", () => {
    // The list was read before the reply to u2 was stored, the page after: the page's end is newer.
    expect(activeEnd(all, 'u2', 'a2')).toBe('a2');
    expect(activeEnd(all, 'u1', 'a2')).toBe('a2');
    // The page's end on another branch (a switch to a2b not read again yet): the list's.
    expect(activeEnd(all, 'a2b', 'a2')).toBe('a2b');
    expect(activeEnd(all, 'a1b', 'a2')).toBe('a1b');
    // One of them unknown, or the same.
    expect(activeEnd(all, 'a2', 'a2')).toBe('a2');
    expect(activeEnd(all, undefined, 'a2')).toBe('a2');
    expect(activeEnd(all, 'u2', null)).toBe('u2');
    // A page's end not among the messages read (nothing to walk): the list's.
    expect(activeEnd(all, 'u2', 'gone')).toBe('u2');
  });

  it('without a known last active message, follows the newest leaf', () => {
    expect(activeHistory(all, null).map((m) => m.id)).toEqual(['u1', 'a1', 'u2b', 'a2b']);
    expect(activeHistory([], null)).toEqual([]);
  });

  it('lists the versions of a message and finds where a branch leads', () => {
    expect(siblingsOf(all[2], all).map((m) => m.id)).toEqual(['u2', 'u2b']);
    expect(siblingsOf(all[1], all).map((m) => m.id)).toEqual(['a1', 'a1b']);
    expect(latestLeafFrom('u2', all)).toBe('a2');
    expect(latestLeafFrom('a1', all)).toBe('a2b');
  });

  it('shows messages in the display shape', () => {
    expect(all[0]).toMatchObject({ id: 'u1', text: 'u1', isUser: true, files: [], verbose_feedback: null });
    expect(all[1].isUser).toBe(false);
  });
});

describe('text/event-stream parsing', () => {
  it('reads events split anywhere, with CRLF, comments and multi-line data', () => {
    const seen: { event: string; data: string }[] = [];
    const parser = createSseParser((m) => seen.push(m));
    const stream = [
      ': keep-alive\r\n\r\n',
      'event: text\r\ndata: {"delta":"Hel"}\r\n\r\n',
      'event: text\ndata: {"delta":"lo"}\n\n',
      'event: error\ndata: line one\ndata: line two\n\n',
      'event: done\ndata: {}\n\n',
    ].join('');
    for (let i = 0; i < stream.length; i += 3) parser.push(stream.slice(i, i + 3));
    parser.end();
    expect(seen).toEqual([
      { event: 'text', data: '{"delta":"Hel"}' },
      { event: 'text', data: '{"delta":"lo"}' },
      { event: 'error', data: 'line one\nline two' },
      { event: 'done', data: '{}' },
    ]);
  });
});
