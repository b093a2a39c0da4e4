import type { Token, Tokens } from 'marked';
import type { FootnoteToken, MathToken } from '../../markdown/utils/extensions';
import { lexMarkdown, type Lexed } from '../../markdown/utils/incrementalLex';
import { decodeEntities } from '../../markdown/utils/safeUrl';

/**
 * What a person reads on screen, from a reply's markdown, for read-aloud (issue 22, item 8). The
 * client derives it from the same tokens the page renders (so what is heard matches what is seen,
 * the browser's own speech synthesis speaks the same words when the server's voice fails, and a
 * code block is never cut across two requests); the request then says `normalize_text_for_reading:
 * false` (the spec's default). Links are read as their text (a bare address as its site), no
 * markup is read, headings, list items and table rows are sentences, a code block is announced
 * ("Code block in Python, 12 lines."), formulas are read in words, emoji are dropped.
 */

/** How a fence's language is said; others are said as written. */
const LANGUAGES: Record<string, string> = {
  bash: 'shell',
  c: 'C',
  cpp: 'C++',
  'c++': 'C++',
  cs: 'C#',
  csharp: 'C#',
  css: 'CSS',
  go: 'Go',
  html: 'HTML',
  java: 'Java',
  javascript: 'JavaScript',
  js: 'JavaScript',
  json: 'JSON',
  jsx: 'JavaScript',
  kotlin: 'Kotlin',
  md: 'Markdown',
  markdown: 'Markdown',
  php: 'PHP',
  py: 'Python',
  python: 'Python',
  rb: 'Ruby',
  ruby: 'Ruby',
  rs: 'Rust',
  rust: 'Rust',
  sh: 'shell',
  shell: 'shell',
  sql: 'SQL',
  swift: 'Swift',
  ts: 'TypeScript',
  tsx: 'TypeScript',
  typescript: 'TypeScript',
  xml: 'XML',
  yaml: 'YAML',
  yml: 'YAML',
  zsh: 'shell',
};

const EMOJI = /(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\u200D|\uFE0E|\uFE0F|\u20E3)+/gu;
/** Marks no one reads aloud: runs of asterisks, tildes and backticks left as text (an unclosed `**`). */
const STRAY_MARKS = /[*~`]+/g;
const SENTENCE_END = /[.!?:;…]["'”’)\]]*$/;

const sentence = (text: string) => {
  const trimmed = text.trim();
  if (!trimmed) return '';
  return SENTENCE_END.test(trimmed) ? trimmed : `${trimmed}.`;
};

const tidy = (text: string) =>
  text
    .replace(EMOJI, '')
    .replace(STRAY_MARKS, '')
    .replace(/[ \t\n]+/g, ' ')
    .replace(/ +([.,;:!?])/g, '$1')
    .trim();

/** An address read as its site: `https://www.example.com/a?b` → `example.com`. */
function siteOf(url: string): string {
  if (url.toLowerCase().startsWith('mailto:')) return url.slice(7);
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`).hostname.replace(/^www\./i, '');
  } catch {
    return url;
  }
}

const GREEK =
  /\\(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Phi|Psi|Omega)(?![a-zA-Z])/g;
const WORDS: [RegExp, string][] = [
  [/\\(?:cdot|times)(?![a-zA-Z])/g, ' times '],
  [/\\div(?![a-zA-Z])/g, ' divided by '],
  [/\\pm(?![a-zA-Z])/g, ' plus or minus '],
  [/\\(?:leq?|leqslant)(?![a-zA-Z])/g, ' less than or equal to '],
  [/\\(?:geq?|geqslant)(?![a-zA-Z])/g, ' greater than or equal to '],
  [/\\(?:neq?|ne)(?![a-zA-Z])/g, ' not equal to '],
  [/\\approx(?![a-zA-Z])/g, ' approximately '],
  [/\\infty(?![a-zA-Z])/g, ' infinity '],
  [/\\sum(?![a-zA-Z])/g, ' the sum '],
  [/\\prod(?![a-zA-Z])/g, ' the product '],
  [/\\int(?![a-zA-Z])/g, ' the integral '],
  [/\\lim(?![a-zA-Z])/g, ' the limit '],
  [/\\to(?![a-zA-Z])|\\rightarrow(?![a-zA-Z])/g, ' to '],
];

/** A formula in words, roughly as one reads it out: `\frac{a}{b}` → "a over b", `x^2` → "x to the power 2". */
export function spokenMath(tex: string): string {
  let text = tex;
  for (let i = 0; i < 5 && /\\[dt]?frac\s*\{/.test(text); i++) {
    text = text.replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, ' $1 over $2 ');
  }
  text = text.replace(/\\sqrt\s*\{([^{}]*)\}/g, ' the square root of $1 ');
  text = text.replace(GREEK, ' $1 ');
  for (const [pattern, words] of WORDS) text = text.replace(pattern, words);
  text = text.replace(/\\(?:sin|cos|tan|log|ln|exp|max|min)(?![a-zA-Z])/g, (m) => m.slice(1));
  text = text.replace(/\^\s*\{([^{}]*)\}|\^\s*(\S)/g, (_m, group?: string, one?: string) => ` to the power ${group ?? one} `);
  text = text.replace(/_\s*\{([^{}]*)\}|_\s*(\S)/g, (_m, group?: string, one?: string) => ` sub ${group ?? one} `);
  text = text
    .replace(/=/g, ' equals ')
    .replace(/\+/g, ' plus ')
    .replace(/(?<=\s|^)-(?=\s|\w)/g, ' minus ');
  text = text.replace(/\\[a-zA-Z]+/g, ' ').replace(/[{}\\$&]/g, ' ');
  return text.replace(/\s+/g, ' ').trim();
}

function inline(tokens: Token[] | undefined): string {
  return (tokens ?? []).map(inlineToken).join('');
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : decodeEntities(text.text);
    }
    case 'escape':
      return decodeEntities((token as Tokens.Escape).text);
    case 'strong':
    case 'em':
    case 'del':
      return inline((token as Tokens.Strong).tokens);
    case 'codespan':
      return decodeEntities((token as Tokens.Codespan).text);
    case 'br':
      return ' ';
    case 'link': {
      const link = token as Tokens.Link;
      const text = inline(link.tokens).trim();
      // An address shown as itself (an autolink, a bare URL) is read as its site.
      return !text || text === link.href || /^(?:https?:\/\/|www\.|mailto:)/i.test(text) ? siteOf(text || link.href) : text;
    }
    case 'image':
      return (token as Tokens.Image).text || 'an image';
    case 'html':
      return decodeEntities((token as Tokens.HTML).text.replace(/<\/?[a-zA-Z][^<>]*>/g, ' '));
    case 'math':
      return ` ${spokenMath((token as unknown as MathToken).text)} `;
    case 'checkbox':
    case 'footnoteRef':
      return '';
    default:
      return 'text' in token && typeof token.text === 'string' ? token.text : '';
  }
}

function codeBlock(code: Tokens.Code): string {
  const language = code.lang?.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  const name = language ? (LANGUAGES[language] ?? language) : '';
  const lines = code.text ? code.text.replace(/\n+$/, '').split('\n').length : 0;
  return `Code block${name ? ` in ${name}` : ''}, ${lines} ${lines === 1 ? 'line' : 'lines'}.`;
}

function listItem(item: Tokens.ListItem): string {
  const text = item.tokens.map((token) => (token.type === 'text' ? tidy(inlineToken(token)) : block(token))).filter(Boolean);
  const first = sentence(text[0] ?? '');
  const label = item.task ? (item.checked ? 'Done: ' : 'To do: ') : '';
  return [label + first, ...text.slice(1)].filter(Boolean).join(' ');
}

/** One block as it is read (empty: nothing to read). */
function block(token: Token, items?: number): string {
  switch (token.type) {
    case 'heading':
      return sentence(tidy(inline((token as Tokens.Heading).tokens)));
    case 'paragraph':
      return tidy(inline((token as Tokens.Paragraph).tokens));
    case 'text': {
      const text = token as Tokens.Text;
      return tidy(text.tokens ? inline(text.tokens) : decodeEntities(text.text));
    }
    case 'code':
      return codeBlock(token as Tokens.Code);
    case 'blockquote':
      return blocks((token as Tokens.Blockquote).tokens);
    case 'list':
      return (token as Tokens.List).items.slice(0, items).map(listItem).filter(Boolean).join(' ');
    case 'table': {
      const table = token as Tokens.Table;
      const row = (cells: Tokens.TableCell[]) =>
        sentence(
          cells
            .map((cell) => tidy(inline(cell.tokens)))
            .filter(Boolean)
            .join(', '),
        );
      return [row(table.header), ...table.rows.map(row)].filter(Boolean).join(' ');
    }
    case 'math': {
      const math = token as unknown as MathToken;
      return sentence(`Formula: ${spokenMath(math.text)}`);
    }
    case 'footnote': {
      const note = token as unknown as FootnoteToken;
      return `Footnote ${note.label}: ${blocks(note.tokens)}`;
    }
    case 'html':
      return tidy(decodeEntities((token as Tokens.HTML).text.replace(/<\/?[a-zA-Z][^<>]*>/g, ' ')));
    default:
      return '';
  }
}

function blocks(tokens: Token[]): string {
  return tokens
    .map((token) => block(token))
    .filter(Boolean)
    .join(' ');
}

/**
 * The part of a paragraph still being written that can be read already: up to what may yet turn
 * into a link, an address, a formula or a table (`[`, `<`, `$`, `\`, `|`), so that the words read
 * stay the start of what the finished paragraph is read as.
 */
function openParagraph(token: Tokens.Paragraph | Tokens.Text): string {
  const open = token.raw.search(/[[<$\\|]|https?:|www\./);
  const raw = open < 0 ? token.raw : token.raw.slice(0, open);
  // Emphasis marks go (underscores only at a word's edge: snake_case stays).
  return tidy(decodeEntities(raw).replace(/(?<!\w)_+|_+(?!\w)/g, ''));
}

/**
 * Follows one message as it is read: `update` answers the text to speak for the markdown so far.
 * While the message streams, only what can no longer change is read (every block but the last, the
 * items of a list but its last, and the settled start of a paragraph); each block ends with a blank
 * line, so what it answers while streaming is the start of what it answers later.
 */
export class SpokenText {
  private lexed: Lexed | undefined;
  /** The words of finished blocks (the incremental lexer keeps their token objects while a reply streams). */
  private readonly words = new WeakMap<Token, string>();

  private read(token: Token): string {
    let text = this.words.get(token);
    if (text === undefined) this.words.set(token, (text = block(token)));
    return text;
  }

  update(markdown: string, complete: boolean): string {
    const tokens = lexMarkdown(markdown, this.lexed);
    this.lexed = { text: markdown, tokens };
    const meaningful = tokens.filter((token) => token.type !== 'space' && token.type !== 'def');
    const read: string[] = [];
    // Footnotes are read after the text, as they are shown.
    const notes = meaningful.filter((token) => token.type === 'footnote');
    const body = meaningful.filter((token) => token.type !== 'footnote');
    // Each finished block ends with a blank line; the one still open does not (its words may go on).
    let open = '';
    body.forEach((token, index) => {
      if (complete || index < body.length - 1) read.push(this.read(token));
      else if (token.type === 'paragraph' || token.type === 'text') open = openParagraph(token as Tokens.Paragraph);
      else if (token.type === 'list') open = block(token, (token as Tokens.List).items.length - 1);
    });
    if (complete) read.push(...notes.map((note) => this.read(note)));
    return (
      read
        .filter(Boolean)
        .map((text) => `${text}\n\n`)
        .join('') + open
    );
  }
}

/** The words of a finished message (its whole markdown at once). */
export const spokenTextOf = (markdown: string): string => new SpokenText().update(markdown, true).trim();
