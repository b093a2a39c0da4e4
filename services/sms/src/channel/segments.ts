/**
 * How a text is cut into SMS segments (3GPP TS 23.038 / 23.040). A text whose every character is in
 * the GSM 03.38 alphabet travels as GSM-7: 160 septets in one segment, 153 per segment once it needs
 * more (the rest is the concatenation header); a character of the extension table (`€ [ ] { } \ ^ ~ |`
 * and form feed) takes two septets (an escape then the character) and is never split across segments.
 * Any other character makes the whole text UCS-2: 70 UTF-16 code units in one segment, 67 per segment
 * beyond; a surrogate pair (an emoji) is two code units and is never split either.
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

export const SEGMENT_LIMITS = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
} as const;

/** Whether every character of the text is in the GSM-7 alphabet (basic or extension table). */
export function isGsm7(text: string): boolean {
  for (const char of text) if (!BASIC.has(char) && !EXTENSION.has(char)) return false;
  return true;
}

/** The cost of each character: septets for GSM-7, code units for UCS-2 (iterating by code point keeps pairs whole). */
function unitsOf(text: string, encoding: SmsEncoding): number[] {
  const units: number[] = [];
  for (const char of text) units.push(encoding === 'GSM-7' ? (EXTENSION.has(char) ? 2 : 1) : char.length);
  return units;
}

/** Packs characters into segments of `size` units without splitting one: the number of segments. */
function pack(units: number[], size: number): number {
  let segments = 1;
  let used = 0;
  for (const unit of units) {
    if (used + unit > size) {
      segments += 1;
      used = 0;
    }
    used += unit;
  }
  return segments;
}

/** The encoding and number of segments a text is sent in. An empty text is one segment. */
export function countSegments(text: string): SegmentCount {
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const units = unitsOf(text, encoding);
  const total = units.reduce((sum, unit) => sum + unit, 0);
  const limits = SEGMENT_LIMITS[encoding];
  const segments = total <= limits.single ? 1 : pack(units, limits.multi);
  return { encoding, segments, units: total };
}

/**
 * The text cut to fit in at most `maxSegments` segments: unchanged when it fits, else shortened at a
 * word boundary when one is near, ending with an ellipsis (`...` in GSM-7, so the cut does not turn
 * the whole text into UCS-2; `…` in UCS-2).
 */
export function fitToSegments(text: string, maxSegments: number, _pointer?: string): string {
  if (countSegments(text).segments <= maxSegments) return text;
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const ellipsis = encoding === 'GSM-7' ? '...' : '…';
  const chars = Array.from(text);
  // Binary search for the longest prefix (in code points) that fits with the ellipsis.
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (countSegments(chars.slice(0, mid).join('').trimEnd() + ellipsis).segments <= maxSegments) low = mid;
    else high = mid - 1;
  }
  let prefix = chars.slice(0, low).join('');
  const lastSpace = prefix.search(/\s\S*$/);
  if (lastSpace > prefix.length * 0.8) prefix = prefix.slice(0, lastSpace);
  return prefix.trimEnd() + ellipsis;
}
