import { Lexer } from 'marked';
import { describe, expect, it } from 'vitest';
import { lexerOptions } from './extensions';
import { lexMarkdown, type Lexed } from './incrementalLex';

const whole = (text: string) => [...Lexer.lex(text, lexerOptions)];

/** Streams `text` in pieces of the given sizes (cycled), checking every step against lexing it whole. */
function streamAndCompare(text: string, sizes: number[]): number {
  let previous: Lexed | undefined;
  let steps = 0;
  for (let end = 0, i = 0; end < text.length; i++) {
    end = Math.min(text.length, end + sizes[i % sizes.length]);
    const partial = text.slice(0, end);
    const tokens = lexMarkdown(partial, previous);
    expect(tokens, `after ${JSON.stringify(partial.slice(-40))}`).toEqual(whole(partial));
    previous = { text: partial, tokens };
    steps++;
  }
  return steps;
}

const section = (i: number) =>
  [
    `### Part ${i + 1}`,
    '',
    `Paragraph ${i + 1} with **bold**, *emphasis*, \`code\` and a [link](https://example.com/${i}).`,
    'A lazy continuation line.',
    '',
    '- first point',
    '- second point',
    '',
    '  indented continuation of the second point',
    '',
    '- third point, loose now',
    '1. an ordered',
    '2. list',
    '',
    '> a quote',
    'continued lazily',
    '',
    '- [ ] a task',
    '- [x] a task done',
    '',
    `Inline $x^${i}$ and \\(y_${i}\\), prices of $5 and $10.`,
    '',
    '$$',
    `E = mc^${i}`,
    '$$',
    '',
    '\\[ \\frac{a}{b} \\]',
    '',
    '| Name | Value |',
    '| --- | ---: |',
    `| alpha | ${i} |`,
    '',
    '```ts',
    `export const part${i} = 1;`,
    '',
    '```',
    '',
    'Setext heading',
    '---',
    '',
    '    indented code',
    '',
    '    after a blank line',
    '',
    '***',
    '',
  ].join('\n');
const REPLY = Array.from({ length: 5 }, (_, i) => section(i)).join('\n');

describe('lexMarkdown (incremental)', () => {
  it('answers what lexing the whole text answers, at every step of a stream, whatever the pieces', () => {
    const short = section(0) + section(1);
    expect(streamAndCompare(short, [1])).toBe(short.length);
    streamAndCompare(REPLY, [3, 7, 1, 12]);
    streamAndCompare(REPLY, [40, 5, 90]);
  }, 60_000);

  it('keeps the token objects of the blocks before the last two, so their elements are not rendered again', () => {
    const first = 'One paragraph.\n\nTwo paragraph.\n\nThree paragraph.\n\nFour';
    const before = lexMarkdown(first);
    const after = lexMarkdown(`${first} grows`, { text: first, tokens: before });
    expect(after[0]).toBe(before[0]);
    expect(after[2]).toBe(before[2]);
    expect(after.at(-1)).not.toBe(before.at(-1));
  });

  it('lexes the whole text when it did not just grow, or when a link definition may apply anywhere', () => {
    const text = 'See [the docs][d].\n\nMore text.\n\nEven more';
    const tokens = lexMarkdown(text);
    const defined = `${text}\n\n[d]: https://example.com/docs`;
    expect(lexMarkdown(defined, { text, tokens })).toEqual(whole(defined));
    const edited = 'Something else.\n\nMore text.';
    expect(lexMarkdown(edited, { text, tokens })).toEqual(whole(edited));
  });

  it('answers the same tokens for a text it has seen (the stored message after its draft)', () => {
    const text = 'Cached paragraph.\n\n- a list';
    expect(lexMarkdown(text)).toBe(lexMarkdown(text));
  });
});
