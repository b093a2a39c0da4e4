/** `+14155550123` → `+1******0123`: how a member without a name shows to the others (GSM-7 characters only). */
export function maskNumber(phone: string): string {
  return `${phone.slice(0, 2)}${'*'.repeat(Math.max(0, phone.length - 6))}${phone.slice(-4)}`;
}

/** How a member is labelled in the group's texts: their name, else their masked number. */
export function memberLabel(name: string | null | undefined, phone: string): string {
  return name?.trim() || maskNumber(phone);
}

/** Where a member's words end in the offsets of a search hit: each query word found at a word start. */
export function highlightsOf(body: string, q: string | undefined): { start: number; end: number }[] {
  if (!q) return [];
  const words = q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0 && w !== 'or' && w !== 'and');
  const lower = body.toLowerCase();
  const found: { start: number; end: number }[] = [];
  for (const word of new Set(words)) {
    let from = 0;
    for (;;) {
      const at = lower.indexOf(word, from);
      if (at < 0) break;
      const before = at === 0 ? '' : lower[at - 1];
      if (!/[\p{L}\p{N}]/u.test(before)) {
        let end = at + word.length;
        while (end < lower.length && /[\p{L}\p{N}]/u.test(lower[end])) end++;
        found.push({ start: at, end });
      }
      from = at + word.length;
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
