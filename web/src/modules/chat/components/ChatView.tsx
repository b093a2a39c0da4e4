import type { FileReference } from '@app/contracts/chat';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { handleLightCopy } from '../../../ui/clipboard';
import { Icon } from '../../../ui/Icon';
import { Spinner } from '../../../ui/Spinner';
import { showToast } from '../../../ui/toastStore';
import { useAuth } from '../../auth/state/authStore';
import { createAttachmentDraft } from '../../files/state/attachmentDraft';
import { Header } from '../../layout/components/Header';
import { uiStore, useUi } from '../../layout/state/uiStore';
import { createConversation } from '../api/chatApi';
import { addConversation, useConversations, useFeedback, useMessages, useSwitchBranch } from '../hooks/chatQueries';
import { dismissDraft, regenerateReply, sendMessage, stopGenerating, useReplyDraft } from '../state/replyStore';
import { activeHistory, latestLeafFrom, siblingsOf, toDisplayMessage, type DisplayMessage } from '../utils/history';
import { Composer } from './Composer';
import { ConversationMenu } from './ConversationMenu';
import { UNTITLED } from './ConversationList';
import { DraftReply } from './DraftReply';
import { MessageItem, messageElementId } from './MessageItem';
import { ShareDialog } from './ShareDialog';

type ChatViewProps = { chatId?: string };

const MESSAGE_HASH = '#message-';
const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

const SUGGESTIONS = ['Plan a relaxed weekend in Lisbon', 'Explain how vaccines train the immune system', 'Write a polite reminder about an unpaid invoice', 'Give me a 20-minute dinner idea with chickpeas'];

export function ChatView({ chatId }: ChatViewProps) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const conversations = useConversations();
  const messagesQuery = useMessages(chatId);
  const draft = useReplyDraft(chatId);
  const streaming = !!draft?.streaming;
  const switchBranch = useSwitchBranch();
  const feedback = useFeedback(chatId ?? '');
  const name = useAuth((s) => (s.user?.is_anon ? null : s.user?.name));
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const prompt = (location.state as { prompt?: string } | null)?.prompt;
  const [attachments] = useState(() => createAttachmentDraft());
  useEffect(() => () => attachments.dispose(), [attachments]);
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);
  // A link to one message (from the memories page): #message-{id}.
  const target = location.hash.startsWith(MESSAGE_HASH) ? decodeURIComponent(location.hash.slice(MESSAGE_HASH.length)) : null;
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const reached = useRef<string | null>(null);

  const conversation = conversations.data?.find((c) => c.chat_id === chatId);
  const all = useMemo(() => (messagesQuery.data ?? []).map(toDisplayMessage), [messagesQuery.data]);
  const history = useMemo(() => activeHistory(all, conversation?.last_active_message_id), [all, conversation?.last_active_message_id]);

  // With a reply streaming, the history ends where the new exchange attaches; the draft follows.
  const visible = useMemo(() => {
    if (!draft) return history;
    const anchor = draft.regenerateOf ?? draft.previousMessageId;
    const index = anchor ? history.findIndex((m) => m.id === anchor) : -1;
    const base = anchor ? (index >= 0 ? history.slice(0, index + 1) : history) : [];
    const hide = new Set([draft.regenerateOf ? undefined : draft.userMessage?.message_id, draft.assistantMessage?.message_id]);
    return base.filter((m) => !hide.has(m.id));
  }, [draft, history]);
  const pendingUser: DisplayMessage | null = useMemo(() => {
    if (!draft || draft.regenerateOf) return null;
    if (draft.userMessage) return toDisplayMessage(draft.userMessage);
    if (draft.pendingUserText === null) return null;
    return { ...toDisplayMessage({ message_id: 'pending', chat_id: draft.chatId, content: draft.pendingUserText, sender: 'user', author_user_id: null, expert_id: null, expert_name: null, feedback: null, hidden: false, previous_message_id: draft.previousMessageId, metadata: draft.pendingFiles.length ? { files: draft.pendingFiles } : {}, created_at: new Date().toISOString() }) };
  }, [draft]);

  const hasMessages = visible.length > 0 || !!draft;
  useEffect(() => {
    uiStore.set({ currentChatId: chatId ?? null, shareChatButtonVisible: !!chatId && history.length > 0 });
  }, [chatId, history.length]);

  // Follow the reply while the reader is at the bottom.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stick.current) element.scrollTop = element.scrollHeight;
  }, [visible.length, draft?.text, draft?.reasoning, draft?.streaming, pendingUser?.id]);

  // Scroll to the linked message and mark it; on another branch, switch to that branch first.
  useEffect(() => {
    if (!target || reached.current === target || !chatId || !messagesQuery.isSuccess) return;
    if (!history.some((m) => m.id === target)) {
      if (all.some((m) => m.id === target) && !switchBranch.isPending) {
        reached.current = null;
        switchBranch.mutate({ chatId, leafId: latestLeafFrom(target, all) });
      }
      return;
    }
    const element = document.getElementById(messageElementId(target));
    if (!element) return;
    reached.current = target;
    stick.current = false;
    setHighlighted(target);
    element.scrollIntoView({ block: 'center' });
    requestAnimationFrame(() => document.getElementById(messageElementId(target))?.focus({ preventScroll: true }));
  }, [target, chatId, messagesQuery.isSuccess, history, all, switchBranch]);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), 4_000);
    return () => clearTimeout(timer);
  }, [highlighted]);

  const send = async (text: string, previousMessageId?: string | null, files: FileReference[] = []) => {
    let id = chatId;
    stick.current = true;
    if (!id) {
      try {
        const created = await createConversation();
        addConversation(client, created);
        id = created.chat_id;
        navigate(`/chat/${id}`, { replace: true });
      } catch (error) {
        showToast(error instanceof Error ? error.message : 'The conversation could not be started.', 'error');
        return;
      }
    }
    const previous = previousMessageId !== undefined ? previousMessageId : (history.at(-1)?.id ?? null);
    await sendMessage(client, id, text, previous, files);
  };

  const regenerate = (assistant: DisplayMessage) => {
    const user = all.find((m) => m.id === assistant.previous_message_id);
    if (!chatId || !user) return;
    stick.current = true;
    void regenerateReply(client, chatId, { message_id: user.id, previous_message_id: user.previous_message_id });
  };

  const retry = () => {
    if (!draft || !chatId) return;
    if (draft.userMessage) void regenerateReply(client, chatId, draft.userMessage);
    else if (draft.regenerateOf) void regenerateReply(client, chatId, { message_id: draft.regenerateOf, previous_message_id: draft.previousMessageId });
    else if (draft.pendingUserText) {
      const text = draft.pendingUserText;
      dismissDraft();
      void send(text, draft.previousMessageId, draft.pendingFiles);
    }
  };

  const notFound = !!chatId && !draft && conversations.isSuccess && !conversation && messagesQuery.isSuccess && all.length === 0;
  const shareVisible = useUi((s) => s.shareChatButtonVisible);
  const title = chatId ? (conversation?.conversation_title ?? (conversations.isLoading ? '' : UNTITLED)) : 'New chat';

  return (
    <div
      className="chat"
      data-dragging={dragging || undefined}
      onDragEnter={(event) => {
        if (!hasFiles(event) || notFound) return;
        dragDepth.current += 1;
        setDragging(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event) || notFound) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!hasFiles(event)) return;
        dragDepth.current = Math.max(0, dragDepth.current - 1);
        if (dragDepth.current === 0) setDragging(false);
      }}
      onDrop={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        dragDepth.current = 0;
        setDragging(false);
        if (!notFound) attachments.add(event.dataTransfer.files);
      }}
    >
      <Header
        title={<h1 className="header__heading">{title}</h1>}
        actions={
          chatId && !notFound ? (
            <>
              {shareVisible && (
                <button type="button" className="icon-button" aria-label="Share conversation" title="Share" onClick={() => uiStore.set({ shareChatModalOpen: true })}>
                  <Icon name="share" />
                </button>
              )}
              <ConversationMenu chatId={chatId} />
            </>
          ) : null
        }
      />
      {dragging && (
        <div className="drop-hint" aria-hidden="true">
          <Icon name="paperclip" size={28} />
          <p>Drop files to attach them</p>
        </div>
      )}
      <div
        className="chat__scroll"
        ref={scroller}
        onScroll={(event) => {
          const element = event.currentTarget;
          stick.current = element.scrollHeight - element.scrollTop - element.clientHeight < 80;
        }}
      >
        <div className="chat__column" onCopy={handleLightCopy}>
          {notFound ? (
            <div className="empty-state">
              <h2>This conversation could not be found</h2>
              <p className="muted">It may have been deleted.</p>
              <Link className="button button--primary" to="/chat">
                Start a new chat
              </Link>
            </div>
          ) : chatId && messagesQuery.isLoading ? (
            <div className="empty-state">
              <Spinner label="Loading messages" />
            </div>
          ) : !hasMessages ? (
            <div className="empty-state empty-state--welcome">
              <h2>{name ? `How can I help, ${name.split(' ')[0]}?` : 'How can I help?'}</h2>
              <ul className="suggestions" aria-label="Suggestions">
                {SUGGESTIONS.map((suggestion) => (
                  <li key={suggestion}>
                    <button type="button" className="suggestion" disabled={streaming} onClick={() => void send(suggestion)}>
                      {suggestion}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <div className="messages" aria-live="off">
              {visible.map((message) => {
                const siblings = siblingsOf(message, all);
                const index = siblings.findIndex((m) => m.id === message.id);
                return (
                  <MessageItem
                    key={message.id}
                    message={message}
                    busy={streaming}
                    branch={
                      siblings.length > 1 && chatId
                        ? { index, count: siblings.length, onSwitch: (next) => switchBranch.mutate({ chatId, leafId: latestLeafFrom(siblings[next].id, all) }) }
                        : undefined
                    }
                    onEdit={message.isUser ? (text) => void send(text, message.previous_message_id) : undefined}
                    onRegenerate={message.isUser ? undefined : () => regenerate(message)}
                    onFeedback={message.isUser ? undefined : (value, verbose) => feedback.mutate({ messageId: message.id, feedback: value, verbose })}
                    highlighted={highlighted === message.id}
                    linked={target === message.id}
                  />
                );
              })}
              {pendingUser && <MessageItem message={pendingUser} busy />}
              {draft && <DraftReply draft={draft} onRetry={retry} />}
            </div>
          )}
        </div>
      </div>
      <div className="chat__composer">
        <Composer onSend={(text, files) => void send(text, undefined, files)} onStop={() => void stopGenerating()} streaming={streaming} stopping={!!draft?.stopping} initialText={prompt} disabled={notFound} attachments={attachments} />
        <p className="chat__disclaimer">The assistant can make mistakes. Check important information.</p>
      </div>
      {chatId && <ShareDialog chatId={chatId} />}
    </div>
  );
}
