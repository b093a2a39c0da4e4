import { Marked, type MarkedExtension, type MarkedOptions, type Token, type TokenizerAndRendererExtension, type Tokens } from 'marked';

/** A formula: `$$…$$` or `\[…\]` (display), `\(…\)` or `$…$` (inline). Typeset by KaTeX, loaded on demand. */
export type MathToken = { type: 'math'; raw: string; text: string; display: boolean };
/** `[^label]` in the text: a link to its note, when the note is defined. */
export type FootnoteRefToken = { type: 'footnoteRef'; raw: string; label: string };
/** `[^label]: text` (lines indented by four spaces continue it): one note, shown at the end of the reply. */
export type FootnoteToken = { type: 'footnote'; raw: string; label: string; tokens: Token[] };

/** Display math as its own block: `$$ … $$` or `\[ … \]` (on one line or several). */
const BLOCK_MATH = /^ {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n+|$)/;
/** `$$…$$` and `\[…\]` within a line, `\(…\)`: the delimiters are unambiguous. */
const DELIMITED_MATH = /^(?:\$\$([^$]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\))/;
/**
 * `$…$` as Pandoc reads it, so that prices stay text: the opening `$` has a non-space after it,
 * the closing one a non-space before it and no digit after it, and there is no `$` or blank line
 * between, nor a code span ("$5 and $10" is two prices: a space before the second `$`; "$5-$10" too:
 * a digit after it).
 */
const DOLLAR_MATH = /^\$(?![\s$])((?:\\\$|[^$`\n]|\n(?![ \t]*\n))+?)(?<![\s\\])\$(?!\d)/;
const FOOTNOTE_REF = /^\[\^([^\]\s]+)\]/;
/** A note's first line, and the lines after it indented by four spaces (blank lines between them allowed). */
const FOOTNOTE = /^ {0,3}\[\^([^\]\s]+)\]:[ \t]*([^\n]*(?:\n(?:[ \t]*\n)*(?: {4}|\t)[^\n]*)*)(?:\n+|$)/;

const blockMath: TokenizerAndRendererExtension = {
  name: 'math',
  level: 'block',
  start: (src) => src.match(/(?:^|\n) {0,3}(?:\$\$|\\\[)/)?.index,
  tokenizer(src) {
    const match = BLOCK_MATH.exec(src);
    if (!match) return undefined;
    const text = (match[1] ?? match[2]).trim();
    if (!text) return undefined;
    return { type: 'math', raw: match[0], text, display: true } satisfies MathToken;
  },
};

const inlineMath: TokenizerAndRendererExtension = {
  name: 'inlineMath',
  level: 'inline',
  start: (src) => src.match(/\$|\\[([]/)?.index,
  tokenizer(src) {
    const delimited = DELIMITED_MATH.exec(src);
    if (delimited) {
      const text = (delimited[1] ?? delimited[2] ?? delimited[3]).trim();
      if (!text) return undefined;
      return { type: 'math', raw: delimited[0], text, display: delimited[3] === undefined } satisfies MathToken;
    }
    // A `$` right after a word character or another `$` opens no formula (US$5, $$ handled above).
    const dollar = DOLLAR_MATH.exec(src);
    if (!dollar) return undefined;
    return { type: 'math', raw: dollar[0], text: dollar[1].trim(), display: false } satisfies MathToken;
  },
};

const footnoteRef: TokenizerAndRendererExtension = {
  name: 'footnoteRef',
  level: 'inline',
  start: (src) => (src.indexOf('[^') >= 0 ? src.indexOf('[^') : undefined),
  tokenizer(src) {
    const match = FOOTNOTE_REF.exec(src);
    // `[^label](url)` is a link whose text starts with ^, not a reference.
    if (!match || src[match[0].length] === '(' || src[match[0].length] === ':') return undefined;
    return { type: 'footnoteRef', raw: match[0], label: match[1] } satisfies FootnoteRefToken;
  },
};

const footnote: TokenizerAndRendererExtension = {
  name: 'footnote',
  level: 'block',
  start: (src) => src.match(/(?:^|\n) {0,3}\[\^[^\]\s]+\]:/)?.index,
  tokenizer(src) {
    const match = FOOTNOTE.exec(src);
    if (!match) return undefined;
    const body = match[2]
      .split('\n')
      .map((line) => line.replace(/^(?: {4}|\t)/, ''))
      .join('\n');
    const token: FootnoteToken = { type: 'footnote', raw: match[0], label: match[1], tokens: [] };
    this.lexer.blockTokens(body, token.tokens);
    return token;
  },
};

/** Our additions to GitHub-flavoured markdown: math and footnotes (as GitHub renders them). */
export const markdownExtensions: MarkedExtension = { extensions: [blockMath, inlineMath, footnoteRef, footnote] };

/** The lexer options every reply is read with (GFM, no hard line breaks, math and footnotes). */
export const lexerOptions: MarkedOptions = new Marked({ gfm: true, breaks: false }, markdownExtensions).defaults;

export const isMath = (token: Token | Tokens.Generic): token is Token & MathToken => token.type === 'math';
