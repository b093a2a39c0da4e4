import type { Highlight } from '../api/smsApi';
import { highlightPieces } from '../utils/highlight';

type HighlightedTextProps = { body: string; highlights?: readonly Highlight[] | null };

/** A message body with the parts the search matched in <mark>. */
export function HighlightedText({ body, highlights }: HighlightedTextProps) {
  return (
    <>
      {highlightPieces(body, highlights).map((piece, index) =>
        piece.marked ? <mark key={index}>{piece.text}</mark> : <span key={index}>{piece.text}</span>,
      )}
    </>
  );
}
