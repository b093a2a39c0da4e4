import { MarkedText, SearchMarks } from '../../../search/components/SearchMarks';
import { CopyButton } from '../../../../ui/CopyButton';
import { IconButton } from '../../../../ui/IconButton';
import { Attachments } from '../../../files/components/Attachments';
import { useMessageEdit } from '../../hooks/useMessageEdit';
import type { DisplayMessage } from '../../utils/history';
import { BranchSwitcher } from './BranchSwitcher';
import { MessageEditor } from './MessageEditor';
import { messageElementId, type MessagePlaceProps } from './messageProps';

export type UserMessageProps = MessagePlaceProps & { message: DisplayMessage };

/** A message of the user's: its files, its text (or its edit box), its versions, copy and edit. */
export function UserMessage({ message, branch, busy, actions, shareId, highlighted, linked, marks = null }: UserMessageProps) {
  const edit = useMessageEdit(message.text, (text) => actions?.edit(message, text));
  return (
    <article
      className={`message message--user${highlighted ? ' message--highlight' : ''}`}
      id={messageElementId(message.id)}
      tabIndex={linked ? -1 : undefined}
      aria-label="You said"
    >
      <Attachments files={message.files} shareId={shareId} label="Your attachments" />
      {edit.editing ? (
        <MessageEditor
          id={message.id}
          value={edit.draft}
          onChange={edit.setDraft}
          onCancel={edit.cancel}
          onSubmit={edit.submit}
          busy={busy}
        />
      ) : (
        <div className="message__bubble">
          <SearchMarks terms={marks}>
            <MarkedText text={message.text} />
          </SearchMarks>
        </div>
      )}
      {!edit.editing && (
        <div className="message__actions">
          {branch && actions && <BranchSwitcher {...branch} onSwitch={(index) => actions.switchBranch(message, index)} disabled={busy} />}
          <CopyButton text={message.text} label="Copy message" className="icon-button icon-button--small" />
          {actions && <IconButton small icon="edit" iconSize={15} label="Edit message" title="Edit" disabled={busy} onClick={edit.start} />}
        </div>
      )}
    </article>
  );
}
