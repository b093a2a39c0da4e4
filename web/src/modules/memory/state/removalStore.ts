import type { UserMemory } from '@app/contracts/memory';
import type { QueryKey } from '@tanstack/react-query';
import { onLogout } from '../../auth/state/authStore';
import { createStore, useStore } from '../../common/state/createStore';

/** How long a removal can be undone in the page (the server keeps it restorable for minutes). */
export const UNDO_MS = 6_000;

export type RemovalKind = 'deleted' | 'rejected';

/** Where a removed memory stood in a list held: it goes back there on an undo or a failure. */
export type Place = { key: QueryKey; index: number };

/** A removal that can still be undone: the memory, where it was, and until when. */
export type PendingRemoval = { memory: UserMemory; index: number; places: Place[]; kind: RemovalKind; expiresAt: number };

/**
 * The memories page's own state beside the server's: the removals that can still be undone
 * (oldest first) and why the last change failed (it was rolled back).
 */
export type RemovalState = { pending: PendingRemoval[]; actionError: string | null };

export const removalStore = createStore<RemovalState>(() => ({ pending: [], actionError: null }));

const timers = new Map<string, ReturnType<typeof setTimeout>>();
const idOf = (removal: PendingRemoval) => removal.memory.user_memory_id;

/** Offers the undo for UNDO_MS; a newer removal of the same memory replaces the older one. */
export function offerUndo(removal: Omit<PendingRemoval, 'expiresAt'>): void {
  const id = removal.memory.user_memory_id;
  removalStore.set((s) => ({
    pending: [...s.pending.filter((p) => idOf(p) !== id), { ...removal, expiresAt: Date.now() + UNDO_MS }],
    actionError: null,
  }));
  clearTimeout(timers.get(id));
  timers.set(
    id,
    setTimeout(() => settleRemoval(id), UNDO_MS),
  );
}

/** The undo is no longer offered (taken, expired, or the removal failed). */
export function settleRemoval(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  removalStore.set((s) => ({ pending: s.pending.filter((p) => idOf(p) !== id) }));
}

export const pendingRemoval = (id: string) => removalStore.get().pending.find((p) => idOf(p) === id);
export const isPendingRemoval = (id: string) => !!pendingRemoval(id);

export function setMemoryError(actionError: string | null): void {
  removalStore.set({ actionError });
}

export const dismissMemoryError = () => setMemoryError(null);

export function resetRemovals(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  removalStore.reset();
}

onLogout(resetRemovals);

export const useRemovals = <T>(selector: (state: RemovalState) => T) => useStore(removalStore, selector);
