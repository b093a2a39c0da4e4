import type { UserMemory } from '@app/contracts/memory';
import { useMutationState, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useDataSession } from '../../auth/state/authStore';
import { runMutation } from '../../common/api/runMutation';
import { messageOf } from '../../common/utils/errors';
import { deleteMemory, fetchMemories, restoreMemory, updateMemory, type MemoryPatch } from '../api/memoryApi';
import {
  dismissMemoryError,
  isPendingRemoval,
  offerUndo,
  pendingRemoval,
  setMemoryError,
  settleRemoval,
  useRemovals,
  type Place,
  type RemovalKind,
} from '../state/removalStore';
import { awaitsConfirmation, memoryTextProblem } from '../utils/memoryRules';

type MemoryList = UserMemory[];

/** One user's memory lists: all of them ('') or one conversation's (its chat id). */
export const memoryKeys = {
  user: (userId: string | null) => ['memories', userId] as const,
  list: (userId: string | null, scope: string) => ['memories', userId, scope] as const,
};
const MUTATION_KEY = 'memory';
/** The calls about one memory run one after the other: an undo's restore waits for the delete. */
const scopeOf = (id: string) => ({ id: `memory:${id}` });

export type MemoryListStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * The memories of one list, newest first (as the server answers), read each time a screen shows
 * them and only once logged in with a token. A failed read keeps the list and says why ('Failed to
 * fetch user memory'); a removal still pending is not brought back by a read that raced it.
 */
export function useMemories(sourceChatId?: string | null) {
  const { userId, ready } = useDataSession();
  const scope = sourceChatId ?? '';
  const query = useQuery({
    queryKey: memoryKeys.list(userId, scope),
    queryFn: async () => (await fetchMemories(scope || null)).filter((m) => !isPendingRemoval(m.user_memory_id)),
    enabled: ready,
    staleTime: 0,
    retry: false,
  });
  const status: MemoryListStatus =
    !ready && !query.data ? 'idle' : query.isFetching || query.isPending ? 'loading' : query.isError ? 'error' : 'ready';
  // The removals still undoable are hidden here too, so that a removal and its undo bar show in
  // the same render (the focus moves to Undo only once the removed memory's buttons are gone).
  const pending = useRemovals((s) => s.pending);
  const items = useMemo(() => {
    const hidden = new Set(pending.map((p) => p.memory.user_memory_id));
    return (query.data ?? []).filter((m) => !hidden.has(m.user_memory_id));
  }, [query.data, pending]);
  const guesses = useMemo(() => items.filter(awaitsConfirmation).length, [items]);
  return {
    /** Which list is held: '' for all, a chat id for one conversation's; null while none can be read. */
    scope: ready ? scope : null,
    items,
    status,
    error: status === 'error' ? messageOf(query.error) : null,
    /** Inferences waiting for the user's confirmation. */
    guesses,
    reload: () => {
      if (ready) void query.refetch();
    },
  };
}

/** The memory ids with a call on its way. */
export function useMemoryBusy(): string[] {
  const ids = useMutationState({
    filters: { mutationKey: [MUTATION_KEY], status: 'pending' },
    select: (m) => String(m.options.mutationKey?.[2]),
  });
  return useMemo(() => [...new Set(ids)], [ids]);
}

const heldLists = (client: QueryClient, userId: string | null) => client.getQueriesData<MemoryList>({ queryKey: memoryKeys.user(userId) });

function findHeld(client: QueryClient, userId: string | null, id: string): UserMemory | undefined {
  for (const [, list] of heldLists(client, userId)) {
    const memory = list?.find((m) => m.user_memory_id === id);
    if (memory) return memory;
  }
  return undefined;
}

function replaceHeld(client: QueryClient, userId: string | null, memory: UserMemory): void {
  client.setQueriesData<MemoryList>({ queryKey: memoryKeys.user(userId) }, (list) =>
    list?.map((m) => (m.user_memory_id === memory.user_memory_id ? memory : m)),
  );
}

/** Takes a memory out of every list held; answers where it stood. */
function takeOut(client: QueryClient, userId: string | null, id: string): Place[] {
  const places: Place[] = [];
  for (const [key, list] of heldLists(client, userId)) {
    const index = list?.findIndex((m) => m.user_memory_id === id) ?? -1;
    if (index < 0) continue;
    places.push({ key, index });
    client.setQueryData<MemoryList>(
      key,
      list!.filter((m) => m.user_memory_id !== id),
    );
  }
  return places;
}

function putBack(client: QueryClient, memory: UserMemory, places: Place[]): void {
  for (const { key, index } of places) {
    client.setQueryData<MemoryList>(key as QueryKey, (list) => {
      if (!list) return list;
      const items = list.filter((m) => m.user_memory_id !== memory.user_memory_id);
      items.splice(Math.min(Math.max(index, 0), items.length), 0, memory);
      return items;
    });
  }
}

/** Applied at once, replaced by the stored item, rolled back on failure (the error is kept and rethrown). */
function changeMemory(client: QueryClient, userId: string | null, id: string, patch: MemoryPatch): Promise<UserMemory> {
  return runMutation(
    client,
    {
      mutationKey: [MUTATION_KEY, 'update', id],
      mutationFn: () => updateMemory(id, patch),
      onMutate: () => {
        const before = findHeld(client, userId, id);
        if (before) replaceHeld(client, userId, { ...before, ...patch });
        setMemoryError(null);
        return { before };
      },
      onSuccess: (stored) => replaceHeld(client, userId, stored),
      onError: (error, _vars, context) => {
        console.error(error);
        if (context?.before) replaceHeld(client, userId, context.before);
        setMemoryError(messageOf(error));
      },
    },
    undefined,
  );
}

/**
 * Removes a memory: gone from the lists at once and deleted on the server; it can be undone for
 * UNDO_MS. A failed delete puts it back where it was and keeps the error. Answers whether it was deleted.
 */
function removeMemory(client: QueryClient, userId: string | null, id: string, kind: RemovalKind): Promise<boolean> {
  const memory = findHeld(client, userId, id);
  if (!memory) return Promise.resolve(false);
  return runMutation(
    client,
    {
      mutationKey: [MUTATION_KEY, 'delete', id],
      scope: scopeOf(id),
      mutationFn: () => deleteMemory(id),
      onMutate: () => {
        const places = takeOut(client, userId, id);
        offerUndo({ memory, index: places[0]?.index ?? 0, places, kind });
        return { places };
      },
      onError: (error, _vars, context) => {
        console.error(error);
        settleRemoval(id);
        putBack(client, memory, context?.places ?? []);
        setMemoryError(messageOf(error));
      },
    },
    undefined,
  ).then(
    () => true,
    () => false,
  );
}

const lastDeleteFailed = (client: QueryClient, id: string) =>
  client
    .getMutationCache()
    .findAll({ mutationKey: [MUTATION_KEY, 'delete', id], exact: true })
    .at(-1)?.state.status === 'error';

/**
 * Undoes a removal still within UNDO_MS: back in its place at once, restored on the server once
 * the delete is done (if it failed, the memory is back already); taken out again with the error if
 * the restore fails.
 */
async function undoRemoval(client: QueryClient, userId: string | null, id: string): Promise<void> {
  const removal = pendingRemoval(id);
  if (!removal) return;
  await runMutation(
    client,
    {
      mutationKey: [MUTATION_KEY, 'restore', id],
      scope: scopeOf(id),
      onMutate: () => {
        settleRemoval(id);
        putBack(client, removal.memory, removal.places);
        setMemoryError(null);
      },
      mutationFn: async () => (lastDeleteFailed(client, id) ? null : restoreMemory(id)),
      onSuccess: (restored) => {
        if (restored) replaceHeld(client, userId, restored);
      },
      onError: (error) => {
        console.error(error);
        takeOut(client, userId, id);
        setMemoryError(`Could not bring the memory back: ${messageOf(error)}`);
      },
    },
    undefined,
  ).catch(() => undefined);
}

/** What can be done with the user's memories; each change shows at once and is rolled back on failure. */
export function useMemoryActions() {
  const client = useQueryClient();
  const { userId } = useDataSession();
  return useMemo(
    () => ({
      /** A new text, checked first (no call for an empty or too long one). */
      edit: (id: string, text: string) => {
        const problem = memoryTextProblem(text);
        return problem ? Promise.reject(new Error(problem)) : changeMemory(client, userId, id, { text: text.trim() });
      },
      /** Confirm an inference: is_confirmed becomes true. */
      confirm: (id: string) => changeMemory(client, userId, id, { is_confirmed: true }),
      remove: (id: string) => removeMemory(client, userId, id, 'deleted'),
      /** Reject an inference: it is removed (and can be undone like any removal). */
      reject: (id: string) => removeMemory(client, userId, id, 'rejected'),
      undo: (id: string) => undoRemoval(client, userId, id),
      dismissError: dismissMemoryError,
    }),
    [client, userId],
  );
}
