import type { Conversation, Message, MessagePage } from '@app/contracts/chat';
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useAuthStatus } from '../../auth/state/authStore';
import {
  deleteConversation,
  EMPTY_PAGE,
  fetchConversations,
  fetchMessagePage,
  setFeedback,
  shareConversation,
  updateConversation,
} from '../api/chatApi';

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

/** The pages of a conversation read so far: the newest first, each page's messages oldest first. */
export type MessagePages = InfiniteData<MessagePage>;

/**
 * A conversation's active branch, a page at a time: its newest messages first, older pages as the
 * reader scrolls up (`fetchNextPage`: the page before the oldest message read). Read again, the
 * pages follow the conversation's branch as it is then (after a branch switch or a reply).
 */
export function useMessagePages(chatId: string | undefined, { followReplying = true }: { followReplying?: boolean } = {}) {
  const status = useAuthStatus();
  return useInfiniteQuery({
    ...messagePages(chatId ?? ''),
    enabled: !!chatId && (status === 'anonymous' || status === 'registered'),
    // A reply being written by a stream this page does not hold: read again until it is stored.
    refetchInterval: (query) => (followReplying && query.state.data?.pages[0]?.replying ? REPLYING_POLL_MS : false),
  });
}

/**
 * How often a conversation is read again while its newest page says a reply is being written
 * elsewhere (another tab, or this page left and opened again mid-reply): the reply's text grows at
 * each read (as the chat service saves it), and its stored message replaces it once complete.
 */
export const REPLYING_POLL_MS = 1_500;

const messagePages = (chatId: string) =>
  infiniteQueryOptions({
    queryKey: messagesKey(chatId),
    queryFn: ({ pageParam }) => fetchMessagePage(chatId, pageParam ? { before: pageParam } : {}),
    initialPageParam: null as string | null,
    getNextPageParam: (last: MessagePage) => (last.has_more ? (last.messages[0]?.message_id ?? undefined) : undefined),
  });

/**
 * The conversation the app opens on (`/chat/:chatId`): its newest page is asked for as soon as the
 * user is known, ahead of the shell's render and the other calls of the start (the list takes it
 * from there). True when the app opens on one.
 */
export function prefetchOpenedConversation(client: QueryClient, pathname: string): boolean {
  const chatId = /^\/chat\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (chatId) void client.prefetchInfiniteQuery(messagePages(decodeURIComponent(chatId)));
  return !!chatId;
}

/** The messages of the pages read, oldest first. */
export const messagesOfPages = (data: MessagePages | undefined): Message[] =>
  data ? data.pages.toReversed().flatMap((page) => page.messages) : [];

/** Changes the messages read, page by page (the same pages back when nothing changed). */
function mapPages(data: MessagePages, change: (messages: Message[]) => Message[]): MessagePages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, messages: change(page.messages) })) };
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

/** Stored messages (the reply's, a feedback's answer): those read are replaced, new ones go at the end of the newest page. */
export function addMessages(client: QueryClient, chatId: string, messages: Message[]): void {
  client.setQueryData<MessagePages>(messagesKey(chatId), (data) => {
    const byId = new Map(messages.map((m) => [m.message_id, m]));
    const pages = data ?? { pages: [EMPTY_PAGE], pageParams: [null] };
    const known = new Set(pages.pages.flatMap((page) => page.messages.map((m) => m.message_id)));
    const replaced = mapPages(pages, (list) => list.map((m) => byId.get(m.message_id) ?? m));
    const added = messages.filter((m) => !known.has(m.message_id) && !m.hidden);
    const [newest, ...older] = replaced.pages;
    return { ...replaced, pages: [{ ...newest, messages: [...newest.messages, ...added] }, ...older] };
  });
}

/**
 * What the server says of some messages' versions (a page read through one of them): it replaces
 * what the pages read said of these messages (a message of the page without versions now has one),
 * kept with the newest page, where a reply just stored is.
 */
export function addVersions(client: QueryClient, chatId: string, page: Pick<MessagePage, 'messages' | 'versions'>): void {
  const told = new Set(page.messages.map((m) => m.message_id));
  client.setQueryData<MessagePages>(messagesKey(chatId), (data) => {
    if (!data?.pages.length) return data;
    const pages = data.pages.map((p) => ({ ...p, versions: p.versions.filter((v) => !told.has(v.message_id)) }));
    const [newest, ...older] = pages;
    return { ...data, pages: [{ ...newest, versions: [...newest.versions, ...page.versions] }, ...older] };
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
    onSuccess: (conversation) => {
      patchConversation(client, conversation.chat_id, conversation);
      // The branch's messages are read again from its new end (those of another branch are seldom read yet).
      void client.invalidateQueries({ queryKey: messagesKey(conversation.chat_id) });
    },
  });
}

export function useFeedback(chatId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, feedback, verbose }: { messageId: string; feedback: 'like' | 'dislike' | null; verbose?: string | null }) =>
      setFeedback(messageId, feedback, verbose),
    onMutate: ({ messageId, feedback }) => {
      const before = client.getQueryData<MessagePages>(messagesKey(chatId));
      client.setQueryData<MessagePages>(
        messagesKey(chatId),
        (data) => data && mapPages(data, (list) => list.map((m) => (m.message_id === messageId ? { ...m, feedback } : m))),
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
