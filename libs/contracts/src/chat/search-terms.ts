/**
 * How a search query is cut into terms, and where the terms are in a text: shared by the chat
 * service (the query it compiles, the snippets' highlights) and the web client (the words marked in
 * an opened result's message), so both mark the same words. No dependencies.
 */

/** Characters of scripts written without spaces (Thai, Japanese kana, CJK ideographs, Hangul): one word each. */
const UNSPACED_CHARS = '\\u0e00-\\u0e7f\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff';
export const UNSPACED = new RegExp(`[${UNSPACED_CHARS}]`, 'u');
/** A word of a text: a run of unspaced characters, or of letters, marks and digits. */
export const WORD_PIECES = new RegExp(`[${UNSPACED_CHARS}]+|[\\p{L}\\p{N}\\p{M}]+`, 'gu');
const ONLY_UNSPACED = new RegExp(`^[${UNSPACED_CHARS}]+$`, 'u');
const PLAIN_WORD = /^[\p{L}\p{N}\p{M}]+$/u;
const HAS_WORD = /[\p{L}\p{N}]/u;
/** Letters that do not decompose into a base letter and an accent, folded as PostgreSQL's `unaccent` does. */
const FOLDS: Record<string, string> = { ß: 'ss', ø: 'o', ł: 'l', đ: 'd', ð: 'd', æ: 'ae', œ: 'oe', ı: 'i', þ: 'th', ŀ: 'l', ħ: 'h' };

/** Lower case without accents: how a word is compared with what the user typed. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßøłđðæœıþŀħ]/g, (c) => FOLDS[c] ?? c);
}

/** One thing to highlight: a word (a prefix of one, when `prefix`), or a run of unspaced characters. */
export interface SearchTerm {
  text: string;
  prefix: boolean;
  phrase: boolean;
}

/** A query in the two forms PostgreSQL is given it, and the terms its highlights look for. */
export interface SearchQuery {
  /** Plain words and unspaced runs as a `to_tsquery` text ('' when none). */
  tsquery: string;
  /** Pieces with punctuation inside ("e-mail", "v1.2", "2026-11-26"): each parsed by PostgreSQL as a phrase. */
  phrases: string[];
  /** Each plain word or unspaced run alone, as a `to_tsquery` text (`tsquery` is them joined by `&`). */
  words: string[];
  terms: SearchTerm[];
}

const MAX_PIECES = 12;

/**
 * What the user typed, cut at spaces. A plain word of two characters or more matches words it
 * begins (so the word being typed is found, and "dog" finds "dogs"); a run of Chinese, Japanese,
 * Korean or Thai is a phrase of its characters; a piece with punctuation inside is parsed as a
 * document is (so what the parser makes of "e-mail" or "2026-11-26" is found). Every piece is
 * required. Operators and quotes mean nothing: no input is a syntax error.
 */
export function searchQuery(q: string): SearchQuery {
  const words: string[] = [];
  const phrases: string[] = [];
  const terms: SearchTerm[] = [];
  const pieces = q
    .normalize('NFKC')
    .split(/\s+/u)
    .filter((piece) => HAS_WORD.test(piece))
    .slice(0, MAX_PIECES);
  for (const piece of pieces) {
    if (ONLY_UNSPACED.test(piece)) {
      const chars = [...piece];
      words.push(chars.length > 1 ? `(${chars.map((c) => `'${c}'`).join(' <-> ')})` : `'${piece}'`);
      terms.push({ text: piece, prefix: false, phrase: chars.length > 1 });
    } else if (PLAIN_WORD.test(piece)) {
      // Quoted: a plain word holds no quote or operator; the configuration folds it again.
      const text = fold(piece);
      const prefix = [...text].length >= 2;
      words.push(`'${text}'${prefix ? ':*' : ''}`);
      terms.push({ text, prefix, phrase: false });
    } else {
      phrases.push(piece);
      for (const [part] of piece.matchAll(WORD_PIECES)) {
        terms.push(UNSPACED.test(part) ? { text: part, prefix: false, phrase: true } : { text: fold(part), prefix: false, phrase: false });
      }
    }
  }
  return { tsquery: words.join(' & '), words, phrases, terms };
}

export interface Highlight {
  start: number;
  end: number;
}

/** Where the terms are in a text (UTF-16 offsets, in order): a whole word for a word, the characters for a phrase. */
export function highlightsIn(text: string, terms: SearchTerm[]): Highlight[] {
  const found: Highlight[] = [];
  const words = terms.filter((t) => !UNSPACED.test(t.text));
  const runs = terms.filter((t) => UNSPACED.test(t.text));
  for (const match of text.matchAll(WORD_PIECES)) {
    const start = match.index;
    const piece = match[0];
    if (UNSPACED.test(piece)) {
      for (const run of runs) {
        for (let at = piece.indexOf(run.text); at >= 0; at = piece.indexOf(run.text, at + run.text.length)) {
          found.push({ start: start + at, end: start + at + run.text.length });
        }
      }
      continue;
    }
    const word = fold(piece);
    if (words.some((t) => (t.prefix ? word.startsWith(t.text) : word === t.text))) found.push({ start, end: start + piece.length });
  }
  return found.sort((a, b) => a.start - b.start);
}
