import type { SearchTerm } from '@app/contracts/chat/search-terms';
import { memo } from 'react';
import type { ReplyDraft } from '../../state/replyStore';
import type { DisplayMessage } from '../../utils/history';
import { AssistantMessage } from './AssistantMessage';
import type { BranchPlace, MessageActions } from './messageProps';
import { UserMessage } from './UserMessage';

type MessageItemProps = {
  /** A stored message (or the user's being sent), or the reply streaming in as `draft`. */
  message?: DisplayMessage;
  draft?: ReplyDraft;
  branch?: BranchPlace;
  busy: boolean;
  actions?: MessageActions;
  /** On a shared page: attachments are read through the share. */
  shareId?: string;
  /** Scrolled to and marked for a moment (a link from the memories page or the search). */
  highlighted?: boolean;
  /** The message a link leads to: it takes the focus. */
  linked?: boolean;
  /** Opened from a search: the words of the query, marked in the text. */
  marks?: SearchTerm[] | null;
  onRetry?: () => void;
};

/**
 * One message of a conversation, the user's or the assistant's. Memoised: a message renders again
 * only when its own props change (not on every frame of a reply streaming below it). The reply
 * streaming and the stored reply are both an `AssistantMessage` here, so the one replaces the
 * other without its elements being built again.
 */
export const MessageItem = memo(function MessageItem({ message, draft, onRetry, ...rest }: MessageItemProps) {
  if (draft || !message || !message.isUser) return <AssistantMessage message={message} draft={draft} onRetry={onRetry} {...rest} />;
  return <UserMessage message={message} {...rest} />;
});
