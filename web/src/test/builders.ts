import type { UserMemory } from '@app/contracts/memory';

/** A memory item as the server answers it (spec section 3). */
export const memoryItem = (id: string, patch: Partial<UserMemory> = {}): UserMemory => ({
  user_memory_id: id,
  source_chat_id: 'c1',
  source_message_id: 'm1',
  text: `Memory ${id}`,
  is_inference: false,
  is_fact: true,
  is_confirmed: true,
  updated_at: '2025-09-20T10:00:00Z',
  removed_at: null,
  ...patch,
});
