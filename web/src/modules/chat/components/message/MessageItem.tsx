import { memo } from 'react';
import { AssistantMessage, type AssistantMessageProps } from './AssistantMessage';
import { UserMessage } from './UserMessage';

/** A stored message (or the user's being sent), or the reply streaming in as `draft`. */
type MessageItemProps = AssistantMessageProps;

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
