import { describe, expect, it } from 'vitest';
import { SpokenText, spokenMath, spokenTextOf } from './spokenText';

const PYTHON = Array.from({ length: 12 }, (_, i) => (i === 0 ? 'def total(items):' : `    value_${i} = items[${i}] * 2`));
const REPLY = [
  '## Sorting a list',
  '',
  'Use the built-in **`sorted`** function; see the [Python docs](https://docs.python.org/3/library/functions.html#sorted) for *details*.',
  'It costs &amp; takes _nothing_ 🎉, see https://www.example.com/a?b=1.',
  '',
  '```python',
  ...PYTHON,
  '```',
  '',
  '| Method | Stable |',
  '| --- | :-: |',
  '| `sorted()` | yes |',
  '',
  '- [x] first, keep ~~it~~ simple',
  '- [ ] then read <https://example.com/more>',
  '   1. nested step',
  '',
  '> A quoted line with a formula $x^2 + y_1$ and $$\\frac{a}{b}$$.',
  '',
  'A note[^1] and a picture ![a chart](/chart.png).',
  '',
  '```',
  'one line',
  '```',
  '',
  '[^1]: The note itself.',
].join('\n');

describe('spoken text: what a person reads on screen', () => {
  it('reads link text, announces code blocks, drops every mark of markdown', () => {
    expect(spokenTextOf(REPLY).split('\n\n')).toEqual([
      'Sorting a list.',
      'Use the built-in sorted function; see the Python docs for details. It costs & takes nothing, see example.com.',
      'Code block in Python, 12 lines.',
      'Method, Stable. sorted(), yes.',
      'Done: first, keep it simple. To do: then read example.com. nested step.',
      'A quoted line with a formula x to the power 2 plus y sub 1 and a over b.',
      'A note and a picture a chart.',
      'Code block, 1 line.',
      'Footnote 1: The note itself.',
    ]);
    expect(spokenTextOf(REPLY)).not.toMatch(/[`*#|~<>[\]_$\\]|https?:|docs\.python|value_/);
  });

  it('reads formulas in words', () => {
    expect(spokenMath('\\frac{n(n+1)}{2}')).toBe('n(n plus 1) over 2');
    expect(spokenMath('E = mc^2')).toBe('E equals mc to the power 2');
    expect(spokenMath('\\sqrt{x} \\cdot \\alpha_{i}')).toBe('the square root of x times alpha sub i');
  });

  it('while a reply streams, what it has read stays the start of what the finished reply is read as', () => {
    const final = spokenTextOf(REPLY);
    const spoken = new SpokenText();
    const boundary = /[.!?;]+["'”’)\]]*(?=\s)/g;
    let checked = 0;
    // Word by word, and character by character through the first paragraphs.
    const cuts = [...Array.from({ length: 300 }, (_, i) => i + 1), ...[...REPLY.matchAll(/\s+/g)].map((m) => m.index)];
    for (const end of [...new Set(cuts)].sort((a, b) => a - b)) {
      const text = spoken.update(REPLY.slice(0, end), false);
      // The chunker hands out text up to a sentence end followed by white space only.
      const ends = [...text.matchAll(boundary)].map((m) => m.index + m[0].length);
      const settled = ends.length ? text.slice(0, ends[ends.length - 1]) : '';
      expect(
        final.startsWith(settled.trim()),
        `after ${JSON.stringify(REPLY.slice(Math.max(0, end - 30), end))}: ${settled.slice(-60)}`,
      ).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
    expect(spoken.update(REPLY, true).trim()).toBe(final);
  });
});
