/** The GSM 03.38 basic set (one septet each) and its extension (two septets: escape + char). */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';
const basic = new Set(GSM_BASIC);
const extended = new Set(GSM_EXTENDED);

export type SegmentCount = { encoding: 'GSM-7' | 'UCS-2'; units: number; segments: number; perSegment: number };

/**
 * How many text messages a body takes: GSM-7 (160 in one, 153 per part when split; extension
 * characters count twice and a part never ends half-way through one) unless a character is outside
 * GSM-7, then UCS-2 (70 in one, 67 per part, counted in UTF-16 units; a pair is never split).
 */
export function countSegments(body: string): SegmentCount {
  const chars = [...body];
  const gsm = chars.every((c) => basic.has(c) || extended.has(c));
  if (gsm) {
    const sizes = chars.map((c) => (extended.has(c) ? 2 : 1));
    return count('GSM-7', sizes, 160, 153);
  }
  return count(
    'UCS-2',
    chars.map((c) => c.length),
    70,
    67,
  );
}

function count(encoding: SegmentCount['encoding'], sizes: number[], single: number, part: number): SegmentCount {
  const units = sizes.reduce((a, b) => a + b, 0);
  if (units <= single) return { encoding, units, segments: units === 0 ? 0 : 1, perSegment: single };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > part) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, units, segments, perSegment: part };
}
