import type { Ref } from 'react';
import { LazyMarkdown } from '../../../markdown/components/LazyMarkdown';

type MessageBodyProps = { text: string; streaming?: boolean; ref?: Ref<HTMLDivElement> };

/** A reply's text as markdown, with a caret while it streams in. */
export function MessageBody({ text, streaming, ref }: MessageBodyProps) {
  return (
    <div className="message__body" ref={ref}>
      <LazyMarkdown text={text} streaming={streaming} />
      {streaming && <span className="caret" aria-hidden="true" />}
    </div>
  );
}
