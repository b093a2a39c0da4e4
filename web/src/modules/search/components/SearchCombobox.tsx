import type { SearchHit } from '@app/contracts/chat';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../../ui/Icon';
import { UNTITLED } from '../../chat/utils/titles';
import { useProjects } from '../../projects/hooks/projectQueries';
import { hitPath, useConversationSearch, type SearchLinkState } from '../hooks/useConversationSearch';
import { Highlighted } from './Highlighted';

/** An option shown while nothing is typed (the palette's "New chat" and recent conversations). */
export type ShortcutOption = { id: string; label: string; hint?: string; icon?: 'plus' | 'file'; run: () => void };

type SearchComboboxProps = {
  /** The field's accessible name and placeholder. */
  label: string;
  placeholder: string;
  autoFocus?: boolean;
  /** Escape in the field: the palette closes; the sidebar's field clears first. */
  onEscape?: () => void;
  /** After a result or option was chosen (the palette closes, the narrow sidebar too). */
  onChosen?: () => void;
  /** Options while nothing is typed. */
  idle?: ShortcutOption[];
  /** Shown instead of the results while nothing is typed (the sidebar's conversation list). */
  children?: ReactNode;
  className?: string;
};

const statusOf = (typed: string, q: string, count: number, pending: boolean, failed: boolean) => {
  if (!typed.trim()) return '';
  if (failed) return 'The search failed. Try again.';
  if (pending && q !== typed.trim()) return 'Searching…';
  if (count === 0) return `No conversation matches “${typed.trim()}”.`;
  return `${count} ${count === 1 ? 'result' : 'results'}. Use the up and down arrows to choose, Enter to open.`;
};

/**
 * A search field over the caller's conversations, as a combobox (ARIA 1.2): the results are a
 * listbox below it; Up and Down move through them (focus stays in the field), Enter opens one (the
 * message scrolled to and marked), Escape clears the field or leaves; how many were found is
 * announced politely.
 */
export function SearchCombobox({ label, placeholder, autoFocus, onEscape, onChosen, idle = [], children, className }: SearchComboboxProps) {
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const search = useConversationSearch(typed);
  const projects = useProjects();
  // Which project each result's conversation is in, by the names the sidebar lists.
  const projectNames = useMemo(() => new Map((projects.data ?? []).map((p) => [p.project_id, p.name])), [projects.data]);
  const searching = typed.trim().length > 0;
  const options: ({ kind: 'hit'; hit: SearchHit } | { kind: 'idle'; option: ShortcutOption })[] = searching
    ? search.results.map((hit) => ({ kind: 'hit' as const, hit }))
    : idle.map((option) => ({ kind: 'idle' as const, option }));
  const optionId = (i: number) => `${listId}-option-${i}`;

  useEffect(() => setActive(0), [search.q, searching]);
  // In a dialog the field is focused once the dialog is shown (its effect runs after this one's).
  useEffect(() => {
    if (!autoFocus) return;
    const frame = requestAnimationFrame(() => input.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [autoFocus]);

  const choose = (i: number) => {
    const option = options[i];
    if (!option) return;
    if (option.kind === 'hit') navigate(hitPath(option.hit), { state: { searchQuery: search.q } satisfies SearchLinkState });
    else option.option.run();
    setTyped('');
    onChosen?.();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!options.length) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + options.length) % options.length);
    } else if (event.key === 'Home' && options.length && event.ctrlKey) {
      setActive(0);
    } else if (event.key === 'Enter') {
      if (!options.length) return;
      event.preventDefault();
      choose(Math.min(active, options.length - 1));
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (typed && !onEscape) setTyped('');
      else onEscape?.();
    }
  };

  const expanded = options.length > 0;
  const status = statusOf(typed, search.q, search.results.length, search.pending, search.failed);
  return (
    <div className={`search ${className ?? ''}`}>
      <div className="search__field">
        <Icon name="search" size={16} />
        <input
          ref={input}
          type="search"
          role="combobox"
          aria-label={label}
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded ? optionId(Math.min(active, options.length - 1)) : undefined}
          placeholder={placeholder}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {search.pending && <span className="search__busy" aria-hidden="true" />}
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      <ul id={listId} role="listbox" aria-label={searching ? 'Search results' : label} className="search__results" hidden={!expanded}>
        {options.map((option, i) => (
          <li
            key={option.kind === 'hit' ? `${option.hit.chat_id}:${option.hit.message_id ?? ''}` : option.option.id}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className="search__result"
            data-active={i === active}
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => choose(i)}
          >
            {option.kind === 'hit' ? (
              <>
                <span className="search__title search__title--hit">
                  <span className="search__title-text">
                    <Highlighted text={option.hit.conversation_title || UNTITLED} highlights={option.hit.title_highlights} />
                  </span>
                  {option.hit.project_id && projectNames.get(option.hit.project_id) && (
                    <span className="search__project">
                      <Icon name="folder" size={12} />
                      <span className="visually-hidden">in the project </span>
                      {projectNames.get(option.hit.project_id)}
                    </span>
                  )}
                </span>
                {option.hit.message_id && (
                  <span className="search__snippet">
                    <span className="visually-hidden">{option.hit.sender === 'user' ? 'You: ' : 'Assistant: '}</span>
                    <Highlighted text={option.hit.snippet} highlights={option.hit.highlights} />
                  </span>
                )}
              </>
            ) : (
              <span className="search__title search__title--option">
                {option.option.icon && <Icon name={option.option.icon} size={15} />}
                {option.option.label}
                {option.option.hint && <kbd className="search__hint">{option.option.hint}</kbd>}
              </span>
            )}
          </li>
        ))}
      </ul>
      {searching && !expanded && !search.pending && <p className="muted small search__empty">{status}</p>}
      {!searching && children}
    </div>
  );
}
