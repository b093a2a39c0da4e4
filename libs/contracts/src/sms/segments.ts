/*
 * How a text is sent in SMS segments (3GPP TS 23.038 / 23.040): one counter for the sms service (what
 * it sends and bills) and the web client (what it shows), so the two never disagree.
 *
 * A text whose every character is in the GSM 03.38 alphabet travels as GSM-7: 160 septets in one
 * segment, 153 per segment once it needs more (the rest is the concatenation header); a character of
 * the extension table (`€ [ ] { } \ ^ ~ |` and form feed) takes two septets and is never split across
 * segments. Any other character makes the whole text UCS-2: 70 UTF-16 code units in one segment, 67
 * per segment beyond; a surrogate pair (an emoji) is never split either.
 *
 * Typography is not a reason for UCS-2: curly quotes, dashes, the ellipsis, unusual spaces and bullets
 * have GSM-7 equivalents, and `toGsm7` puts them in before the encoding is chosen (as Twilio's "smart
 * encoding" would). Only what has no equivalent (an emoji, another script, most accented capitals)
 * makes a text UCS-2, and then its budget is counted in UCS-2 segments.
 *
 * An empty text is 0 segments everywhere: there is nothing to send (Twilio refuses an empty body, and
 * the product never sends one).
 *
 * No runtime dependency: the browser loads this module.
 */

const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '\f^{}\\[~]|€';
const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SegmentCount {
  encoding: SmsEncoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
}

/** Units in a text of one segment, and per segment of a longer one. */
export const SEGMENT_LIMITS = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
} as const satisfies Record<SmsEncoding, { single: number; multi: number }>;

/**
 * Characters outside GSM-7 that have an equivalent in it, by what replaces them. Letters are never
 * changed (a name keeps its spelling); only typography.
 */
const EQUIVALENTS: readonly [replacement: string, characters: string][] = [
  // Apostrophes and single quotes: ’ ‘ ‚ ‛ ′ ‹ › ´ ` ʼ ＇
  ["'", '\u2019\u2018\u201A\u201B\u2032\u2039\u203A\u00B4\u0060\u02BC\uFF07'],
  // Double quotes: “ ” „ ‟ ″ « » ＂
  ['"', '\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\uFF02'],
  // Hyphens and dashes: ‐ ‑ ‒ – — ― − ⁃
  ['-', '\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043'],
  // Bullets and dots used as marks (the masked number +1••••••1589): • ‣ ◦ ∙ ● ⋅ ⁎ ∗ (not the
  // middle dot ·, a letter of Catalan's l·l)
  ['*', '\u2022\u2023\u25E6\u2219\u25CF\u22C5\u204E\u2217'],
  // Spaces: tab, no-break, the typographic ones, narrow no-break, medium mathematical, ideographic
  [' ', '\t\u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000'],
  // Line and paragraph separators, vertical tab
  ['\n', '\u2028\u2029\u000B'],
  ['...', '\u2026'],
  ['..', '\u2025'],
  ['/', '\u2044\u2215'],
  ['(c)', '\u00A9'],
  ['(R)', '\u00AE'],
  ['TM', '\u2122'],
  // Invisible: soft hyphen, zero-width space, word joiner, byte order mark
  ['', '\u00AD\u200B\u2060\uFEFF'],
];
const REPLACEMENT = new Map(EQUIVALENTS.flatMap(([replacement, characters]) => [...characters].map((c) => [c, replacement] as const)));
const REPLACEABLE = new RegExp(`[${[...REPLACEMENT.keys()].map((c) => `\\u{${c.codePointAt(0)!.toString(16)}}`).join('')}]`, 'gu');

/** Whether every character of the text is in the GSM-7 alphabet (basic or extension table), as it is. */
export function isGsm7(text: string): boolean {
  for (const char of text) if (!BASIC.has(char) && !EXTENSION.has(char)) return false;
  return true;
}

/**
 * The text with its typography in GSM-7: composed accents (NFC: `e` + `◌́` is `é`), then curly quotes,
 * dashes, the ellipsis, unusual spaces, bullets and the like replaced by their GSM-7 equivalents.
 * Anything else is kept as it is (an emoji, another script): such a text is still UCS-2.
 */
export function toGsm7(text: string): string {
  return text.normalize('NFC').replace(REPLACEABLE, (char) => REPLACEMENT.get(char) ?? char);
}

/** The cost of each character: septets for GSM-7, code units for UCS-2 (iterating by code point keeps pairs whole). */
function unitsOf(text: string, encoding: SmsEncoding): number[] {
  const units: number[] = [];
  for (const char of text) units.push(encoding === 'GSM-7' ? (EXTENSION.has(char) ? 2 : 1) : char.length);
  return units;
}

/**
 * The encoding and the number of segments the text is sent in: counted after `toGsm7`, as the product
 * sends it. An empty text is 0 segments.
 */
export function countSegments(text: string): SegmentCount {
  const sent = toGsm7(text);
  const encoding: SmsEncoding = isGsm7(sent) ? 'GSM-7' : 'UCS-2';
  const units = unitsOf(sent, encoding);
  const total = units.reduce((sum, unit) => sum + unit, 0);
  const limits = SEGMENT_LIMITS[encoding];
  if (total <= limits.single) return { encoding, segments: total === 0 ? 0 : 1, units: total };
  let segments = 1;
  let used = 0;
  for (const unit of units) {
    if (used + unit > limits.multi) {
      segments += 1;
      used = 0;
    }
    used += unit;
  }
  return { encoding, segments, units: total };
}

/** What ends a text cut at a word: GSM-7, so a cut never makes the text UCS-2. */
export const CUT_MARK = '...';

/** Where a sentence ends: `.` `!` `?` (closing quotes and brackets kept) before a space, or a line's end. */
const SENTENCE_END = /[.!?]+["')\]]*(?=\s|$)|(?=\n)/g;
/** Where a word ends: before a space. */
const WORD_END = /\S(?=\s)/g;

/** The ends of the cuts a pattern allows, in order: the length of each prefix. */
function cutsOf(text: string, pattern: RegExp): number[] {
  const ends = new Set<number>();
  for (const match of text.matchAll(pattern)) {
    const end = match.index + match[0].length;
    if (end > 0 && text.slice(0, end).trim()) ends.add(end);
  }
  return [...ends].sort((a, b) => a - b);
}

/** The longest of the cuts whose text fits (segments only grow with the prefix: a binary search). */
function longestFitting(cuts: number[], fits: (end: number) => boolean): number | undefined {
  let low = 0;
  let high = cuts.length - 1;
  let best: number | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (fits(cuts[mid])) {
      best = cuts[mid];
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}

/**
 * The text as it goes out in at most `maxSegments` segments (at least one). It is first put in GSM-7
 * where typography allows (`toGsm7`); when it then fits, that is all. When it does not, it ends at
 * the last sentence that fits, followed by `pointer` (the caller's "(more in the app)") when given;
 * only when no sentence ends within the budget does it end at the last whole word that fits, followed
 * by `...` (and the pointer). A word is never cut: when not even the first word fits, the text is the
 * `...` and the pointer alone. The budget is counted in the encoding the result is sent in.
 */
export function fitToSegments(text: string, maxSegments: number, pointer?: string): string {
  const budget = Math.max(1, Math.floor(maxSegments));
  const sent = toGsm7(text);
  if (countSegments(sent).segments <= budget) return sent;
  const tail = pointer ? ` ${toGsm7(pointer).trim()}` : '';
  const ending = (end: number, mark: string) => `${sent.slice(0, end).trimEnd()}${mark}${tail}`;
  const fits = (mark: string) => (end: number) => countSegments(ending(end, mark)).segments <= budget;
  const sentence = longestFitting(cutsOf(sent, SENTENCE_END), fits(''));
  if (sentence !== undefined) return ending(sentence, '');
  const word = longestFitting(cutsOf(sent, WORD_END), fits(CUT_MARK));
  return word !== undefined ? ending(word, CUT_MARK) : `${CUT_MARK}${tail}`;
}
