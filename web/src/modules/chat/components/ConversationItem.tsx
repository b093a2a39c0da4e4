import type { Conversation } from '@app/contracts/chat';
import { NavLink } from 'react-router';
import { IconButton } from '../../../ui/IconButton';
import { closeSidebarOnNarrow } from '../../layout/state/sidebarStore';
import { startChatDrag } from '../../projects/utils/dnd';
import { UNTITLED } from '../utils/titles';

export type ConversationItemProps = {
  conversation: Conversation;
  active: boolean;
  onRename: (conversation: Conversation) => void;
  onDelete: (conversation: Conversation) => void;
  onMove: (conversation: Conversation) => void;
};

/**
 * One conversation in the sidebar: its link, dragged onto a project to move it there, and its
 * actions (move to a project, rename, delete) shown on hover or focus.
 */
export function ConversationItem({ conversation, active, onRename, onDelete, onMove }: ConversationItemProps) {
  const label = conversation.conversation_title || UNTITLED;
  return (
    <li
      className="conversation"
      data-active={active}
      data-chat-id={conversation.chat_id}
      draggable
      onDragStart={(event) => startChatDrag(event, conversation.chat_id)}
    >
      <NavLink
        to={`/chat/${conversation.chat_id}`}
        className="conversation__link"
        onClick={closeSidebarOnNarrow}
        title={label}
        draggable={false}
      >
        {label}
      </NavLink>
      <span className="conversation__actions">
        <IconButton small icon="folder" iconSize={15} label={`Move ${label} to a project`} onClick={() => onMove(conversation)} />
        <IconButton small icon="edit" iconSize={15} label={`Rename ${label}`} onClick={() => onRename(conversation)} />
        <IconButton small icon="trash" iconSize={15} label={`Delete ${label}`} onClick={() => onDelete(conversation)} />
      </span>
    </li>
  );
}
