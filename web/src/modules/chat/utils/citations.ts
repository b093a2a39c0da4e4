import type { Citation } from '@app/contracts/chat';

/** A URL as a Markdown link destination: the characters that would end or break it escaped. */
const destination = (url: string) => url.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/**
 * The reply's numbered markers ([1], [2]) as links to their sources (opened in a new tab by the
 * Markdown renderer). A number without a source, and a marker already a link, stay as they are.
 */
export function linkCitations(text: string, citations: Citation[] | undefined): string {
  if (!citations?.length) return text;
  const byNumber = new Map(citations.map((c) => [c.n, c]));
  return text.replace(/\[(\d{1,3})\](?![(:])/g, (marker, digits: string) => {
    const source = byNumber.get(Number(digits));
    if (!source) return marker;
    return `[\\[${digits}\\]](${destination(source.url)} "${source.title.replace(/"/g, "'")}")`;
  });
}
