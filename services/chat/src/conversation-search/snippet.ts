import { fold, UNSPACED, WORD_PIECES, type SearchTerm } from './search-terms';

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

export interface Snippet {
  snippet: string;
  highlights: Highlight[];
}

/**
 * A piece of a message around its first match, at most `width` characters plus an ellipsis at a cut
 * end, line breaks as spaces; the matches inside it highlighted.
 */
export function snippetOf(text: string, terms: SearchTerm[], width = 160): Snippet {
  const all = highlightsIn(text, terms);
  const first = all[0]?.start ?? 0;
  // A little of what comes before the match: in two lines of a sidebar, the match still shows.
  let start = Math.max(0, first - Math.min(40, Math.floor(width / 3)));
  if (start > 0) {
    // Begin at a word: after the nearest space before the window, when there is one close by.
    const space = text.lastIndexOf(' ', start);
    start = space >= 0 && start - space < 20 ? space + 1 : start;
  }
  let end = Math.min(text.length, start + width);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > first && space > start) end = space;
  }
  // Never cut a surrogate pair in two.
  if (start > 0 && /[\udc00-\udfff]/.test(text[start] ?? '')) start--;
  if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1] ?? '')) end++;
  const lead = start > 0 ? '…' : '';
  const body = text.slice(start, end).replace(/\s/g, ' ');
  const shift = lead.length - start;
  return {
    snippet: `${lead}${body}${end < text.length ? '…' : ''}`,
    highlights: all.filter((h) => h.start >= start && h.end <= end).map((h) => ({ start: h.start + shift, end: h.end + shift })),
  };
}
