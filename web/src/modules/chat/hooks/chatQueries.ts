import type { Conversation, Message } from '@app/contracts/chat';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useAuthStatus } from '../../auth/state/authStore';
import { deleteConversation, fetchConversations, fetchMessages, setFeedback, shareConversation, updateConversation } from '../api/chatApi';

export const conversationsKey = ['conversations'] as const;
export const messagesKey = (chatId: string) => ['messages', chatId] as const;

const newestFirst = (a: Conversation, b: Conversation) =>
  (b.last_message_timestamp ?? b.created_at ?? '').localeCompare(a.last_message_timestamp ?? a.created_at ?? '');

/**
 * The conversation list. Another tab (or the phone) may have changed it: it is fetched again each
 * time the window comes back into focus, fresh or not, and after every reply (replyStore).
 */
export function useConversations() {
  const status = useAuthStatus();
  return useQuery({
    queryKey: conversationsKey,
    queryFn: async () => (await fetchConversations()).slice().sort(newestFirst),
    enabled: status === 'anonymous' || status === 'registered',
    refetchOnWindowFocus: 'always',
  });
}

export function useMessages(chatId: string | undefined) {
  const status = useAuthStatus();
  return useQuery({
    queryKey: messagesKey(chatId ?? ''),
    queryFn: () => fetchMessages([chatId!]),
    enabled: !!chatId && (status === 'anonymous' || status === 'registered'),
  });
}

export function patchConversation(client: QueryClient, chatId: string, patch: Partial<Conversation>): void {
  client.setQueryData<Conversation[]>(conversationsKey, (list) => list?.map((c) => (c.chat_id === chatId ? { ...c, ...patch } : c)));
}

export function addConversation(client: QueryClient, conversation: Conversation): void {
  client.setQueryData<Conversation[]>(conversationsKey, (list) => [
    conversation,
    ...(list ?? []).filter((c) => c.chat_id !== conversation.chat_id),
  ]);
}

export function addMessages(client: QueryClient, chatId: string, messages: Message[]): void {
  client.setQueryData<Message[]>(messagesKey(chatId), (list) => {
    const ids = new Set(messages.map((m) => m.message_id));
    return [...(list ?? []).filter((m) => !ids.has(m.message_id)), ...messages.filter((m) => !m.hidden)];
  });
}

/** Failures of these are logged; the state stays as it was (section 8). The caller may tell the user. */
export function useDeleteConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chatId: string) => deleteConversation(chatId),
    onSuccess: (_, chatId) => {
      client.setQueryData<Conversation[]>(conversationsKey, (list) => list?.filter((c) => c.chat_id !== chatId));
      client.removeQueries({ queryKey: messagesKey(chatId) });
    },
    onError: (error) => console.error(error),
  });
}

export function useRenameConversation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, title }: { chatId: string; title: string }) => updateConversation(chatId, { conversation_title: title }),
    onSuccess: (conversation) => patchConversation(client, conversation.chat_id, conversation),
    onError: (error) => console.error(error),
  });
}

/** Switching branches: the conversation's last active message moves to the branch's newest leaf. */
export function useSwitchBranch() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ chatId, leafId }: { chatId: string; leafId: string }) => updateConversation(chatId, { last_active_message_id: leafId }),
    onMutate: ({ chatId, leafId }) => {
      const previous = client.getQueryData<Conversation[]>(conversationsKey)?.find((c) => c.chat_id === chatId)?.last_active_message_id;
      patchConversation(client, chatId, { last_active_message_id: leafId });
      return { previous };
    },
    onError: (error, { chatId }, context) => {
      console.error(error);
      if (context) patchConversation(client, chatId, { last_active_message_id: context.previous ?? null });
    },
    onSuccess: (conversation) => patchConversation(client, conversation.chat_id, conversation),
  });
}

export function useFeedback(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, feedback, verbose }: { messageId: string; feedback: 'like' | 'dislike' | null; verbose?: string | null }) =>
      setFeedback(messageId, feedback, verbose),
    onMutate: ({ messageId, feedback }) => {
      const before = client.getQueryData<Message[]>(messagesKey(chatId));
      client.setQueryData<Message[]>(messagesKey(chatId), (list) =>
        list?.map((m) => (m.message_id === messageId ? { ...m, feedback } : m)),
      );
      return { before };
    },
    onError: (error, _vars, context) => {
      console.error(error);
      if (context?.before) client.setQueryData(messagesKey(chatId), context.before);
    },
    onSuccess: (message) => addMessages(client, chatId, [message]),
  });
}

export function useShareConversation() {
  return useMutation({ mutationFn: (chatId: string) => shareConversation(chatId) });
}
