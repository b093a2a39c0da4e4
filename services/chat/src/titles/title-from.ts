const TRAILING_FILLERS = new Set([
  'a',
  'an',
  'and',
  'the',
  'to',
  'of',
  'in',
  'on',
  'for',
  'with',
  'i',
  'my',
  'or',
  'but',
  'so',
  'at',
  'is',
  'am',
  'are',
]);

/** A short title from the first words of a message (the offline model's way, and the fallback when a model gives none). */
export function titleFrom(text: string): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const sentence = clean.split(/(?<=[.!?])\s/)[0] ?? clean;
  const words = sentence
    .replace(/[.,;:!?]+$/, '')
    .split(' ')
    .slice(0, 7);
  // Not ending on a word that leaves the title hanging ("...and I").
  while (words.length > 2 && TRAILING_FILLERS.has(words[words.length - 1].toLowerCase())) words.pop();
  const title = words.join(' ').replace(/[.,;:!?]+$/, '');
  const capped = title.length > 60 ? `${title.slice(0, 59)}…` : title;
  return capped ? capped[0].toUpperCase() + capped.slice(1) : 'New conversation';
}
