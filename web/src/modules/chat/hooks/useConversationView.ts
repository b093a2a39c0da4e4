import { useEffect, useMemo } from 'react';
import { uiStore } from '../../layout/state/uiStore';
import type { ReplyDraft } from '../state/replyStore';
import { draftUserMessage, historyBeforeDraft } from '../utils/draftView';
import { activeHistory, toDisplayMessage } from '../utils/history';
import { UNTITLED } from '../utils/titles';
import { useConversations, useMessages } from './chatQueries';

/**
 * The conversation shown: all its messages, the active branch, and what shows while a reply
 * streams into it. Keeps the shell's current chat and share button in step.
 */
export function useConversationView(chatId: string | undefined, draft: ReplyDraft | null) {
  const conversations = useConversations();
  const messages = useMessages(chatId);
  const conversation = conversations.data?.find((c) => c.chat_id === chatId);
  const all = useMemo(() => (messages.data ?? []).map(toDisplayMessage), [messages.data]);
  const history = useMemo(() => activeHistory(all, conversation?.last_active_message_id), [all, conversation?.last_active_message_id]);
  const visible = useMemo(() => historyBeforeDraft(history, draft), [draft, history]);
  const pendingUser = useMemo(() => draftUserMessage(draft), [draft]);

  useEffect(() => {
    uiStore.set({ currentChatId: chatId ?? null, shareChatButtonVisible: !!chatId && history.length > 0 });
  }, [chatId, history.length]);

  return {
    all,
    history,
    visible,
    pendingUser,
    loading: !!chatId && messages.isLoading,
    loaded: messages.isSuccess,
    notFound: !!chatId && !draft && conversations.isSuccess && !conversation && messages.isSuccess && all.length === 0,
    temporary: !!conversation?.temporary,
    title: chatId
      ? conversation?.temporary
        ? 'Temporary chat'
        : (conversation?.conversation_title ?? (conversations.isLoading ? '' : UNTITLED))
      : 'New chat',
  };
}
