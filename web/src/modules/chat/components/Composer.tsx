import type { FileReference } from '@app/contracts/chat';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Icon } from '../../../ui/Icon';
import { useStore } from '../../common/state/createStore';
import { ACCEPTED_FILE_TYPES } from '../../files/api/filesApi';
import { AttachmentTray } from '../../files/components/AttachmentTray';
import type { AttachmentDraft } from '../../files/state/attachmentDraft';
import { preloadMarkdown } from '../../markdown/components/LazyMarkdown';
import { preloadChatMessages } from './LazyChatMessages';

type ComposerProps = {
  onSend: (text: string, files: FileReference[]) => void;
  onStop: () => void;
  streaming: boolean;
  stopping: boolean;
  initialText?: string;
  disabled?: boolean;
  /** The files attached to this message (by the button, a drop on the page, or a paste). */
  attachments: AttachmentDraft;
  /** Shown before the send button (voice mode). */
  extra?: ReactNode;
  /** ArrowUp in the empty box: edit the last message (true when there was one to edit). */
  onEditLast?: () => boolean;
};

const MAX_LENGTH = 32_000;
const ACCEPT = [...ACCEPTED_FILE_TYPES, '.md', '.csv', '.txt'].join(',');

/** The message box: Enter sends, Shift+Enter breaks the line; Stop while a reply streams; files attach by button, drop or paste. */
export function Composer({
  onSend,
  onStop,
  streaming,
  stopping,
  initialText = '',
  disabled,
  attachments,
  extra,
  onEditLast,
}: ComposerProps) {
  const [text, setText] = useState(initialText);
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const uploading = useStore(attachments, (s) => s.items.some((item) => item.status === 'uploading'));
  const attached = useStore(attachments, (s) => s.items.length);
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.style.height = 'auto';
    element.style.height = `${Math.min(element.scrollHeight, 240)}px`;
  }, [text]);
  useEffect(() => {
    if (initialText) setText(initialText);
  }, [initialText]);
  const blocked = !text.trim() || streaming || !!disabled || uploading;
  const submit = () => {
    const content = text.trim();
    if (blocked) return;
    onSend(content, attachments.references());
    attachments.clear();
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
      <AttachmentTray draft={attachments} />
      <div className="composer__row">
        <button
          type="button"
          className="icon-button composer__attach"
          aria-label="Attach files"
          title="Attach files (or drop or paste them)"
          disabled={disabled}
          onClick={() => picker.current?.click()}
        >
          <Icon name="paperclip" />
        </button>
        <input
          ref={picker}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            if (event.target.files) attachments.add(event.target.files);
            event.target.value = '';
            area.current?.focus();
          }}
        />
        <label htmlFor="composer-input" className="visually-hidden">
          Message
        </label>
        <textarea
          id="composer-input"
          ref={area}
          rows={1}
          value={text}
          maxLength={MAX_LENGTH}
          placeholder={attached ? 'Say something about the files' : 'Message the assistant'}
          autoFocus={typeof window !== 'undefined' && window.innerWidth >= 768}
          onChange={(event) => {
            setText(event.target.value);
            preloadMarkdown();
            preloadChatMessages();
          }}
          onPaste={(event) => {
            // Files pasted alone attach; a paste that also carries text stays text.
            const files = [...event.clipboardData.files];
            if (files.length === 0 || event.clipboardData.types.includes('text/plain')) return;
            event.preventDefault();
            attachments.add(files);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
            const plain = !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey;
            if (event.key === 'ArrowUp' && plain && text === '' && !streaming && onEditLast?.()) event.preventDefault();
          }}
        />
        {extra}
        {streaming ? (
          <button
            type="button"
            className="composer__button composer__button--stop"
            onClick={onStop}
            disabled={stopping}
            aria-label="Stop generating"
            title="Stop generating"
          >
            <Icon name="stop" />
          </button>
        ) : (
          <button
            type="submit"
            className="composer__button"
            disabled={blocked}
            aria-label="Send message"
            title={uploading ? 'Waiting for the files to upload' : 'Send (Enter)'}
          >
            <Icon name="send" />
          </button>
        )}
      </div>
    </form>
  );
}
