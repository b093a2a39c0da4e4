/** Where a sentence may end: its mark, closing quotes or brackets, then space before what starts the next one. */
const SENTENCE_BREAK = /([.!?…]+["'”’)\]]*)(\s+)(?=["'“‘([]?[\p{Lu}\p{N}])|\n\s*/gu;
/** Abbreviations after which a capital letter does not start a sentence. */
const ABBREVIATION = /(?:^|\s)(?:Mr|Mrs|Ms|Dr|Prof|Sr|Jr|St|Mt|vs|etc|e\.g|i\.e|No|Fig|[A-Z])\.$/;

export interface SegmentLimits {
  /** A segment is cut below this many characters (at a comma, else a space, else anywhere). */
  maxChars: number;
}

/** The sentences of a text, in order, each trimmed (a line break always ends one). */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(SENTENCE_BREAK)) {
    const end = match.index + (match[1]?.length ?? 0);
    const sentence = text.slice(start, end).trim();
    if (match[1] !== undefined && ABBREVIATION.test(sentence)) continue;
    if (sentence) sentences.push(sentence);
    start = match.index + match[0].length;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

/** A sentence longer than `max` in pieces: cut after the last comma (or semicolon, colon, dash) that fits, else the last space, else at `max`. */
function piecesOf(sentence: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const head = rest.slice(0, max);
    const clause = Math.max(head.lastIndexOf(', '), head.lastIndexOf('; '), head.lastIndexOf(': '), head.lastIndexOf(' – '));
    const space = head.lastIndexOf(' ');
    const cut = clause > max / 3 ? clause + 1 : space > max / 3 ? space : max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/**
 * A text as the stretches the offline voice speaks one at a time, so that audio starts after the
 * first sentence and another user's request can be served between two stretches: the first
 * sentence alone, then whole sentences joined while they fit in `maxChars`; a longer sentence is cut
 * at a clause. Joined back with spaces, the segments are the text (spacing aside).
 */
export function speechSegments(text: string, { maxChars }: SegmentLimits): string[] {
  const segments: string[] = [];
  let current = '';
  for (const sentence of sentencesOf(text).flatMap((s) => piecesOf(s, maxChars))) {
    if (segments.length === 0 && !current) {
      segments.push(sentence);
      continue;
    }
    if (current && current.length + 1 + sentence.length > maxChars) {
      segments.push(current);
      current = '';
    }
    current = current ? `${current} ${sentence}` : sentence;
  }
  if (current) segments.push(current);
  return segments;
}
