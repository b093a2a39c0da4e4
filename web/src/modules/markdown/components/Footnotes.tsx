import type { Token } from 'marked';
import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';
import type { FootnoteRefToken, FootnoteToken } from '../utils/extensions';

type Note = { label: string; number: number; token: FootnoteToken };

/** A message's footnotes: numbered in the order they are first referred to, as GitHub does. */
export type FootnoteIndex = {
  /** Per message, so two replies' notes never share an id. */
  prefix: string;
  numbers: Map<string, { number: number; references: number }>;
  notes: Note[];
};

const NONE: FootnoteIndex = { prefix: '', numbers: new Map(), notes: [] };

export const FootnotesContext = createContext<FootnoteIndex>(NONE);

/** Every token under `token` (list items, table cells, inline tokens), in reading order. */
function children(token: Token): Token[] {
  const t = token as Token & { tokens?: Token[]; items?: Token[]; header?: { tokens: Token[] }[]; rows?: { tokens: Token[] }[][] };
  if (t.type === 'table')
    return [...(t.header ?? []).flatMap((cell) => cell.tokens), ...(t.rows ?? []).flat().flatMap((cell) => cell.tokens)];
  return [...(t.items ?? []), ...(t.tokens ?? [])];
}

/** The notes a text defines and refers to (a note nothing refers to is not shown, nor a reference to no note). */
export function footnotesOf(text: string, tokens: Token[], prefix: string): FootnoteIndex {
  if (!text.includes('[^')) return NONE;
  const defined = new Map<string, FootnoteToken>();
  for (const token of tokens) {
    if (token.type === 'footnote' && !defined.has((token as unknown as FootnoteToken).label)) {
      defined.set((token as unknown as FootnoteToken).label, token as unknown as FootnoteToken);
    }
  }
  if (defined.size === 0) return NONE;
  const numbers = new Map<string, { number: number; references: number }>();
  const notes: Note[] = [];
  const visit = (token: Token) => {
    if (token.type === 'footnote') return;
    if (token.type === 'footnoteRef') {
      const { label } = token as unknown as FootnoteRefToken;
      const note = defined.get(label);
      if (!note) return;
      const seen = numbers.get(label);
      if (seen) seen.references += 1;
      else {
        numbers.set(label, { number: notes.length + 1, references: 1 });
        notes.push({ label, number: notes.length + 1, token: note });
      }
      return;
    }
    children(token).forEach(visit);
  };
  tokens.forEach(visit);
  return { prefix, numbers, notes };
}

/** Scrolls to an element of the page and gives it the focus (without a history entry per click). */
function reach(event: MouseEvent, target: HTMLElement | null): void {
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
}

/** `[^label]`: a superscript number linking to its note; the raw text when there is no such note. */
export function FootnoteReference({ token }: { token: FootnoteRefToken }) {
  const { prefix, numbers } = useContext(FootnotesContext);
  const entry = numbers.get(token.label);
  if (!entry) return <>{token.raw}</>;
  const note = `${prefix}fn-${entry.number}`;
  return (
    <sup className="footnote-ref">
      <a
        href={`#${note}`}
        // Only a note referred to once can name its reference (ids are unique); the way back finds the first one.
        id={entry.references === 1 ? `${prefix}fnref-${entry.number}` : undefined}
        aria-label={`Footnote ${entry.number}`}
        onClick={(event) => reach(event, document.getElementById(note))}
      >
        {entry.number}
      </a>
    </sup>
  );
}

type FootnotesProps = { footnotes: FootnoteIndex; render: (note: FootnoteToken, back: ReactNode) => ReactNode };

/** The notes at the end of the reply, each with its way back to where it was referred to. */
export function Footnotes({ footnotes, render }: FootnotesProps) {
  const { prefix, notes } = footnotes;
  if (notes.length === 0) return null;
  return (
    <section className="footnotes">
      <h3 className="visually-hidden">Footnotes</h3>
      <ol>
        {notes.map(({ label, number, token }) => {
          const back = (
            <a
              href={`#${prefix}fnref-${number}`}
              className="footnote-back"
              aria-label={`Back to reference ${number}`}
              onClick={(event) => reach(event, document.querySelector<HTMLElement>(`a[href="#${prefix}fn-${number}"]`))}
            >
              ↩
            </a>
          );
          return (
            <li key={label} id={`${prefix}fn-${number}`} tabIndex={-1}>
              {render(token, back)}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
