import { Lexer, type Token, type TokensList } from 'marked';
import { lexerOptions } from './extensions';

/** A link reference definition (`[name]: url`) or a footnote (`[^name]: text`) applies to the whole text: such a text is lexed whole. */
const DEFINITION = /^ {0,3}\[[^\]\n]+\]:/m;

/**
 * How many texts' tokens are kept: the reply streaming and the stored copy that replaces it, and the
 * messages of a long conversation, rendered again (not lexed again) when scrolled back into view.
 */
const CACHED_TEXTS = 256;

export type Lexed = { text: string; tokens: Token[] };

const cache = new Map<string, Token[]>();

function remember(text: string, tokens: Token[]): Token[] {
  cache.delete(text);
  cache.set(text, tokens);
  if (cache.size > CACHED_TEXTS) cache.delete(cache.keys().next().value as string);
  return tokens;
}

function lexWhole(text: string): Token[] {
  return [...(Lexer.lex(text, lexerOptions) as TokensList)];
}

/**
 * The block tokens of `text`, reusing `previous` (the tokens of an earlier, shorter version of the
 * same text, as a reply streams in): only the last two blocks (with the blank lines after them) are
 * lexed again, from where they start, since text appended at the end can change only those: a
 * paragraph becomes a heading or a table, a list or a quote takes the next lines in. The blocks
 * before them keep their token objects, so their memoised elements do not render again.
 * Answers the same tokens as lexing the whole text (Markdown.test.tsx checks it chunk by chunk).
 */
export function lexMarkdown(text: string, previous?: Lexed): Token[] {
  const cached = cache.get(text);
  if (cached) return remember(text, cached);
  if (!previous || !text.startsWith(previous.text) || text.includes('\r') || DEFINITION.test(text)) return remember(text, lexWhole(text));
  const tokens = previous.tokens;
  // Keep everything before the second-to-last block that is not blank lines.
  let keep = tokens.length;
  for (let blocks = 0; keep > 0 && blocks < 2;) {
    keep -= 1;
    if (tokens[keep].type !== 'space') blocks += 1;
  }
  let offset = 0;
  for (let i = 0; i < keep; i++) offset += tokens[i].raw.length;
  // The kept blocks must end where the text they came from says (they do for marked's tokens).
  const last = tokens[keep - 1];
  if (keep === 0 || text.slice(offset - last.raw.length, offset) !== last.raw) return remember(text, lexWhole(text));
  return remember(text, [...tokens.slice(0, keep), ...lexWhole(text.slice(offset))]);
}
