import { Suspense } from 'react';
import { preloadable } from '../../common/utils/preloadable';

type LazyMarkdownProps = { text: string; streaming?: boolean };

const Markdown = preloadable<LazyMarkdownProps>(() => import('./Markdown').then((module) => module.Markdown));

/**
 * The markdown renderer (marked and its rules, about 13 KB gzipped) loaded with the first message
 * shown, not with the empty chat screen. Until it is there, the text shows as it is, in the same
 * box, so nothing jumps when it arrives; once it is, a message renders with it at once.
 */
export function LazyMarkdown({ text, streaming }: LazyMarkdownProps) {
  return (
    <Suspense
      fallback={
        <div className="markdown">
          <p className="markdown__pending">{text}</p>
        </div>
      }
    >
      <Markdown.Component text={text} streaming={streaming} />
    </Suspense>
  );
}

/**
 * Starts loading the renderer (once) while the user types the first message, so the reply does not
 * wait for it; a conversation opened with messages loads it through its first message.
 */
export function preloadMarkdown(): void {
  void Markdown.preload().catch(() => undefined);
}
