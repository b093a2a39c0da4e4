import type { Conversation, Message } from '@app/contracts/chat';
import type { MessageEntity } from './message.entity';
import type { ConversationEntity } from './conversation.entity';

export function toConversationView(c: ConversationEntity): Conversation {
  return {
    chat_id: c.id,
    conversation_title: c.title,
    last_message_timestamp: c.lastMessageAt?.toISOString() ?? null,
    last_active_message_id: c.lastActiveMessageId,
    is_commercial: c.isCommercial,
    temporary: c.expiresAt !== null,
    expires_at: c.expiresAt?.toISOString() ?? null,
    project_id: c.projectId ?? null,
    created_at: c.createdAt.toISOString(),
  };
}

export function toMessageView(m: MessageEntity): Message {
  return {
    message_id: m.id,
    chat_id: m.chatId,
    content: m.content,
    sender: m.sender,
    author_user_id: m.authorUserId,
    expert_id: m.expertId,
    expert_name: m.expertName,
    feedback: m.feedback,
    hidden: m.hidden,
    previous_message_id: m.previousMessageId,
    metadata: { verbose_feedback: null, files: [], ...m.metadata },
    created_at: m.createdAt.toISOString(),
  };
}

/** What a shared link shows: the words, none of the owner's private details. */
export function toSharedMessageView(m: MessageEntity): Message {
  const view = toMessageView(m);
  return {
    ...view,
    author_user_id: null,
    feedback: null,
    metadata: { files: view.metadata.files ?? [], ...(m.metadata.incomplete ? { incomplete: true } : {}) },
  };
}

/**
 * The active history: walk back from a message through `previous_message_id` to the root,
 * returned oldest first. A cycle (which the schema cannot make, but data can be edited) stops the walk.
 */
export function activeHistory<T extends { id: string; previousMessageId: string | null }>(messages: T[], fromId: string | null): T[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const path: T[] = [];
  const seen = new Set<string>();
  for (let id = fromId; id && !seen.has(id);) {
    const message = byId.get(id);
    if (!message) break;
    seen.add(id);
    path.push(message);
    id = message.previousMessageId;
  }
  return path.reverse();
}
