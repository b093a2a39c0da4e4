import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SpeechChunker } from './chunker';

const S1 = 'The first sentence is here and it is long enough to be spoken on its own without any doubt at all.'; // 100+ chars
const S2 = 'A second one follows it.';

function make(minChars = 20) {
  const chunks: string[] = [];
  const restarts: number[] = [];
  const chunker = new SpeechChunker({ minChars, onChunk: (t) => chunks.push(t), onRestart: () => restarts.push(chunks.length) });
  return { chunker, chunks, restarts };
}

describe('SpeechChunker (spec 4 and 9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('appends text that extends the current text and cuts at sentence ends (. ! ? ;)', () => {
    const { chunker, chunks, restarts } = make(10);
    chunker.update('Hello there, my friend. How are');
    expect(chunks).toEqual(['Hello there, my friend.']);
    chunker.update('Hello there, my friend. How are you doing! Fine? Yes; and more ');
    expect(chunks).toEqual(['Hello there, my friend.', 'How are you doing!', 'Fine? Yes;']);
    expect(restarts).toEqual([]);
  });

  it('does not cut inside a number or at a sentence end with nothing after it yet', () => {
    const { chunker, chunks } = make(5);
    chunker.update('Pi is 3.14 exactly');
    chunker.update('Pi is 3.14 exactly.');
    expect(chunks).toEqual([]);
    chunker.update('Pi is 3.14 exactly. Then');
    expect(chunks).toEqual(['Pi is 3.14 exactly.']);
  });

  it('stops and starts over when the text is completely different', () => {
    const { chunker, chunks, restarts } = make(10);
    chunker.update('One sentence that is spoken. Two');
    expect(chunks).toEqual(['One sentence that is spoken.']);
    chunker.update('Something else entirely now. More');
    expect(restarts).toEqual([1]);
    expect(chunks).toEqual(['One sentence that is spoken.', 'Something else entirely now.']);
  });

  it('goes on without starting over when only what was not yet spoken changed', () => {
    const { chunker, chunks, restarts } = make(10);
    chunker.update('One sentence that is spoken. Then a pa');
    expect(chunks).toEqual(['One sentence that is spoken.']);
    // The words not yet handed out settle differently (a link's text replacing its markup): no restart.
    chunker.update('One sentence that is spoken. Then a paragraph with a link. ', true);
    expect(restarts).toEqual([]);
    expect(chunks).toEqual(['One sentence that is spoken.', 'Then a paragraph with a link.']);
  });

  it('makes chunks at least min_chars long (default 100)', () => {
    const chunks: string[] = [];
    const chunker = new SpeechChunker({ onChunk: (t) => chunks.push(t) });
    chunker.update('Short one. Another short. ');
    expect(chunks).toEqual([]);
    chunker.update(`Short one. Another short. ${S1} ${S2} `);
    expect(chunks).toEqual([`Short one. Another short. ${S1}`]);
    expect(chunks[0]!.length).toBeGreaterThanOrEqual(100);
    expect(chunker.pendingText.trim()).toBe(S2);
  });

  it('speaks a completed message whole: the rest is flushed, short or without a sentence end', () => {
    const { chunker, chunks } = make(30);
    chunker.update('A sentence long enough to be cut here. and a tail without end');
    expect(chunks).toEqual(['A sentence long enough to be cut here.']);
    chunker.update('A sentence long enough to be cut here. and a tail without end', true);
    expect(chunks).toEqual(['A sentence long enough to be cut here.', 'and a tail without end']);
    // A message complete from the start (the read-aloud button): all of it, in order.
    const other = make(100);
    other.chunker.update('Tiny.', true);
    expect(other.chunks).toEqual(['Tiny.']);
  });

  it('looks for a boundary every 100 ms, 30 times, then forces the text out', () => {
    const { chunker, chunks } = make(100);
    chunker.update('no sentence end in sight yet');
    vi.advanceTimersByTime(100 * 29);
    expect(chunks).toEqual([]);
    expect(chunker.retryCount).toBe(29);
    vi.advanceTimersByTime(100);
    expect(chunks).toEqual(['no sentence end in sight yet']);
    expect(chunker.pendingText).toBe('');
    // Nothing more to do: no timer left running.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts the retries again after a cut, and a boundary that arrives in time is used', () => {
    const { chunker, chunks } = make(10);
    chunker.update('waiting for the end');
    vi.advanceTimersByTime(100 * 10);
    chunker.update('waiting for the end of it. next bit');
    expect(chunks).toEqual(['waiting for the end of it.']);
    expect(chunker.retryCount).toBe(0);
    vi.advanceTimersByTime(100 * 29);
    expect(chunks).toHaveLength(1);
    vi.advanceTimersByTime(100);
    expect(chunks).toEqual(['waiting for the end of it.', 'next bit']);
  });

  it('reasoning updates replace (the whole text so far) or append (a piece)', () => {
    const { chunker, chunks, restarts } = make(10);
    chunker.reasoning('Thinking about it. ', 'replace');
    chunker.reasoning('Then more thought. ', 'append');
    expect(chunks).toEqual(['Thinking about it.', 'Then more thought.']);
    // A replacement that extends the text continues it; one that does not starts over.
    chunker.reasoning('Thinking about it. Then more thought. Extended here. ', 'replace');
    expect(chunks.at(-1)).toBe('Extended here.');
    expect(restarts).toEqual([]);
    chunker.reasoning('A new line of thought. ', 'replace');
    expect(restarts).toEqual([3]);
    expect(chunks.at(-1)).toBe('A new line of thought.');
  });

  it('never makes a chunk longer than the API takes (4096)', () => {
    const { chunker, chunks } = make(10);
    const long = 'word '.repeat(2000);
    chunker.update(long, true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(4096);
    expect(chunks.join(' ')).toBe(long.trim());
  });

  it('hands out nothing after dispose', () => {
    const { chunker, chunks } = make(100);
    chunker.update('pending text');
    chunker.dispose();
    vi.advanceTimersByTime(10_000);
    expect(chunks).toEqual([]);
  });
});
