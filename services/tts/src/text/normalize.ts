/** What a fenced code block is read as. */
export const CODE_OMITTED = '(code omitted)';

const FENCE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n {0,3}\1[`~]*[ \t]*(?=\n|$)|$(?![\s\S]))/gm;
const INDENTED_CODE = /(?:^|\n\n)((?: {4}|\t)[^\n]*(?:\n(?: {4}|\t)[^\n]*)*)/g;
const HTML_TAG = /<\/?[a-zA-Z][^<>\n]*>/g;
const IMAGE = /!\[([^\]\n]*)\]\([^)\n]*\)/g;
const INLINE_LINK = /\[([^\]\n]+)\]\((?:[^()\s]|\([^)\s]*\))+(?:\s+"[^"\n]*")?\)/g;
const REFERENCE_LINK = /\[([^\]\n]+)\]\[[^\]\n]*\]/g;
const LINK_DEFINITION = /^ {0,3}\[[^\]\n]+\]:\s+\S+.*$/gm;
const AUTOLINK = /<((?:https?|ftp):\/\/[^>\s]+|mailto:[^>\s]+)>/gi;
const BARE_URL = /\b(?:https?:\/\/|www\.)[^\s<>()[\]]+[^\s<>()[\].,;:!?'"]/gi;
const INLINE_CODE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
const EMPHASIS = [
  /(\*\*|__)(?=\S)(?<inner>[\s\S]*?\S)\1/g,
  /(?<![\w*])\*(?=\S)(?<inner>[^*\n]*?\S)\*(?![\w*])/g,
  /(?<![\w_])_(?=\S)(?<inner>[^_\n]*?\S)_(?![\w_])/g,
];
const STRIKE = /~~(?=\S)([\s\S]*?\S)~~/g;
const HEADING = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/gm;
const RULE = /^ {0,3}(?:[-*_][ \t]*){3,}$/gm;
const BLOCKQUOTE = /^ {0,3}>[ \t]?/gm;
const LIST_ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/gm;
const TABLE_DIVIDER = /^[ \t]*\|?(?:[ \t]*:?-{2,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*\|?[ \t]*(?:\n|$)/gm;
/** Pictographs and their joiners, variation selectors, skin tones, keycaps and flags' regional letters. */
const EMOJI = /(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u200D|\uFE0E|\uFE0F|\u20E3)+/gu;
/** Marks text held aside while markdown is taken off (a private-use character no text of ours carries). */
const MARK = '\uE000';
const HELD = /\uE000(\d+)\uE000/g;
const SENTENCE_END = /[.!?:;…]["')\]]*$/;

/** A URL read as its host: `https://www.example.com/a/b?c` → `example.com`. */
export function hostOf(url: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  try {
    return new URL(withScheme).hostname.replace(/^www\./i, '');
  } catch {
    return url;
  }
}

/** Ends a line that reads as its own sentence (a heading, a list item, a table row) with a full stop. */
function asSentence(line: string): string {
  const text = line.trim();
  if (!text) return '';
  return SENTENCE_END.test(text) ? text : `${text}.`;
}

/**
 * Markdown made ready to be read aloud (`normalize_text_for_reading`): fenced and indented code
 * replaced by a short phrase, links read as their text, bare URLs as their host, emphasis,
 * headings, quotes and list markers taken off, and each heading, list item and table row read as
 * a sentence of its own; emoji dropped. Plain prose comes out as it went in (spacing tidied).
 */
export function normalizeTextForReading(markdown: string): string {
  const placeholders: string[] = [];
  const hold = (text: string) => `${MARK}${placeholders.push(text) - 1}${MARK}`;
  let text = markdown.replace(/\r\n?/g, '\n');

  // Blocks that must not be read as markdown: code first, then what only looks like markup.
  text = text.replace(FENCE, () => `\n${hold(`${CODE_OMITTED}.`)}\n`);
  text = text.replace(INDENTED_CODE, (whole, block: string) => whole.replace(block, `${hold(`${CODE_OMITTED}.`)}\n`));
  text = text.replace(LINK_DEFINITION, '');
  text = text.replace(IMAGE, (_m, alt: string) => (alt.trim() ? hold(alt.trim()) : ''));
  text = text.replace(INLINE_LINK, (_m, label: string) => label);
  text = text.replace(REFERENCE_LINK, (_m, label: string) => label);
  text = text.replace(AUTOLINK, (_m, url: string) => hold(url.toLowerCase().startsWith('mailto:') ? url.slice(7) : hostOf(url)));
  text = text.replace(BARE_URL, (url) => hold(hostOf(url)));
  text = text.replace(INLINE_CODE, (_m, _ticks: string, code: string) => hold(code.trim()));
  text = text.replace(HTML_TAG, ' ');
  text = text.replace(/\\([\\`*_{}[\]()#+\-.!|~>])/g, (_m, escaped: string) => hold(escaped));

  // Line structure: headings, rules, quotes, lists and tables.
  text = text.replace(SETEXT_UNDERLINE, '');
  text = text.replace(RULE, '');
  text = text.replace(HEADING, (_m, title: string) => `\n${asSentence(title)}\n`);
  text = text.replace(BLOCKQUOTE, '');
  text = text.replace(TABLE_DIVIDER, '');
  const lines = text.split('\n').map((line) => {
    if (LIST_ITEM.test(line)) {
      LIST_ITEM.lastIndex = 0;
      return asSentence(line.replace(LIST_ITEM, ''));
    }
    LIST_ITEM.lastIndex = 0;
    if (/^\s*\|.*\|\s*$/.test(line)) {
      const cells = line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim())
        .filter(Boolean);
      return asSentence(cells.join(', '));
    }
    return line;
  });
  text = lines.join('\n');

  // Inline marks.
  for (const pattern of EMPHASIS) text = text.replace(pattern, '$<inner>');
  text = text.replace(STRIKE, (_m, inner: string) => inner);
  text = text.replace(EMOJI, '');

  text = text.replace(HELD, (_m, index: string) => placeholders[Number(index)]);
  const paragraphs = text
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.replace(/[ \t]+/g, ' ').trim())
        .filter(Boolean)
        .join(' '),
    )
    .filter(Boolean);
  return paragraphs
    .join('\n\n')
    .replace(/ +([.,;:!?])/g, '$1')
    .trim();
}
