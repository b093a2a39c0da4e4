type HighlightedProps = {
  text: string;
  highlights: { start: number; end: number }[];
  /** The marks' class (none: styled by where they are, as in the search's results). */
  className?: string;
};

/** A text with the given ranges in <mark> (offsets from the server; ranges out of bounds or overlapping are skipped). */
export function Highlighted({ text, highlights, className }: HighlightedProps) {
  const parts: (string | { marked: string })[] = [];
  let at = 0;
  for (const { start, end } of highlights) {
    if (start < at || end > text.length || end <= start) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push({ marked: text.slice(start, end) });
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return (
    <>
      {parts.map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <mark key={i} className={className}>
            {part.marked}
          </mark>
        ),
      )}
    </>
  );
}
