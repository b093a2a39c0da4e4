import type { Highlight } from '../api/smsApi';

export type Piece = { text: string; marked: boolean };

/**
 * A message body cut into plain and highlighted pieces from the search's offsets (string indices,
 * end exclusive). Ranges out of bounds are clamped, empty or reversed ones dropped, overlapping and
 * touching ones merged, any order accepted; a range never splits a surrogate pair.
 */
export function highlightPieces(body: string, highlights: readonly Highlight[] | null | undefined): Piece[] {
  const clamp = (n: number) => Math.min(Math.max(Number.isFinite(n) ? Math.trunc(n) : 0, 0), body.length);
  const ranges = (highlights ?? [])
    .map(({ start, end }) => ({ start: widenStart(body, clamp(start)), end: widenEnd(body, clamp(end)) }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  const pieces: Piece[] = [];
  let at = 0;
  for (const { start, end } of merged) {
    if (start > at) pieces.push({ text: body.slice(at, start), marked: false });
    pieces.push({ text: body.slice(start, end), marked: true });
    at = end;
  }
  if (at < body.length || pieces.length === 0) pieces.push({ text: body.slice(at), marked: false });
  return pieces;
}

const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** A start inside a surrogate pair moves back to the pair's start. */
function widenStart(body: string, index: number): number {
  return index > 0 && index < body.length && isLow(body.charCodeAt(index)) ? index - 1 : index;
}

/** An end inside a surrogate pair moves on past the pair. */
function widenEnd(body: string, index: number): number {
  return index > 0 && index < body.length && isLow(body.charCodeAt(index)) ? index + 1 : index;
}
