import { countSegments, CUT_MARK, fitToSegments, isGsm7, toGsm7, type SmsEncoding } from './segments';

const POINTER = '(more in the app)';
const ucs2Units = (text: string) => [...text].reduce((sum, c) => sum + c.length, 0);

describe('toGsm7: typography in GSM-7, everything else kept', () => {
  it.each<[string, string, string]>([
    ['right single quote', 'It’s', "It's"],
    ['left single quote', '‘quoted’', "'quoted'"],
    ['curly double quotes', '“Hello”', '"Hello"'],
    ['low double quote', '„Hallo“', '"Hallo"'],
    ['guillemets', '«Bonjour»', '"Bonjour"'],
    ['ellipsis', 'Wait…', 'Wait...'],
    ['en dash', '9–5', '9-5'],
    ['em dash', 'yes—no', 'yes-no'],
    ['minus sign', '−3', '-3'],
    ['no-break space', '10\u00A0km', '10 km'],
    ['narrow no-break space', '10\u202Fkm', '10 km'],
    ['thin and ideographic spaces', 'a\u2009b\u3000c', 'a b c'],
    ['tab', 'a\tb', 'a b'],
    ['zero-width space and soft hyphen', 'in\u200Bvis\u00ADible', 'invisible'],
    ['line separator', 'one\u2028two', 'one\ntwo'],
    ['bullet', '• milk', '* milk'],
    ['the masked number of a member with no name', '+1••••••1589', '+1******1589'],
    ['trade mark', 'Brand™', 'BrandTM'],
    ['a decomposed accent (NFC)', 'cafe\u0301', 'café'],
    ['an emoji (no equivalent)', 'Great 😀', 'Great 😀'],
    ['another script', 'Привет, мир', 'Привет, мир'],
    ['Chinese', '你好', '你好'],
    ['a letter outside GSM-7 (spelling kept)', 'canción', 'canción'],
    ['the Catalan middle dot (a letter)', 'col·lecció', 'col·lecció'],
    ['empty', '', ''],
  ])('%s: %p becomes %p', (_label, text, expected) => {
    expect(toGsm7(text)).toBe(expected);
  });

  it('is idempotent', () => {
    const text = '“It’s—really…”\u00A0• ok';
    expect(toGsm7(toGsm7(text))).toBe(toGsm7(text));
    expect(isGsm7(toGsm7(text))).toBe(true);
  });
});

describe('countSegments: the one counter', () => {
  it.each<[string, string, SmsEncoding, number, number]>([
    ['an empty text (nothing to send)', '', 'GSM-7', 0, 0],
    ['one character', 'a', 'GSM-7', 1, 1],
    ['160 GSM-7 characters', 'a'.repeat(160), 'GSM-7', 160, 1],
    ['161 GSM-7 characters', 'a'.repeat(161), 'GSM-7', 161, 2],
    ['306 GSM-7 characters', 'a'.repeat(306), 'GSM-7', 306, 2],
    ['307 GSM-7 characters', 'a'.repeat(307), 'GSM-7', 307, 3],
    ['80 extension characters (two septets each)', '€'.repeat(80), 'GSM-7', 160, 1],
    ['an extension character never split', `${'a'.repeat(152)}€${'a'.repeat(10)}`, 'GSM-7', 164, 2],
    ['GSM-7 accents', 'é'.repeat(70), 'GSM-7', 70, 1],
    ['a curly quote in 160 characters', `It’s ${'a'.repeat(155)}`, 'GSM-7', 160, 1],
    ['curly double quotes', '“Hello”', 'GSM-7', 7, 1],
    ['an ellipsis (three septets)', 'Wait…', 'GSM-7', 7, 1],
    ['en and em dashes', 'a – b — c', 'GSM-7', 9, 1],
    ['a no-break space', '10\u00A0km', 'GSM-7', 5, 1],
    ['the masked number', '+1••••••1589', 'GSM-7', 12, 1],
    ['70 Cyrillic letters', 'ж'.repeat(70), 'UCS-2', 70, 1],
    ['71 Cyrillic letters', 'ж'.repeat(71), 'UCS-2', 71, 2],
    ['134 Cyrillic letters', 'ж'.repeat(134), 'UCS-2', 134, 2],
    ['135 Cyrillic letters', 'ж'.repeat(135), 'UCS-2', 135, 3],
    ['35 emoji (two units each)', '😀'.repeat(35), 'UCS-2', 70, 1],
    ['36 emoji', '😀'.repeat(36), 'UCS-2', 72, 2],
    ['an emoji never split', `${'ж'.repeat(66)}😀${'ж'.repeat(3)}`, 'UCS-2', 71, 2],
    ['Chinese', '你好', 'UCS-2', 2, 1],
    ['an emoji with curly quotes (UCS-2, quotes still replaced)', 'It’s 😀', 'UCS-2', 7, 1],
  ])('%s', (_label, text, encoding, units, segments) => {
    expect(countSegments(text)).toEqual({ encoding, units, segments });
  });
});

/** Sentences of about 40 characters, numbered so a cut shows where it fell. */
const sentences = (count: number, make = (i: number) => `This is sentence number ${i} of the reply. `) =>
  Array.from({ length: count }, (_, i) => make(i + 1)).join('');

describe('fitToSegments: a long reply ends at a sentence, never mid-thought', () => {
  it.each<[string, string, number]>([
    ['a short text', 'Short.', 1],
    ['a text that fits exactly', 'a'.repeat(306), 2],
    ["a curly quote in 430 characters (the issue's cut at 260)", `It’s ${'word '.repeat(85)}`.trim(), 3],
    ['an emoji in 190 UCS-2 units', `Done 😀 ${'a'.repeat(180)}`, 3],
  ])('%s fits as it is (typography in GSM-7)', (_label, text, max) => {
    expect(fitToSegments(text, max, POINTER)).toBe(toGsm7(text));
  });

  it.each<[string, string, number, SmsEncoding]>([
    ['GSM-7 sentences', sentences(40), 3, 'GSM-7'],
    ['sentences with curly quotes, dashes and ellipses', sentences(40, (i) => `It’s point ${i} — really… `), 3, 'GSM-7'],
    ['sentences with no-break spaces', sentences(40, (i) => `Point\u00A0${i} is here. `), 2, 'GSM-7'],
    ['sentences with an emoji (UCS-2 truly needed)', `Good news 😀. ${sentences(30)}`, 3, 'UCS-2'],
    ['another script', sentences(30, (i) => `Это предложение номер ${i}. `), 2, 'UCS-2'],
    ['sentences naming a member with no name', sentences(30, () => '+1••••••1589 said yes! '), 2, 'GSM-7'],
    ['sentences ending in closing quotes', sentences(30, (i) => `He said "item ${i}." `), 2, 'GSM-7'],
  ])('%s: the last sentence that fits, then the pointer, in budget', (_label, text, max, encoding) => {
    const fitted = fitToSegments(text, max, POINTER);
    const count = countSegments(fitted);
    expect(count).toMatchObject({ encoding, segments: max });
    expect(fitted.endsWith(` ${POINTER}`)).toBe(true);
    const kept = fitted.slice(0, -POINTER.length - 1);
    expect(toGsm7(text).startsWith(kept)).toBe(true);
    expect(kept).toMatch(/[.!?]["')\]]*$/);
    // Not cut short: the next sentence would not have fitted.
    const next = toGsm7(text)
      .slice(kept.length)
      .match(/^\s*\S.*?[.!?]["')\]]*(?=\s|$)/)![0];
    expect(countSegments(`${kept}${next} ${POINTER}`).segments).toBeGreaterThan(max);
  });

  it('counts a UCS-2 reply in UCS-2 segments, not cut near 260 characters', () => {
    const fitted = fitToSegments(`Good news 😀. ${sentences(30)}`, 3, POINTER);
    expect(ucs2Units(fitted)).toBeGreaterThan(134);
    expect(ucs2Units(fitted)).toBeLessThanOrEqual(201);
    const gsm = fitToSegments(
      sentences(40, (i) => `It’s point ${i} — really… `),
      3,
      POINTER,
    );
    expect(gsm.length).toBeGreaterThan(400);
  });

  it('ends a line-by-line reply at the end of a line', () => {
    const list = Array.from({ length: 40 }, (_, i) => `- item ${i + 1} of the list`).join('\n');
    const fitted = fitToSegments(list, 2, POINTER);
    expect(fitted).toMatch(/- item \d+ of the list \(more in the app\)$/);
    expect(countSegments(fitted).segments).toBe(2);
  });

  it.each<[string, string | undefined, RegExp]>([
    ['with a pointer', POINTER, /word\.\.\. \(more in the app\)$/],
    ['without one', undefined, /word\.\.\.$/],
  ])('falls back to the last whole word and "..." when no sentence ends in the budget (%s)', (_label, pointer, ending) => {
    const fitted = fitToSegments('word '.repeat(200), 2, pointer);
    expect(fitted).toMatch(ending);
    expect(countSegments(fitted)).toMatchObject({ encoding: 'GSM-7', segments: 2 });
    const words = fitted
      .replace(pointer ?? '', '')
      .trim()
      .slice(0, -CUT_MARK.length)
      .split(' ');
    expect(new Set(words)).toEqual(new Set(['word']));
  });

  it('keeps UCS-2 words whole too', () => {
    const fitted = fitToSegments('слово '.repeat(100), 2);
    expect(countSegments(fitted)).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(fitted).toMatch(/^(слово )+слово\.\.\.$/);
  });

  it('never cuts a word: a single word over the budget leaves the mark and the pointer', () => {
    expect(fitToSegments(`https://example.com/${'x'.repeat(400)}`, 2, POINTER)).toBe(`${CUT_MARK} ${POINTER}`);
    expect(fitToSegments('x'.repeat(400), 1)).toBe(CUT_MARK);
  });

  it('takes at least one segment', () => {
    expect(countSegments(fitToSegments(sentences(10), 0, POINTER)).segments).toBe(1);
  });
});
