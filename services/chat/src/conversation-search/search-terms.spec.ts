import { fold, highlightsIn, searchQuery } from '@app/contracts/chat';
import { snippetOf } from './snippet';
import { ownedQuery, ownerKey } from './conversation-search.repository';

const searchTerms = (q: string) => searchQuery(q).terms;

describe('search terms', () => {
  it('folds accents and case as unaccent does, letters without a decomposition included', () => {
    expect(fold('Café Łódź Straße Øresund Æble')).toBe('cafe lodz strasse oresund aeble');
  });

  it('makes every word of two letters or more a prefix, and single letters exact', () => {
    expect(searchTerms('Crème brûlée a')).toEqual([
      { text: 'creme', prefix: true, phrase: false },
      { text: 'brulee', prefix: true, phrase: false },
      { text: 'a', prefix: false, phrase: false },
    ]);
    expect(searchQuery('Crème brûlée a').tsquery).toBe("'creme':* & 'brulee':* & 'a'");
  });

  it('gives pieces with punctuation inside to PostgreSQL as phrases, and drops pieces without a word', () => {
    expect(searchQuery("it's & | ! <-> ( ) :* 'x' \\ \"y\" e-mail 2026-11-26")).toEqual({
      tsquery: '',
      words: [],
      phrases: ["it's", "'x'", '"y"', 'e-mail', '2026-11-26'],
      terms: [
        { text: 'it', prefix: false, phrase: false },
        { text: 's', prefix: false, phrase: false },
        { text: 'x', prefix: false, phrase: false },
        { text: 'y', prefix: false, phrase: false },
        { text: 'e', prefix: false, phrase: false },
        { text: 'mail', prefix: false, phrase: false },
        { text: '2026', prefix: false, phrase: false },
        { text: '11', prefix: false, phrase: false },
        { text: '26', prefix: false, phrase: false },
      ],
    });
    expect(searchQuery('!!! --- ...')).toEqual({ tsquery: '', words: [], phrases: [], terms: [] });
  });

  it('keeps words of other scripts as typed, and cuts unspaced scripts into phrases of characters', () => {
    expect(searchQuery('Привет Αθήνα').tsquery).toBe("'привет':* & 'αθηνα':*");
    expect(searchQuery('東京タワー 한국').tsquery).toBe("('東' <-> '京' <-> 'タ' <-> 'ワ' <-> 'ー') & ('한' <-> '국')");
  });

  it('takes twelve pieces at most', () => {
    expect(searchTerms('a b c d e f g h i j k l m n o p')).toHaveLength(12);
  });
});

describe('snippets', () => {
  it('highlights whole words that begin with a term, whatever their accents', () => {
    const text = 'We ate at the Café de Flore, then two cafés more.';
    const marks = highlightsIn(text, searchTerms('cafe'));
    expect(marks.map((h) => text.slice(h.start, h.end))).toEqual(['Café', 'cafés']);
  });

  it('highlights phrases of unspaced scripts', () => {
    const text = '昨日は東京タワーに行きました';
    expect(highlightsIn(text, searchTerms('東京')).map((h) => text.slice(h.start, h.end))).toEqual(['東京']);
  });

  it('cuts a long message around its first match, with ellipses, and shifts the highlights with it', () => {
    const text = `${'lorem ipsum '.repeat(40)}the quokka smiled\nat the camera ${'dolor sit '.repeat(40)}`;
    const { snippet, highlights } = snippetOf(text, searchTerms('quokka'), 120);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(122);
    expect(snippet).not.toContain('\n');
    expect(highlights).toHaveLength(1);
    expect(snippet.slice(highlights[0].start, highlights[0].end)).toBe('quokka');
  });

  it('gives a short message whole', () => {
    expect(snippetOf('Hello quokka', searchTerms('quok'))).toEqual({ snippet: 'Hello quokka', highlights: [{ start: 6, end: 12 }] });
  });

  it('never cuts an emoji in two', () => {
    const text = `${'😀'.repeat(100)} quokka ${'😀'.repeat(100)}`;
    const { snippet } = snippetOf(text, searchTerms('quokka'), 61);
    expect(snippet).toBe(snippet.normalize());
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(snippet)).toBe(false);
  });
});

describe('owned queries', () => {
  it('keys every word of a tsquery by its owner, quotes and operators left as they are', () => {
    const user = 'AB12cd34-5678-4abc-9def-0123456789ab';
    expect(ownerKey(user)).toBe('ab12cd345678' + '4abc');
    expect(ownedQuery("'cafe':* & ( 'e-mail' <-> 'e' <-> 'mail' ) & 'o''brien'", user)).toBe(
      "'ab12cd3456784abc:cafe':* & ( 'ab12cd3456784abc:e-mail' <-> 'ab12cd3456784abc:e' <-> 'ab12cd3456784abc:mail' ) & 'ab12cd3456784abc:o''brien'",
    );
  });
});
