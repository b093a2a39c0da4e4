import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../../ui/Icon';
import { listen } from '../../common/utils/listen';

type ConversationMenuProps = {
  chatId: string;
  /** "Move to project…" (the keyboard's way to move a conversation into a project or out). */
  onMove?: () => void;
  /** Sharing, offered in the menu where the header has no room for its button (a phone). */
  onShare?: () => void;
};

/**
 * The conversation's menu in the header (a disclosure of links): move it to a project, what the
 * assistant remembers from it. Escape or a click elsewhere closes it; Escape gives the focus back to the button.
 */
export function ConversationMenu({ chatId, onShare, onMove }: ConversationMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    return listen(document, { pointerdown: onPointer, keydown: onKey });
  }, [open]);
  return (
    <div
      className="menu"
      ref={root}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label="Conversation options"
        title="More"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((v) => !v)}
      >
        <Icon name="more" />
      </button>
      <ul className="menu__popup" id={menuId} hidden={!open}>
        {onShare && (
          <li className="narrow-only">
            <button
              type="button"
              className="menu__item"
              onClick={() => {
                setOpen(false);
                onShare();
              }}
            >
              <Icon name="share" size={16} /> Share conversation
            </button>
          </li>
        )}
        {onMove && (
          <li>
            <button
              type="button"
              className="menu__item"
              onClick={() => {
                setOpen(false);
                onMove();
              }}
            >
              <Icon name="folder" size={16} /> Move to project…
            </button>
          </li>
        )}
        <li>
          <Link className="menu__item" to={`/memories?source_chat_id=${encodeURIComponent(chatId)}`} onClick={() => setOpen(false)}>
            <Icon name="memory" size={16} /> What the assistant remembers from this conversation
          </Link>
        </li>
      </ul>
    </div>
  );
}
