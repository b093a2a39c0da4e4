import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { DEFAULT_PREFERENCE_NAME, MEMORY_NOT_FOUND, type UserMemory } from '@app/contracts/memory';
import { DomainError, SERVICE_CONFIG, userIdOf, type PublicOf } from '@app/platform';
import type { MemoryConfig } from '../config';
import { normalizeText } from '../extraction/memory-extractor';
import { MemoriesRepository, type StoredMemory } from './memories.repository';

/** A memory as the web client receives it (spec section 3). */
export function toUserMemory(memory: StoredMemory): UserMemory {
  return {
    user_memory_id: memory.id,
    source_chat_id: memory.sourceChatId,
    source_message_id: memory.sourceMessageId,
    text: memory.text,
    is_inference: memory.isInference,
    is_fact: memory.isFact,
    is_confirmed: memory.isConfirmed,
    updated_at: memory.updatedAt.toISOString(),
    removed_at: memory.removedAt?.toISOString() ?? null,
  };
}

/**
 * The user's control over their memories: see them, correct them, confirm what was inferred,
 * remove them (with a short undo). Every call acts on the caller's own memories only: any other
 * id is "not found".
 */
@Injectable()
export class MemoriesService {
  constructor(
    @Inject(MemoriesRepository) private readonly store: PublicOf<MemoriesRepository>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MemoryConfig, 'MEMORY_RESTORE_WINDOW_SECONDS'>,
  ) {}

  /** Live memories, newest first (removed ones are gone); of one conversation when asked. Only the default profile exists. */
  async list(caller: Caller, query: { user_preference_name: string; source_chat_id?: string }): Promise<UserMemory[]> {
    const userId = userIdOf(caller);
    if (query.user_preference_name !== DEFAULT_PREFERENCE_NAME) return [];
    return (await this.store.list(userId, query.source_chat_id)).map(toUserMemory);
  }

  /** A new text (it keeps its subject, so a later correction still replaces it), a confirmation, or both. */
  async update(caller: Caller, id: string, change: { text?: string; is_confirmed?: boolean }): Promise<UserMemory> {
    const userId = userIdOf(caller);
    const text = change.text?.replace(/\s+/g, ' ').trim();
    const updated = await this.store.update(userId, id, {
      ...(text ? { text, normalizedText: normalizeText(text) } : {}),
      ...(change.is_confirmed !== undefined ? { isConfirmed: change.is_confirmed } : {}),
    });
    if (!updated) throw DomainError.notFound(MEMORY_NOT_FOUND);
    return toUserMemory(updated);
  }

  /** Removed at once for every use; erased for good once the undo window has passed. Removing twice is fine. */
  async remove(caller: Caller, id: string): Promise<{ removed: true }> {
    const outcome = await this.store.remove(userIdOf(caller), id);
    if (outcome === 'missing') throw DomainError.notFound(MEMORY_NOT_FOUND);
    return { removed: true };
  }

  /** The undo of a removal, within MEMORY_RESTORE_WINDOW_SECONDS. */
  async restore(caller: Caller, id: string): Promise<UserMemory> {
    const restored = await this.store.restore(userIdOf(caller), id, this.config.MEMORY_RESTORE_WINDOW_SECONDS);
    if (!restored) throw DomainError.notFound(MEMORY_NOT_FOUND);
    return toUserMemory(restored);
  }

  /** Erases what can no longer be restored. */
  eraseExpired(): Promise<number> {
    return this.store.eraseRemoved(this.config.MEMORY_RESTORE_WINDOW_SECONDS);
  }
}
