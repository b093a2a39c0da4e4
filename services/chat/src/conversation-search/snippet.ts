import { highlightsIn, type Highlight, type SearchTerm } from '@app/contracts/chat';

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
