/** Keywords carriers and Twilio honour (CTIA): any case, surrounding spaces and punctuation ignored. */
export const STOP_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'] as const;
export const START_KEYWORDS = ['START', 'YES', 'UNSTOP'] as const;
export const HELP_KEYWORDS = ['HELP', 'INFO'] as const;

export type Keyword = 'stop' | 'start' | 'help';

/** The keyword a whole text is, if any: `  Stop! ` is STOP, `stop talking` is not a keyword. */
export function keywordOf(body: string): { keyword: Keyword; word: string } | null {
  const word = body
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toUpperCase();
  if ((STOP_KEYWORDS as readonly string[]).includes(word)) return { keyword: 'stop', word };
  if ((START_KEYWORDS as readonly string[]).includes(word)) return { keyword: 'start', word };
  if ((HELP_KEYWORDS as readonly string[]).includes(word)) return { keyword: 'help', word };
  return null;
}
