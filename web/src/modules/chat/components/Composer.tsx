import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../../ui/Icon';

type ComposerProps = {
  onSend: (text: string) => void;
  onStop: () => void;
  streaming: boolean;
  stopping: boolean;
  initialText?: string;
  disabled?: boolean;
};

const MAX_LENGTH = 32_000;

/** The message box: Enter sends, Shift+Enter breaks the line; Stop while a reply streams. */
export function Composer({ onSend, onStop, streaming, stopping, initialText = '', disabled }: ComposerProps) {
  const [text, setText] = useState(initialText);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, 240)}px`;
  }, [text]);
  useEffect(() => {
    if (initialText) setText(initialText);
  }, [initialText]);
  const submit = () => {
    const content = text.trim();
    if (!content || streaming || disabled) return;
    onSend(content);
    setText('');
  };
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor="composer-input" className="visually-hidden">
        Message
      </label>
      <textarea
        id="composer-input"
        ref={area}
        rows={1}
        value={text}
        maxLength={MAX_LENGTH}
        placeholder="Message the assistant"
        autoFocus={typeof window !== 'undefined' && window.innerWidth >= 768}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      {streaming ? (
        <button type="button" className="composer__button composer__button--stop" onClick={onStop} disabled={stopping} aria-label="Stop generating" title="Stop generating">
          <Icon name="stop" />
        </button>
      ) : (
        <button type="submit" className="composer__button" disabled={!text.trim() || disabled} aria-label="Send message" title="Send (Enter)">
          <Icon name="send" />
        </button>
      )}
    </form>
  );
}
