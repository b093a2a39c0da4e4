import { describe, expect, it } from 'vitest';
import { highlightPieces } from './highlight';

const show = (body: string, ranges: { start: number; end: number }[] | null) =>
  highlightPieces(body, ranges)
    .map((p) => (p.marked ? `[${p.text}]` : p.text))
    .join('');

describe('highlightPieces', () => {
  it('marks the ranges, end exclusive', () => {
    expect(show('pizza on friday', [{ start: 0, end: 5 }])).toBe('[pizza] on friday');
    expect(show('pizza on friday', [{ start: 9, end: 15 }])).toBe('pizza on [friday]');
    expect(show('pizza on friday', [{ start: 0, end: 15 }])).toBe('[pizza on friday]');
  });

  it('keeps the text whole with no highlights, null, or an empty body', () => {
    expect(highlightPieces('hello', [])).toEqual([{ text: 'hello', marked: false }]);
    expect(highlightPieces('hello', null)).toEqual([{ text: 'hello', marked: false }]);
    expect(highlightPieces('', [{ start: 0, end: 3 }])).toEqual([{ text: '', marked: false }]);
  });

  it('sorts, merges overlapping and touching ranges, drops empty and reversed ones', () => {
    expect(
      show('abcdefghij', [
        { start: 6, end: 8 },
        { start: 1, end: 3 },
        { start: 2, end: 4 },
        { start: 4, end: 5 },
        { start: 9, end: 9 },
        { start: 8, end: 7 },
      ]),
    ).toBe('a[bcde]f[gh]ij');
  });

  it('clamps ranges beyond the body', () => {
    expect(show('short', [{ start: -4, end: 2 }])).toBe('[sh]ort');
    expect(show('short', [{ start: 3, end: 99 }])).toBe('sho[rt]');
    expect(show('short', [{ start: 10, end: 20 }])).toBe('short');
  });

  it('never splits an emoji (surrogate pair)', () => {
    const body = 'a😀b';
    expect(show(body, [{ start: 2, end: 4 }])).toBe('a[😀b]');
    expect(show(body, [{ start: 1, end: 2 }])).toBe('a[😀]b');
  });
});
