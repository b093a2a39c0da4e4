import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { handleLightCopy } from '../../../ui/clipboard';
import { Icon } from '../../../ui/Icon';
import { useFileDrop } from '../../files/hooks/useFileDrop';
import { createAttachmentDraft } from '../../files/state/attachmentDraft';
import { useConversationView } from '../hooks/useConversationView';
import { useLinkedMessage } from '../hooks/useLinkedMessage';
import type { MessageListHandle } from '../hooks/useMessageWindow';
import { useReplyActions } from '../hooks/useReplyActions';
import { stopGenerating, useReplyDraft } from '../state/replyStore';
import { ChatHeader } from './ChatHeader';
import { preloadMarkdown } from '../../markdown/components/LazyMarkdown';
import { LazyChatMessages, preloadChatMessages } from './LazyChatMessages';
import { ChatWelcome, ConversationNotFound, MessagesLoading } from './ChatEmptyStates';
import { Composer } from './Composer';
import { ShareDialog } from './ShareDialog';
import { VoiceModeBar, VoiceModeButton } from '../../voice/components/VoiceModeButton';
import { editLastMessage } from '../../shortcuts/utils/chatActions';
import { TemporaryBanner } from '../../temporary/components/TemporaryBanner';
import { ProjectBanner } from '../../projects/components/ProjectBanner';
import { useCloseTemporaryChat } from '../../temporary/hooks/useCloseTemporaryChat';
import { useTemporaryWanted } from '../../temporary/state/temporaryStore';

type ChatViewProps = { chatId?: string };

/** One conversation (or a new one): its messages with the reply streaming in, files dropped on it, the composer. */
export function ChatView({ chatId }: ChatViewProps) {
  const location = useLocation();
  const ownDraft = useReplyDraft(chatId);
  const view = useConversationView(chatId, ownDraft);
  // This page's own reply, else one being written elsewhere (another tab; a page left mid-reply).
  const draft = view.draft;
  const streaming = !!draft?.streaming;
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  // State, not a ref: the list is loaded on demand, and a link waiting for it is followed once it is there.
  const [list, setList] = useState<MessageListHandle | null>(null);
  const toEnd = useCallback(() => list?.toEnd(), [list]);
  const reveal = useCallback((messageId: string) => list?.reveal(messageId) ?? false, [list]);
  const reply = useReplyActions({ chatId, history: view.history, draft, onStart: toEnd });
  const linked = useLinkedMessage({ chatId, history: view.history, loaded: view.loaded, older: view.older, reveal });
  const [attachments] = useState(() => createAttachmentDraft());
  useEffect(() => () => attachments.dispose(), [attachments]);
  const drop = useFileDrop((files) => attachments.add(files), view.notFound);
  const prompt = (location.state as { prompt?: string } | null)?.prompt;
  const hasMessages = view.visible.length > 0 || !!draft;
  const temporaryWanted = useTemporaryWanted();
  useCloseTemporaryChat(chatId, view.temporary);
  useEffect(() => {
    if (!chatId) return;
    preloadChatMessages();
    preloadMarkdown();
  }, [chatId]);

  return (
    <div className="chat" data-dragging={drop.dragging || undefined} {...drop.handlers}>
      <ChatHeader title={view.title} chatId={chatId} withActions={!view.notFound} shareable={!view.temporary} />
      {drop.dragging && (
        <div className="drop-hint" aria-hidden="true">
          <Icon name="paperclip" size={28} />
          <p>Drop files to attach them</p>
        </div>
      )}
      <main className="chat__main" id="main">
        <div className="chat__scroll" ref={setScroller}>
          <div className="chat__column" onCopy={handleLightCopy}>
            {view.notFound ? (
              <ConversationNotFound />
            ) : view.loading ? (
              <MessagesLoading />
            ) : !hasMessages ? (
              <ChatWelcome disabled={streaming} onPick={(suggestion) => void reply.send(suggestion)} />
            ) : (
              <LazyChatMessages
                chatId={chatId}
                visible={view.visible}
                all={view.all}
                versions={view.versions}
                older={view.older}
                pendingUser={view.pendingUser}
                draft={draft}
                linked={linked}
                onEdit={(text, previousMessageId) => void reply.send(text, previousMessageId)}
                onRegenerate={reply.regenerate}
                onRetry={reply.retry}
                scroller={scroller}
                handle={setList}
              />
            )}
          </div>
        </div>
        <div className="chat__composer">
          {view.temporary || (!chatId && temporaryWanted) ? <TemporaryBanner /> : <ProjectBanner chatId={chatId} />}
          <VoiceModeBar />
          <Composer
            onSend={(text, files) => void reply.send(text, undefined, files)}
            onStop={() => void (ownDraft ? stopGenerating() : view.stopElsewhere())}
            streaming={streaming}
            stopping={!!draft?.stopping}
            initialText={prompt}
            disabled={view.notFound}
            attachments={attachments}
            onEditLast={editLastMessage}
            extra={<VoiceModeButton disabled={view.notFound} onTranscript={(text) => void reply.send(text)} />}
          />
          <p className="chat__disclaimer">The assistant can make mistakes. Check important information.</p>
        </div>
      </main>
      {chatId && !view.temporary && <ShareDialog chatId={chatId} />}
    </div>
  );
}
