import { jsonDepthExceeds, MAX_JSON_DEPTH } from './json-body';

const nested = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;

describe('the JSON depth check', () => {
  it.each<[string, string, boolean]>([
    ['a flat object', '{"a":1,"b":[1,2,3]}', false],
    ['arrays at the limit', nested(MAX_JSON_DEPTH), false],
    ['arrays one past the limit', nested(MAX_JSON_DEPTH + 1), true],
    ["the issue's 5,000 arrays", nested(5000), true],
    ['objects past the limit', `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(MAX_JSON_DEPTH + 1)}`, true],
    ['brackets inside a string', JSON.stringify({ text: '['.repeat(10_000) }), false],
    ['an escaped quote before brackets in a string', JSON.stringify({ text: `\\"${'{'.repeat(10_000)}` }), false],
    ['many siblings (wide, not deep)', JSON.stringify(Array.from({ length: 5000 }, () => [[1]])), false],
    ['multi-byte text around brackets', JSON.stringify({ 'é😀': ['ж'.repeat(100)] }), false],
  ])('%s: too deep is %p', (_label, text, expected) => {
    expect(jsonDepthExceeds(Buffer.from(text))).toBe(expected);
    expect(jsonDepthExceeds(text)).toBe(expected);
  });
});
