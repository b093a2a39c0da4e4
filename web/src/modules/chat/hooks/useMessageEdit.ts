import { useState } from 'react';

/** Editing a message of the user's: the text being edited, opened from the message's text each time. */
export function useMessageEdit(text: string, onSubmit: (text: string) => void) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(text);
  return {
    editing,
    draft,
    setDraft,
    start: () => {
      setDraft(text);
      setEditing(true);
    },
    cancel: () => setEditing(false),
    submit: () => {
      const trimmed = draft.trim();
      if (!trimmed) return;
      setEditing(false);
      onSubmit(trimmed);
    },
  };
}
