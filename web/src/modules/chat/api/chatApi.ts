import type { FileReference, Message, ReplyEvent } from '@app/contracts/chat';
import { API } from '@app/contracts/gateway';
import { readCall, writeCall } from '../../common/api/dataCall';
import { routeUrl } from '@app/contracts/gateway/route';
import { apiErrorOf, apiFetch, jsonBody, routeCall } from '../../common/api/http';
import { createSseParser } from '../utils/sse';

export const FAILED_CONVERSATIONS = 'Failed to fetch conversations';
export const FAILED_MESSAGES = 'Failed to fetch messages';
export const FAILED_DELETE = 'Failed to delete conversation';

export const fetchConversations = () => readCall(routeCall(API.chat.list, {}), [], FAILED_CONVERSATIONS);

/** The caller's messages of some conversations (hidden ones are dropped). */
export async function fetchMessages(chatIds?: string[]): Promise<Message[]> {
  const query = { chat_ids: chatIds?.length ? chatIds.join(',') : undefined };
  const messages = await readCall(routeCall(API.chat.messages, { query }), [], FAILED_MESSAGES);
  return messages.filter((message) => !message.hidden);
}

export const deleteConversation = (chatId: string) => writeCall(routeCall(API.chat.remove, { params: { chat_id: chatId } }), FAILED_DELETE);

/** A new conversation: temporary, or in one of the caller's projects (never both). */
export const createConversation = (title?: string | null, temporary = false, projectId: string | null = null) =>
  writeCall(
    routeCall(API.chat.create, {
      body: {
        ...(title ? { conversation_title: title } : {}),
        ...(temporary ? { temporary } : {}),
        ...(projectId && !temporary ? { project_id: projectId } : {}),
      },
    }),
  );

export const updateConversation = (
  chatId: string,
  patch: { conversation_title?: string; last_active_message_id?: string; project_id?: string | null },
) => writeCall(routeCall(API.chat.update, { params: { chat_id: chatId }, body: patch }));

export const setFeedback = (messageId: string, feedback: 'like' | 'dislike' | null, verboseFeedback?: string | null) =>
  writeCall(
    routeCall(API.chat.feedback, {
      params: { message_id: messageId },
      body: verboseFeedback === undefined ? { feedback } : { feedback, verbose_feedback: verboseFeedback },
    }),
  );

export const stopReply = (userMessageId: string) => writeCall(routeCall(API.chat.stop, { params: { message_id: userMessageId } }));

export type Share = { share_id: string; chat_id: string; url: string; created_at: string };
export const shareConversation = (chatId: string): Promise<Share> => writeCall(routeCall(API.chat.share, { params: { chat_id: chatId } }));

export type SharedConversation = { share_id: string; conversation_title: string | null; messages: Message[]; shared_at: string };

export class SharedNotFoundError extends Error {}

/** A shared conversation; a 404 is SharedNotFoundError (the page goes to /share/404). */
export async function fetchShared(shareId: string): Promise<SharedConversation> {
  const { url, init } = routeCall(API.chat.shared, { params: { share_id: shareId } });
  const response = await apiFetch(url, init);
  if (response.status === 404) throw new SharedNotFoundError('This shared conversation does not exist.');
  if (!response.ok) throw await apiErrorOf(response);
  return (await response.json()) as SharedConversation;
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

/**
 * Reads a reply stream: each event is handed over as it is parsed. Resolves when the stream ends
 * (after `done`, or when the connection closes); rejects with the API error when the call fails.
 */
export async function readReplyStream(
  url: string,
  init: RequestInit,
  onEvent: (event: ReplyEvent) => void,
  onUnauthorized: () => Promise<void> | void,
): Promise<void> {
  const response = await apiFetch(url, { ...init, headers: { accept: 'text/event-stream', ...(init.headers as Record<string, string>) } });
  if (response.status === 401) {
    await onUnauthorized();
    throw new Error('Unauthorized');
  }
  if (!response.ok || !response.body) throw await apiErrorOf(response);
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
}

/** The reply streams, read with readReplyStream. */
export const sendMessageUrl = (chatId: string) => routeUrl(API.chat.send.path, { chat_id: chatId });
export const regenerateUrl = (messageId: string) => routeUrl(API.chat.regenerate.path, { message_id: messageId });
export const sendInit = (body: SendBody): RequestInit => ({ method: API.chat.send.method, ...jsonBody(body) });
