/**
 * A reply written for a phone: no markdown (a phone shows the asterisks), links kept as plain URLs
 * (a phone makes them tappable), images left out of the text (they go as MMS media), and no more
 * than one blank line in a row.
 */
export function formatForPhone(markdown: string): string {
  let text = markdown.replace(/\r\n?/g, '\n');
  // Fenced code: keep the code, drop the fences and the language tag.
  text = text.replace(/```[^\n]*\n([\s\S]*?)```/g, (_m, code: string) => code.replace(/\n$/, ''));
  // Images: the picture travels as media, not as markdown.
  text = text.replace(/!\[[^\]]*\]\([^)]*\)/g, '');
  // Links: `text (url)`, or the URL alone when the text is the URL.
  text = text.replace(/\[([^\]]+)\]\((\S+?)(?:\s+"[^"]*")?\)/g, (_m, label: string, url: string) =>
    label.trim() === url || label.trim() === url.replace(/^https?:\/\//, '') ? url : `${label} (${url})`,
  );
  text = text.replace(/<(https?:\/\/[^>\s]+)>/g, '$1');
  text = text
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s{0,3}>\s?/, '')
        .replace(/^(\s*)[*+]\s+/, '$1- ')
        .replace(/^\s*([-*_])(\s*\1){2,}\s*$/, '')
        .replace(/^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/, ''),
    )
    .join('\n');
  // Emphasis and inline code: the words stay, the markers go (URLs keep their underscores).
  text = text.replace(/`([^`\n]+)`/g, '$1');
  text = text.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2');
  text = text.replace(/(^|[\s(])\*(?=\S)([^*\n]*?\S)\*(?=$|[\s).,!?:;])/gm, '$1$2');
  text = text.replace(/(^|[\s(])_(?=\S)([^_\n]*?\S)_(?=$|[\s).,!?:;])/gm, '$1$2');
  text = text.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1');
  return text
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
