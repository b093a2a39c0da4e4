import type { UserMemory } from '@app/contracts/memory';
import { useId, useRef, useState, type FormEvent } from 'react';
import { MEMORY_TEXT_MAX } from '../api/memoryApi';
import { Spinner } from '../../../ui/Spinner';
import { useMemoryActions } from '../hooks/memoryQueries';
import { GuessButtons } from './GuessButtons';
import { awaitsConfirmation, memoryTextProblem } from '../utils/memoryRules';
import { IconButton } from '../../../ui/IconButton';

type MemoryItemProps = { memory: UserMemory; busy: boolean };

/** One memory: its text, what kind it is, and what can be done with it (edit inline, delete; confirm or reject a guess). */
export function MemoryItem({ memory, busy }: MemoryItemProps) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(memory.text);
  const [problem, setProblem] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const inputId = useId();
  const problemId = useId();
  const guess = awaitsConfirmation(memory);
  const actions = useMemoryActions();

  const stopEditing = () => {
    setEditing(false);
    setProblem(null);
    // Back to the button that opened the editor, for keyboard users.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const issue = memoryTextProblem(text);
    if (issue) return setProblem(issue);
    if (text.trim() === memory.text) return stopEditing();
    stopEditing();
    await actions.edit(memory.user_memory_id, text).catch(() => undefined); // rolled back; the page shows the error
  };

  return (
    <li className="memory" data-guess={guess || undefined}>
      {editing ? (
        <form className="memory__edit" onSubmit={save}>
          <label className="visually-hidden" htmlFor={inputId}>
            Edit this memory
          </label>
          <textarea
            id={inputId}
            value={text}
            rows={2}
            maxLength={MEMORY_TEXT_MAX}
            autoFocus
            aria-invalid={!!problem}
            aria-describedby={problem ? problemId : undefined}
            onChange={(event) => {
              setText(event.target.value);
              setProblem(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                setText(memory.text);
                stopEditing();
              } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                event.currentTarget.form?.requestSubmit();
              }
            }}
          />
          {problem && (
            <p className="memory__problem" id={problemId} role="alert">
              {problem}
            </p>
          )}
          <div className="memory__actions">
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => {
                setText(memory.text);
                stopEditing();
              }}
            >
              Cancel
            </button>
            <button type="submit" className="button button--primary button--small">
              Save
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="memory__main">
            <p className="memory__text">{memory.text}</p>
            <p className="memory__meta">
              {memory.is_inference
                ? memory.is_confirmed
                  ? 'Guessed by the assistant · confirmed by you'
                  : 'Guessed by the assistant · not confirmed yet'
                : memory.is_fact
                  ? 'Something you said'
                  : 'A preference you mentioned'}
              {busy && <Spinner label="Saving" />}
            </p>
          </div>
          <div className="memory__actions">
            {guess && (
              <GuessButtons
                memory={memory}
                disabled={busy}
                onConfirm={() => {
                  // The buttons go once it is confirmed: the focus moves on to Edit.
                  void actions.confirm(memory.user_memory_id).catch(() => undefined);
                  requestAnimationFrame(() => editButton.current?.focus());
                }}
              />
            )}
            <IconButton
              ref={editButton}
              small
              icon="edit"
              iconSize={16}
              label={`Edit: ${memory.text}`}
              title="Edit"
              onClick={() => {
                setText(memory.text);
                setEditing(true);
              }}
            />
            <IconButton
              small
              icon="trash"
              iconSize={16}
              label={`Delete: ${memory.text}`}
              title="Delete"
              onClick={() => void actions.remove(memory.user_memory_id)}
            />
          </div>
        </>
      )}
    </li>
  );
}
