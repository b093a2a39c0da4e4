/** Keywords carriers and Twilio honour (CTIA): any case, surrounding spaces and punctuation ignored. */
export const STOP_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'] as const;
export const START_KEYWORDS = ['START', 'YES', 'UNSTOP'] as const;
export const HELP_KEYWORDS = ['HELP', 'INFO'] as const;

export type Keyword = 'stop' | 'start' | 'help';

/**
 * A short text whose clear intent is to stop is an opt-out too (the FCC's 2025 rule: an opt-out by
 * "any reasonable means" is honoured): "stop please", "please stop texting me", "unsubscribe me",
 * "no more texts". At most this many words; a longer text that mentions stopping is a message.
 */
export const STOP_INTENT_MAX_WORDS = 8;

/** Words that ask to stop whatever else the short text says around them (politeness, emphasis, "me"). */
const STOP_VERBS = new Set(['stop', 'stopall', 'unsubscribe', 'optout']);
/** Words that ask to stop only when the text names the texts themselves ("quit texting me", "cancel my subscription"). */
const STOP_WHEN_NAMED = new Set(['cancel', 'end', 'quit', 'revoke', 'nomore']);
/** What the texts are called: naming them makes the request about them. */
const THE_TEXTS = new Set([
  'text',
  'texts',
  'texting',
  'txt',
  'txts',
  'txting',
  'sms',
  'message',
  'messages',
  'messaging',
  'msg',
  'msgs',
  'sending',
  'contacting',
  'replying',
  'replies',
  'spam',
  'spamming',
  'bothering',
  'bugging',
  'notifications',
  'subscription',
  'alerts',
]);
/** Words that add nothing to a request to stop. */
const FILLER = new Set([
  'please',
  'pls',
  'plz',
  'plse',
  'now',
  'it',
  'me',
  'my',
  'us',
  'i',
  'im',
  'u',
  'you',
  'your',
  'want',
  'to',
  'would',
  'like',
  'wanna',
  'can',
  'could',
  'will',
  'do',
  'just',
  'all',
  'the',
  'this',
  'these',
  'them',
  'em',
  'that',
  'those',
  'any',
  'more',
  'thanks',
  'thank',
  'thx',
  'ty',
  'ok',
  'okay',
  'kindly',
  'hey',
  'hi',
  'hello',
  'right',
  'away',
  'immediately',
  'asap',
  'already',
  'seriously',
  'forever',
  'from',
  'for',
  'of',
  'list',
  'number',
]);

/** The words of a text, lower-cased, apostrophes dropped (`don't` is `dont`), and the two-word requests joined. */
function wordsOf(body: string): string[] {
  const text = body
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’‘`´]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(' ');
  return text
    .replace(/\bopt (?:me )?out\b/g, 'optout')
    .replace(/\bno more\b/g, 'nomore')
    .split(' ')
    .filter(Boolean);
}

/** Whether a short text clearly asks for the texts to stop: one stop word, the rest filler or the texts' name. */
function asksToStop(body: string): boolean {
  const words = wordsOf(body);
  if (words.length === 0 || words.length > STOP_INTENT_MAX_WORDS) return false;
  const meaning = new Set(words.filter((w) => !FILLER.has(w) && !THE_TEXTS.has(w)));
  if (meaning.size !== 1) return false;
  const [word] = meaning;
  return STOP_VERBS.has(word) || (STOP_WHEN_NAMED.has(word) && words.some((w) => THE_TEXTS.has(w)));
}

/**
 * The keyword a text is, if any: the whole text as one word (`  Stop! ` is STOP, `opt-out` is
 * OPTOUT), or a short text whose clear intent is to stop (`stop please`, `please stop texting me`,
 * `no more texts`: STOP). `stop talking`, `don't stop believing` or a question about stopping
 * something else is no keyword.
 */
export function keywordOf(body: string): { keyword: Keyword; word: string } | null {
  const word = body
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toUpperCase();
  if ((STOP_KEYWORDS as readonly string[]).includes(word)) return { keyword: 'stop', word };
  if ((START_KEYWORDS as readonly string[]).includes(word)) return { keyword: 'start', word };
  if ((HELP_KEYWORDS as readonly string[]).includes(word)) return { keyword: 'help', word };
  if (asksToStop(body)) return { keyword: 'stop', word: 'STOP' };
  return null;
}
