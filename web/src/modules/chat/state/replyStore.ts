import { PRODUCT_CONSTANTS } from '@app/contracts/common/constants';
import type { Conversation, FileReference, Message, Phase, ReplyEvent } from '@app/contracts/chat';
import type { QueryClient } from '@tanstack/react-query';
import { isAuthenticated, NOT_AUTHENTICATED } from '../../common/api/http';
import { createStore, useStore } from '../../common/state/createStore';
import { randomId } from '../../common/utils/ids';
import { fetchMessagePage, regenerateStream, sendMessageStream, stopReply, type ReplyStream } from '../api/chatApi';
import { addMessages, addVersions, conversationsKey, messagesKey, patchConversation } from '../hooks/chatQueries';
import { askKey, keepRowKey, replyKey } from './rowKeys';

/** The reply being streamed into one conversation. */
export type ReplyDraft = {
  /** This reply's own id in the client (read-aloud follows one reply by it). */
  id?: string;
  chatId: string;
  /**
   * The message the new user message follows (null at the start of a conversation). When
   * regenerating, the one the user message follows: known once the server sends that message.
   */
  previousMessageId: string | null;
  /** The user text shown until the server's stored user message arrives. */
  pendingUserText: string | null;
  /** The files sent with it (shown with it, sent again by a retry). */
  pendingFiles: FileReference[];
  /** When regenerating: the user message being answered again. */
  regenerateOf: string | null;
  userMessage: Message | null;
  assistantMessage: Message | null;
  text: string;
  reasoning: string;
  rewrittenQuery: string | null;
  serverPhase: Phase | null;
  /** While a tool runs: what the user is shown ("Setting a reminder"). */
  toolLabel: string | null;
  partialImages: (string | null)[];
  images: FileReference[];
  error: string | null;
  streaming: boolean;
  stopping: boolean;
};

export const replyStore = createStore<{ draft: ReplyDraft | null }>(() => ({ draft: null }));

export const useReplyDraft = (chatId: string | undefined) =>
  useStore(replyStore, (s) => (s.draft && s.draft.chatId === chatId ? s.draft : null));

let controller: AbortController | null = null;

/** Deltas are gathered and applied once per animation frame, so a fast model never floods React. */
const pending = { text: '', reasoning: '' };
let frame: number | null = null;

function flush(): void {
  if (frame !== null) {
    cancelFrame(frame);
    frame = null;
  }
  if (!pending.text && !pending.reasoning) return;
  const { text, reasoning } = pending;
  pending.text = '';
  pending.reasoning = '';
  update((d) => ({ text: d.text + text, reasoning: d.reasoning + reasoning }));
}

const requestFrame = (fn: () => void): number =>
  typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState !== 'hidden'
    ? requestAnimationFrame(fn)
    : (setTimeout(fn, 16) as unknown as number);
const cancelFrame = (id: number) => {
  if (typeof cancelAnimationFrame === 'function') cancelAnimationFrame(id);
  clearTimeout(id);
};

function schedule(): void {
  frame ??= requestFrame(() => {
    frame = null;
    flush();
  });
}

function update(patch: (draft: ReplyDraft) => Partial<ReplyDraft>): void {
  replyStore.set((s) => (s.draft ? { draft: { ...s.draft, ...patch(s.draft) } } : {}));
}

/** What a reply draft starts from: where it goes, and what it shows until the server answers. */
type DraftStart = Pick<ReplyDraft, 'chatId' | 'previousMessageId' | 'pendingUserText' | 'regenerateOf'> &
  Partial<Pick<ReplyDraft, 'id' | 'pendingFiles' | 'text' | 'stopping'>>;

/** A streaming reply draft with nothing come yet (a new id, no files, no text), unless `start` says otherwise. */
export function blankDraft(start: DraftStart): ReplyDraft {
  return {
    id: randomId(),
    pendingFiles: [],
    userMessage: null,
    assistantMessage: null,
    text: '',
    reasoning: '',
    rewrittenQuery: null,
    serverPhase: null,
    toolLabel: null,
    partialImages: Array.from({ length: PRODUCT_CONSTANTS.partialImageSlots }, () => null),
    images: [],
    error: null,
    streaming: true,
    stopping: false,
    ...start,
  };
}

const draftId = () => replyStore.get().draft?.id ?? '';

/** One reply's stream being read: the read of its stored reply's versions, once it is stored. */
type Reading = { versions: Promise<void> | null };

/**
 * The versions of a reply just stored and of the message it answers (a regenerated reply is a new
 * version, so is an edited message), as the server counts them: the page of the branch through the
 * reply, its last two messages. Older versions are seldom read (only the active branch is), nor are
 * the pages that hold them, so the messages read cannot tell.
 */
function readVersions(client: QueryClient, chatId: string, messageId: string): Promise<void> {
  return fetchMessagePage(chatId, { through: messageId }, 2).then(
    (page) => {
      if (page.messages.some((m) => m.message_id === messageId)) addVersions(client, chatId, page);
    },
    (error) => console.error(error),
  );
}

function apply(event: ReplyEvent, client: QueryClient, chatId: string, reading: Reading): void {
  switch (event.event) {
    case 'text':
      pending.text += event.data.delta ?? '';
      return schedule();
    case 'reasoning':
      pending.reasoning += event.data.delta ?? '';
      return schedule();
    case 'user_message':
      keepRowKey(event.data.message_id, askKey(draftId()));
      // Answered again, it is no new message: one not read yet (on an older page) stays unread.
      if (!replyStore.get().draft?.regenerateOf) addMessages(client, chatId, [event.data]);
      return update(() => ({ userMessage: event.data, previousMessageId: event.data.previous_message_id }));
    case 'phase':
      return update(() => ({
        serverPhase: event.data.phase,
        toolLabel: event.data.phase === 'tool' ? (event.data.label ?? 'Using a tool') : null,
      }));
    case 'rewritten_query':
      return update(() => ({ rewrittenQuery: event.data.text }));
    case 'image_partial':
      return update((d) => {
        const partialImages = d.partialImages.slice();
        if (event.data.index >= 0 && event.data.index < partialImages.length) partialImages[event.data.index] = event.data.data_url;
        return { partialImages };
      });
    case 'image':
      return update((d) => ({ images: [...d.images, event.data] }));
    case 'assistant_message': {
      flush();
      const assistant = event.data;
      keepRowKey(assistant.message_id, replyKey(draftId()));
      addMessages(client, chatId, [assistant]);
      patchConversation(client, chatId, { last_active_message_id: assistant.message_id, last_message_timestamp: assistant.created_at });
      reading.versions = readVersions(client, chatId, assistant.message_id);
      return update(() => ({ assistantMessage: assistant }));
    }
    case 'error':
      flush();
      return update(() => ({ error: event.data.detail || 'The reply failed.' }));
    case 'done':
      flush();
      return;
  }
}

async function run(client: QueryClient, chatId: string, stream: ReplyStream, draft: ReplyDraft): Promise<void> {
  if (!isAuthenticated()) throw new Error(NOT_AUTHENTICATED);
  controller?.abort();
  controller = new AbortController();
  pending.text = '';
  pending.reasoning = '';
  replyStore.set({ draft });
  const reading: Reading = { versions: null };
  try {
    await stream((event) => apply(event, client, chatId, reading), controller.signal);
  } catch (error) {
    if ((error as Error)?.name !== 'AbortError') {
      console.error(error);
      update(() => ({ error: error instanceof Error ? error.message : String(error) }));
    }
  } finally {
    flush();
    controller = null;
    update(() => ({ streaming: false, stopping: false }));
    await finish(client, chatId, reading);
  }
}

/**
 * After the stream (done, error or cut): the conversation list is fetched again in every case (a
 * title, an order, another tab's changes), and the stored messages replace the draft once the
 * history has them (and the server has said how many versions the reply has: the switcher shows
 * its count, not a guess).
 */
async function finish(client: QueryClient, chatId: string, reading: Reading): Promise<void> {
  const draft = replyStore.get().draft;
  const mine = !!draft && draft.chatId === chatId;
  if (mine && draft.assistantMessage && !draft.error) {
    await reading.versions;
    // Unless another reply started meanwhile.
    if (replyStore.get().draft?.id === draft.id) replyStore.set({ draft: null });
  }
  await Promise.all([
    client.invalidateQueries({ queryKey: messagesKey(chatId) }),
    client.invalidateQueries({ queryKey: conversationsKey }),
  ]);
  askAgainUntilTitled(client, chatId);
  const after = replyStore.get().draft;
  if (!after || after.chatId !== chatId || after.streaming) return;
  // An error after the reply was stored (cut short): the stored message shows it; drop the draft.
  if (after.assistantMessage) replyStore.set({ draft: null });
}

/**
 * The chat service names a new conversation after its first complete exchange, by a handler of the
 * exchange event, so the title usually lands just after `done`: while the conversation has none,
 * the list is asked for again after 2 s and 8 s (the title call's own time limit).
 */
export const TITLE_REFETCH_DELAYS_MS = [2_000, 8_000] as const;

function askAgainUntilTitled(client: QueryClient, chatId: string): void {
  for (const delay of TITLE_REFETCH_DELAYS_MS) {
    setTimeout(() => {
      const listed = client.getQueryData<Conversation[]>(conversationsKey)?.find((c) => c.chat_id === chatId);
      if (listed && !listed.conversation_title) void client.invalidateQueries({ queryKey: conversationsKey });
    }, delay);
  }
}

export function sendMessage(
  client: QueryClient,
  chatId: string,
  content: string,
  previousMessageId: string | null,
  files?: FileReference[],
): Promise<void> {
  const draft = blankDraft({ chatId, previousMessageId, pendingUserText: content, regenerateOf: null, pendingFiles: files ?? [] });
  const body = { content, previous_message_id: previousMessageId, files: files?.length ? files : undefined };
  return run(client, chatId, sendMessageStream(chatId, body), draft);
}

/**
 * Answers a user message again, as a new branch: its id is all it takes (the message itself may be
 * on a page not read yet; the stream sends it).
 */
export function regenerateReply(client: QueryClient, chatId: string, userMessageId: string): Promise<void> {
  const draft = blankDraft({ chatId, previousMessageId: null, pendingUserText: null, regenerateOf: userMessageId });
  return run(client, chatId, regenerateStream(userMessageId), draft);
}

/** Stop: the server keeps what came so far and ends the stream; the connection is cut if it does not. */
export async function stopGenerating(): Promise<void> {
  const draft = replyStore.get().draft;
  if (!draft?.streaming) return;
  update(() => ({ stopping: true }));
  const userMessageId = draft.userMessage?.message_id ?? draft.regenerateOf;
  try {
    if (userMessageId) await stopReply(userMessageId);
    else controller?.abort();
  } catch (error) {
    console.error(error);
    controller?.abort();
  }
  const current = controller;
  setTimeout(() => {
    if (current && current === controller) current.abort();
  }, 5_000);
}

export function dismissDraft(): void {
  replyStore.set({ draft: null });
}
