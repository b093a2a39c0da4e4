import { highlightsIn, type SearchTerm } from '@app/contracts/chat/search-terms';
import { createContext, useContext, type ReactNode } from 'react';
import { Highlighted } from './Highlighted';

const SearchMarksContext = createContext<SearchTerm[] | null>(null);

type SearchMarksProps = { terms: SearchTerm[] | null; children: ReactNode };

/**
 * The words of a search to mark in what it wraps (a result's message, opened from the search):
 * every `MarkedText` inside shows them in <mark>, found as the server finds them for its snippets
 * (`highlightsIn`, shared through the contracts). Text is marked as React renders it, never by
 * changing the page behind React's back.
 */
export function SearchMarks({ terms, children }: SearchMarksProps) {
  return <SearchMarksContext.Provider value={terms && terms.length ? terms : null}>{children}</SearchMarksContext.Provider>;
}

/** A piece of text, with the surrounding `SearchMarks`' words in <mark> (as it is, outside one). */
export function MarkedText({ text }: { text: string }) {
  const terms = useContext(SearchMarksContext);
  if (!terms) return text;
  const highlights = highlightsIn(text, terms);
  return highlights.length ? <Highlighted text={text} highlights={highlights} className="search-mark" /> : text;
}
