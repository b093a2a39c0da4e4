import type { FileReference, Message, MessagePage, ReplyEvent } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { ApiError, call } from '../../common/api/http';
import { createSseParser } from '../utils/sse';

export const FAILED_CONVERSATIONS = 'Failed to fetch conversations';
export const FAILED_MESSAGES = 'Failed to fetch messages';
export const FAILED_DELETE = 'Failed to delete conversation';

export const fetchConversations = () => call(API.chat.list, {}, { orElse: [], failure: FAILED_CONVERSATIONS });

/** The caller's messages of some conversations (hidden ones are dropped). */
export async function fetchMessages(chatIds?: string[]): Promise<Message[]> {
  const query = { chat_ids: chatIds?.length ? chatIds.join(',') : undefined };
  const messages = await call(API.chat.messages, { query }, { orElse: [], failure: FAILED_MESSAGES });
  return messages.filter((message) => !message.hidden);
}

/** Messages asked for at a time: several screens of the longest replies. */
export const MESSAGE_PAGE_SIZE = 50;

export const EMPTY_PAGE: MessagePage = { messages: [], versions: [], has_more: false, leaf_id: null, replying: null };

/**
 * A page of a conversation's active branch (oldest first): its newest messages, those before
 * `before` (older ones), or the newest of the branch through `through`. A conversation (or a
 * message) that is not the caller's answers an empty page, as the message list did.
 */
export async function fetchMessagePage(
  chatId: string,
  cursor: { before?: string; through?: string } = {},
  limit = MESSAGE_PAGE_SIZE,
): Promise<MessagePage> {
  try {
    return await call(
      API.chat.page,
      { params: { chat_id: chatId }, query: { ...cursor, limit } },
      { orElse: EMPTY_PAGE, failure: (status) => new ApiError(FAILED_MESSAGES, status) },
    );
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return EMPTY_PAGE;
    throw error;
  }
}

export const deleteConversation = (chatId: string) => call(API.chat.remove, { params: { chat_id: chatId } }, { failure: FAILED_DELETE });

/** A new conversation: temporary, or in one of the caller's projects (never both). */
export const createConversation = (title?: string | null, temporary = false, projectId: string | null = null) =>
  call(API.chat.create, {
    body: {
      ...(title ? { conversation_title: title } : {}),
      ...(temporary ? { temporary } : {}),
      ...(projectId && !temporary ? { project_id: projectId } : {}),
    },
  });

export const updateConversation = (
  chatId: string,
  patch: { conversation_title?: string; last_active_message_id?: string; project_id?: string | null },
) => call(API.chat.update, { params: { chat_id: chatId }, body: patch });

export const setFeedback = (messageId: string, feedback: 'like' | 'dislike' | null, verboseFeedback?: string | null) =>
  call(API.chat.feedback, {
    params: { message_id: messageId },
    body: verboseFeedback === undefined ? { feedback } : { feedback, verbose_feedback: verboseFeedback },
  });

export const stopReply = (userMessageId: string) => call(API.chat.stop, { params: { message_id: userMessageId } });

export type Share = { share_id: string; chat_id: string; url: string; created_at: string };
export const shareConversation = (chatId: string): Promise<Share> => call(API.chat.share, { params: { chat_id: chatId } });

/** A page of a shared conversation, oldest first; `has_more`: later messages exist (ask with `after`). */
export type SharedConversation = {
  share_id: string;
  conversation_title: string | null;
  messages: Message[];
  has_more: boolean;
  shared_at: string;
};

export class SharedNotFoundError extends Error {}
/** A later page asked for after a message no longer on the shared branch (its owner switched branches): read it again from the start. */
export class SharedChangedError extends Error {}

/** How many messages a page of a shared conversation holds (the server's default; at most 200). */
export const SHARED_PAGE_SIZE = 50;

/**
 * A page of a shared conversation (a public page): its first messages, or those after `after`. A
 * 404 for the first is SharedNotFoundError (the page goes to /share/404); for a later one,
 * SharedChangedError (the message it follows is no longer on the branch, or the share is gone:
 * reading it again from the start tells which).
 */
export async function fetchShared(shareId: string, after?: string): Promise<SharedConversation> {
  try {
    const query = { limit: SHARED_PAGE_SIZE, ...(after ? { after } : {}) };
    return (await call(API.chat.shared, { params: { share_id: shareId }, query }, { public: true })) as SharedConversation;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      if (after) throw new SharedChangedError('The shared conversation changed.');
      throw new SharedNotFoundError('This shared conversation does not exist.');
    }
    throw error;
  }
}

export type SendBody = { content: string; previous_message_id?: string | null; files?: FileReference[] };

const KNOWN_EVENTS = new Set([
  'user_message',
  'phase',
  'rewritten_query',
  'reasoning',
  'text',
  'image_partial',
  'image',
  'assistant_message',
  'error',
  'done',
]);

/** A reply stream: it reads the events, handing each over as it is parsed, until the stream ends. */
export type ReplyStream = (onEvent: (event: ReplyEvent) => void, signal: AbortSignal) => Promise<void>;

/**
 * The reply to a new message. Resolves when the stream ends (after `done`, or when the connection
 * closes); rejects as any call of the user does (a 401 logs out and throws 'Unauthorized').
 */
export const sendMessageStream =
  (chatId: string, body: SendBody): ReplyStream =>
  (onEvent, signal) =>
    call(API.chat.send, { params: { chat_id: chatId }, body }, { signal, headers: STREAM_ACCEPT, read: readEvents(onEvent) });

/** Another answer to a user message, as a new branch. */
export const regenerateStream =
  (messageId: string): ReplyStream =>
  (onEvent, signal) =>
    call(API.chat.regenerate, { params: { message_id: messageId } }, { signal, headers: STREAM_ACCEPT, read: readEvents(onEvent) });

const STREAM_ACCEPT = { accept: 'text/event-stream' };

/** Reads the events of a reply stream; unknown events and malformed frames are skipped. */
const readEvents = (onEvent: (event: ReplyEvent) => void) => async (response: Response) => {
  if (!response.body) throw new ApiError(`API Error: ${response.status}`, response.status);
  const parser = createSseParser(({ event, data }) => {
    if (!KNOWN_EVENTS.has(event)) return;
    let parsed: unknown = {};
    try {
      parsed = data ? JSON.parse(data) : {};
    } catch {
      return; // a malformed frame is skipped, the stream goes on
    }
    onEvent({ event, data: parsed } as ReplyEvent);
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.push(value);
  }
  parser.end();
};
