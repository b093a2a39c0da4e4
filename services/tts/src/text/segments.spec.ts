import { sentencesOf, speechSegments } from './segments';

describe('sentencesOf', () => {
  it('ends sentences at their marks and at line breaks, not after abbreviations or inside numbers', () => {
    expect(sentencesOf('Hello there! Is it 3.5 km? Yes. Dr. Smith said so, e.g. Monday.\n\nA list item.\nNext line')).toEqual([
      'Hello there!',
      'Is it 3.5 km?',
      'Yes.',
      'Dr. Smith said so, e.g. Monday.',
      'A list item.',
      'Next line',
    ]);
    expect(sentencesOf('"Quoted." Then (bracketed.) And… more')).toEqual(['"Quoted."', 'Then (bracketed.)', 'And… more']);
    expect(sentencesOf('lower. case stays')).toEqual(['lower. case stays']);
  });
});

describe('speechSegments', () => {
  it('speaks the first sentence alone, then joins sentences up to the limit', () => {
    const text = 'One. Two two. Three three three. Four. Five five five five five.';
    expect(speechSegments(text, { maxChars: 20 })).toEqual([
      'One.',
      'Two two.',
      'Three three three.',
      'Four.',
      'Five five five five',
      'five.',
    ]);
    expect(speechSegments(text, { maxChars: 40 })).toEqual(['One.', 'Two two. Three three three. Four.', 'Five five five five five.']);
  });

  it('cuts an overlong sentence at a clause, else at a space, else anywhere; loses no word', () => {
    const long = `${'word '.repeat(30)}then, ${'more '.repeat(30)}end.`;
    const segments = speechSegments(long, { maxChars: 100 });
    expect(Math.max(...segments.map((s) => s.length))).toBeLessThanOrEqual(100);
    expect(segments.join(' ').replace(/\s+/g, ' ')).toBe(long.replace(/\s+/g, ' '));
    expect(speechSegments('x'.repeat(250), { maxChars: 100 })).toEqual(['x'.repeat(100), 'x'.repeat(100), 'x'.repeat(50)]);
  });

  it('keeps every character of a long reply, in order', () => {
    const reply = Array.from({ length: 60 }, (_, i) => `Sentence number ${i + 1} says something, and then a bit more.`).join(' ');
    const segments = speechSegments(reply, { maxChars: 300 });
    expect(segments[0]).toBe('Sentence number 1 says something, and then a bit more.');
    expect(segments.join(' ')).toBe(reply);
    expect(segments.every((s) => s.length <= 300)).toBe(true);
  });
});
