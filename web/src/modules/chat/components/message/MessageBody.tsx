import type { Ref } from 'react';
import type { SearchTerm } from '@app/contracts/chat/search-terms';
import { LazyMarkdown } from '../../../markdown/components/LazyMarkdown';
import { SearchMarks } from '../../../search/components/SearchMarks';

type MessageBodyProps = { text: string; streaming?: boolean; marks?: SearchTerm[] | null; ref?: Ref<HTMLDivElement> };

/** A reply's text as markdown, with a caret while it streams in. */
export function MessageBody({ text, streaming, marks = null, ref }: MessageBodyProps) {
  return (
    <div className="message__body" ref={ref}>
      <SearchMarks terms={marks}>
        <LazyMarkdown text={text} streaming={streaming} />
      </SearchMarks>
      {streaming && <span className="caret" aria-hidden="true" />}
    </div>
  );
}
