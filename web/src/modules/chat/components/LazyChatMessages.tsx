import { Suspense, type ComponentProps } from 'react';
import { preloadable } from '../../common/utils/preloadable';
import type { ChatMessages as ChatMessagesType } from './ChatMessages';
import { MessagesLoading } from './ChatEmptyStates';

const ChatMessages = preloadable<ComponentProps<typeof ChatMessagesType>>(() => import('./ChatMessages').then((m) => m.ChatMessages));

/**
 * The conversation's messages (the list, its virtualizer and every part of a message), loaded with
 * a conversation or the first message typed, not with the empty chat screen (/chat's first load).
 * Loaded before the messages' answer (they are asked for together), it renders with it.
 */
export function LazyChatMessages(props: ComponentProps<typeof ChatMessagesType>) {
  return (
    <Suspense fallback={<MessagesLoading />}>
      <ChatMessages.Component {...props} />
    </Suspense>
  );
}

/** Starts loading the list (once): while the first message is typed, or as a conversation opens. */
export function preloadChatMessages(): void {
  void ChatMessages.preload().catch(() => undefined);
}
