import type { MessagePage } from '@app/contracts/chat';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { uiStore } from '../../layout/state/uiStore';
import { stopReply } from '../api/chatApi';
import { blankDraft, type ReplyDraft } from '../state/replyStore';
import { draftUserMessage, historyBeforeDraft } from '../utils/draftView';
import { activeEnd, activeHistory, toDisplayMessage } from '../utils/history';
import { serverVersions } from '../utils/messageRows';
import type { MoreMessages } from './useMessageWindow';
import { UNTITLED } from '../utils/titles';
import { conversationsKey, messagesKey, messagesOfPages, patchConversation, useConversations, useMessagePages } from './chatQueries';

/**
 * The conversation shown: the messages of its active branch read so far (its newest first, older
 * pages on demand), their versions, and what shows while a reply streams into it. Keeps the
 * shell's current chat and share button in step.
 */
export function useConversationView(chatId: string | undefined, ownDraft: ReplyDraft | null) {
  const client = useQueryClient();
  const conversations = useConversations();
  const pages = useMessagePages(chatId, { followReplying: !ownDraft?.streaming });
  const conversation = conversations.data?.find((c) => c.chat_id === chatId);
  const all = useMemo(() => messagesOfPages(pages.data).map(toDisplayMessage), [pages.data]);
  // A reply being written by a stream this page does not hold shows as one streaming here.
  const newest = pages.data?.pages[0];
  const leaf = newest?.leaf_id;
  const [stoppingId, setStoppingId] = useState<string | null>(null);
  const elsewhere = useMemo(
    () => (!ownDraft && chatId && newest ? replyingDraft(chatId, newest, stoppingId) : null),
    [chatId, newest, ownDraft, stoppingId],
  );
  const draft = ownDraft ?? elsewhere;
  // Once that reply is stored the conversation has moved on to it (its active message, its time, a
  // title): the list is read again, as after a reply of this page's own.
  const replyingId = newest?.replying?.message_id ?? null;
  const [followed, setFollowed] = useState<string | null>(null);
  if (replyingId && replyingId !== followed) setFollowed(replyingId);
  useEffect(() => {
    if (!followed || replyingId) return;
    setFollowed(null);
    if (chatId && leaf === followed) patchConversation(client, chatId, { last_active_message_id: followed });
    void client.invalidateQueries({ queryKey: conversationsKey });
  }, [chatId, client, followed, leaf, replyingId]);
  /** Stops the reply being written elsewhere (as its own tab's Stop would); the next read shows it stored. */
  const stopElsewhere = useCallback(async () => {
    const answering = elsewhere?.regenerateOf;
    if (!elsewhere || !chatId || !answering) return;
    setStoppingId(elsewhere.id ?? null);
    try {
      await stopReply(answering);
    } catch (error) {
      console.error(error);
    }
    await client.invalidateQueries({ queryKey: messagesKey(chatId) });
  }, [chatId, client, elsewhere]);
  const versions = useMemo(() => serverVersions(pages.data?.pages ?? []), [pages.data]);
  // From the conversation's last active message when it is read; else (a branch switched to, being
  // read) from the end of the pages read.
  // (A reply stored after the list was read ends the branch from the page that has it on.)
  const lastActive = useMemo(
    () => activeEnd(all, conversation?.last_active_message_id, leaf),
    [all, conversation?.last_active_message_id, leaf],
  );
  const history = useMemo(() => activeHistory(all, lastActive), [all, lastActive]);
  const visible = useMemo(() => historyBeforeDraft(history, draft), [draft, history]);
  const pendingUser = useMemo(() => draftUserMessage(draft), [draft]);
  const { hasNextPage, isFetchingNextPage, isFetching, fetchNextPage } = pages;
  const older = useMemo<MoreMessages>(
    () => ({
      more: hasNextPage,
      // A page being read again (a whole refetch) also holds the next one back: its cursor may change.
      loading: isFetchingNextPage || isFetching,
      load: () => void fetchNextPage({ cancelRefetch: false }),
    }),
    [hasNextPage, isFetchingNextPage, isFetching, fetchNextPage],
  );

  useEffect(() => {
    uiStore.set({ currentChatId: chatId ?? null, shareChatButtonVisible: !!chatId && history.length > 0 });
  }, [chatId, history.length]);

  return {
    /** The reply streaming into this conversation: this page's own, else one being written elsewhere. */
    draft,
    stopElsewhere,
    all,
    versions,
    history,
    visible,
    pendingUser,
    older,
    loading: !!chatId && pages.isLoading,
    loaded: pages.isSuccess,
    notFound: !!chatId && !draft && conversations.isSuccess && !conversation && pages.isSuccess && all.length === 0,
    temporary: !!conversation?.temporary,
    title: chatId
      ? conversation?.temporary
        ? 'Temporary chat'
        : (conversation?.conversation_title ?? (conversations.isLoading ? '' : UNTITLED))
      : 'New chat',
  };
}

/**
 * The reply a page says is being written (to the branch's last message, the user's; or another
 * version of its last reply) as a draft that answers that user message again: the history shows up
 * to it, and the draft the text so far.
 */
function replyingDraft(chatId: string, page: MessagePage, stoppingId: string | null): ReplyDraft | null {
  const { replying } = page;
  if (!replying) return null;
  const answering = replying.previous_message_id;
  const id = `elsewhere-${replying.message_id}`;
  return blankDraft({
    id,
    chatId,
    previousMessageId: page.messages.find((m) => m.message_id === answering)?.previous_message_id ?? null,
    pendingUserText: null,
    regenerateOf: answering,
    text: replying.content,
    stopping: stoppingId === id,
  });
}
