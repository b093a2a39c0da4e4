import type { UserMemory } from '@app/contracts/memory';

/** The memories that came from one message (spec section 3: items are grouped per source message). */
export type MemoryGroup = {
  key: string;
  chatId: string | null;
  messageId: string | null;
  memories: UserMemory[];
  /** The newest change in the group. */
  updatedAt: string;
};

/** Groups per source message, in the order the list has them (newest first); memories with no source last. */
export function groupBySource(memories: UserMemory[]): MemoryGroup[] {
  const groups = new Map<string, MemoryGroup>();
  for (const memory of memories) {
    const key = memory.source_message_id ? `m:${memory.source_message_id}` : 'none';
    const group = groups.get(key);
    if (group) {
      group.memories.push(memory);
      if (memory.updated_at > group.updatedAt) group.updatedAt = memory.updated_at;
    } else {
      groups.set(key, {
        key,
        chatId: memory.source_chat_id,
        messageId: memory.source_message_id,
        memories: [memory],
        updatedAt: memory.updated_at,
      });
    }
  }
  const list = [...groups.values()];
  return [...list.filter((g) => g.key !== 'none'), ...list.filter((g) => g.key === 'none')];
}

/** Where a memory came from in the chat: the conversation, scrolled to the message and highlighted. */
export function sourceMessagePath(chatId: string, messageId: string | null): string {
  return `/chat/${encodeURIComponent(chatId)}${messageId ? `#message-${encodeURIComponent(messageId)}` : ''}`;
}
