import { Icon } from '../../../ui/Icon';
import { Header } from '../../layout/components/Header';
import { uiStore, useUi } from '../../layout/state/uiStore';
import { ConversationMenu } from './ConversationMenu';
import { TemporaryToggle } from '../../temporary/components/TemporaryToggle';
import { MoveToProjectDialog } from '../../projects/components/MoveToProjectDialog';
import { useConversations } from '../hooks/chatQueries';
import { useState } from 'react';

type ChatHeaderProps = { title: string; chatId?: string; withActions: boolean; shareable?: boolean };

/**
 * The conversation's title, with its share button and menu once it exists. On a phone the title
 * has the room (two lines, then an ellipsis): sharing moves into the menu, the theme to the sidebar.
 * A temporary chat is not `shareable` (the server refuses it too): no share button nor menu item.
 */
export function ChatHeader({ title, chatId, withActions, shareable = true }: ChatHeaderProps) {
  const shareVisible = useUi((s) => s.shareChatButtonVisible) && shareable;
  const { data: conversations } = useConversations();
  const [moving, setMoving] = useState(false);
  const conversation = chatId ? conversations?.find((c) => c.chat_id === chatId) : undefined;
  return (
    <>
      <Header
        title={<h1 className="header__heading">{title}</h1>}
        actions={
          chatId && withActions ? (
            <>
              {shareVisible && (
                <button
                  type="button"
                  className="icon-button wide-only"
                  aria-label="Share conversation"
                  title="Share"
                  onClick={() => uiStore.set({ shareChatModalOpen: true })}
                >
                  <Icon name="share" />
                </button>
              )}
              <ConversationMenu
                chatId={chatId}
                onShare={shareVisible ? () => uiStore.set({ shareChatModalOpen: true }) : undefined}
                onMove={conversation && !conversation.temporary ? () => setMoving(true) : undefined}
              />
            </>
          ) : !chatId ? (
            <TemporaryToggle />
          ) : null
        }
      />
      <MoveToProjectDialog conversation={moving && conversation ? conversation : null} onClose={() => setMoving(false)} />
    </>
  );
}
