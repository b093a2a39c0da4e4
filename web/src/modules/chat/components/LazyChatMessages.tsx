import { lazy, Suspense, type ComponentProps } from 'react';
import { MessagesLoading } from './ChatEmptyStates';

const load = () => import('./ChatMessages');
const ChatMessages = lazy(() => load().then((module) => ({ default: module.ChatMessages })));

/**
 * The conversation's messages (the list, its virtualizer and every part of a message), loaded with
 * a conversation or the first message typed, not with the empty chat screen (/chat's first load).
 */
export function LazyChatMessages(props: ComponentProps<typeof ChatMessages>) {
  return (
    <Suspense fallback={<MessagesLoading />}>
      <ChatMessages {...props} />
    </Suspense>
  );
}

let preloading = false;

/** Starts loading the list (once): while the first message is typed, or as a conversation opens. */
export function preloadChatMessages(): void {
  if (preloading) return;
  preloading = true;
  void load();
}
