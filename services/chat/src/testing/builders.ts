import type { Caller } from '@app/contracts';
import type { LlmEvent, LlmRequest } from '../llm/llm-provider';
import { ConversationEntity } from '../conversations/conversation.entity';
import { MessageEntity } from '../conversations/message.entity';

/** Builders of the chat service's test data (unit tests only): rows, callers, model requests. */

let clock = Date.parse('2026-01-01T00:00:00Z');
/** A strictly increasing time, so that creation order is the order things were made. */
export const tick = () => new Date((clock += 1_000));

export function aConversation(fields: Partial<ConversationEntity> = {}): ConversationEntity {
  return Object.assign(new ConversationEntity(), {
    id: `chat-${clock}`,
    userId: 'owner',
    title: null,
    lastMessageAt: null,
    lastActiveMessageId: null,
    isCommercial: false,
    isShared: false,
    expiresAt: null,
    projectId: null,
    createdAt: tick(),
    updatedAt: new Date(clock),
    ...fields,
  });
}

export function aMessage(fields: Partial<MessageEntity> = {}): MessageEntity {
  return Object.assign(new MessageEntity(), {
    id: `message-${clock}`,
    chatId: 'chat',
    userId: 'owner',
    sender: 'user',
    authorUserId: null,
    expertId: null,
    expertName: null,
    content: 'Hello',
    feedback: null,
    hidden: false,
    previousMessageId: null,
    metadata: {},
    status: 'complete',
    leaseExpiresAt: null,
    createdAt: tick(),
    ...fields,
  });
}

/** A caller as the gateway sets it. */
export function aCaller(user_id = 'owner', is_anon = true): Caller {
  return { user_id, is_anon, session_id: 'session', request_id: 'request' } as Caller;
}

/** A request to a model: one user turn, no tools, never aborted unless `overrides` brings a signal. */
export function anLlmRequest(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model: 'fast',
    system: 'Be brief.',
    turns: [{ role: 'user', content: 'Hi' }],
    reasoning: false,
    webSearch: false,
    imageGeneration: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Every event a model's stream yields, to its end. */
export async function collect(stream: AsyncIterable<LlmEvent>): Promise<LlmEvent[]> {
  const events: LlmEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}
