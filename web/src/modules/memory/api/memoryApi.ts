import { API } from '@app/contracts/gateway';
import type { UserMemory } from '@app/contracts/memory';
import { call, isAuthenticated, NOT_AUTHENTICATED } from '../../common/api/http';

export const FAILED_FETCH_MEMORY = 'Failed to fetch user memory';
export const FAILED_UPDATE_MEMORY = 'Failed to update user memory';
export const FAILED_DELETE_MEMORY = 'Failed to delete user memory';
export const FAILED_RESTORE_MEMORY = 'Failed to restore user memory';

/**
 * The memory contract's DEFAULT_PREFERENCE_NAME and MEMORY_TEXT_MAX, repeated here (a unit test
 * keeps them equal) so the pages that use them do not load the contract's schemas.
 */
export const DEFAULT_PREFERENCE_NAME = 'default';
export const MEMORY_TEXT_MAX = 500;

const item = (id: string) => ({ params: { user_memory_id: id } });

export type MemoryPatch = { text?: string; is_confirmed?: boolean };

/**
 * GET /user_memory/?user_preference_name=default&source_chat_id=... (spec section 7). A memory
 * call needs a login and a token, else it throws 'Not authenticated' (section 5); a 401 logs out
 * and answers an empty list; other failures throw 'Failed to fetch user memory' (section 8).
 */
export async function fetchMemories(sourceChatId?: string | null): Promise<UserMemory[]> {
  if (!isAuthenticated()) throw new Error(NOT_AUTHENTICATED);
  const query = { user_preference_name: DEFAULT_PREFERENCE_NAME, source_chat_id: sourceChatId ?? '' };
  return call(API.memory.list, { query }, { orElse: [], failure: FAILED_FETCH_MEMORY });
}

/** PUT /user_memory/{id} with a new text, a confirmation, or both: the stored item comes back. */
export const updateMemory = (id: string, patch: MemoryPatch): Promise<UserMemory> =>
  call(API.memory.update, { ...item(id), body: patch }, { failure: FAILED_UPDATE_MEMORY });

/** DELETE /user_memory/{id}: removed at once, restorable for a few minutes on the server. */
export const deleteMemory = (id: string) => call(API.memory.remove, item(id), { failure: FAILED_DELETE_MEMORY });

/** POST /user_memory/{id}/restore: the undo of a removal; the stored item comes back. */
export const restoreMemory = (id: string): Promise<UserMemory> => call(API.memory.restore, item(id), { failure: FAILED_RESTORE_MEMORY });
