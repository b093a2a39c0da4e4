import type { UserMemory } from '@app/contracts/memory';
import { onLogout } from '../../auth/state/authStore';
import { createStore, useStore } from '../../common/state/createStore';
import { deleteMemory, fetchMemories, MEMORY_TEXT_MAX, restoreMemory, updateMemory, type MemoryPatch } from '../api/memoryApi';

/** How long a removal can be undone in the page (the server keeps it restorable for minutes). */
export const UNDO_MS = 6_000;

export type RemovalKind = 'deleted' | 'rejected';

/** A removal that can still be undone: the memory, where it was, and until when. */
export type PendingRemoval = { memory: UserMemory; index: number; kind: RemovalKind; expiresAt: number };

export type MemoryState = {
  /** The memories of the list held, newest first (as the server answers). */
  items: UserMemory[];
  /** Which list is held: '' for all, a chat id for one conversation's; null before any load. */
  scope: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** Why the list could not be read ('Failed to fetch user memory'). */
  error: string | null;
  /** Why the last change failed (it was rolled back). */
  actionError: string | null;
  /** Memory ids with a call in flight. */
  busy: string[];
  /** Removals that can still be undone, oldest first. */
  pending: PendingRemoval[];
};

const initial = (): MemoryState => ({ items: [], scope: null, status: 'idle', error: null, actionError: null, busy: [], pending: [] });

export const memoryStore = createStore<MemoryState>(initial);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const timers = new Map<string, ReturnType<typeof setTimeout>>();
const deletions = new Map<string, Promise<boolean>>();
let loadSeq = 0;

function setBusy(id: string, on: boolean): void {
  memoryStore.set((s) => ({ busy: on ? [...s.busy.filter((x) => x !== id), id] : s.busy.filter((x) => x !== id) }));
}

function replaceItem(memory: UserMemory): void {
  memoryStore.set((s) => ({ items: s.items.map((m) => (m.user_memory_id === memory.user_memory_id ? memory : m)) }));
}

function insertAt(memory: UserMemory, index: number): void {
  memoryStore.set((s) => {
    const items = s.items.filter((m) => m.user_memory_id !== memory.user_memory_id);
    items.splice(Math.min(Math.max(index, 0), items.length), 0, memory);
    return { items };
  });
}

/**
 * Reads the list: all memories (scope '' or null), or one conversation's (its chat id). Failures
 * are logged and the list stays as it was (section 8); the page shows the error.
 */
export async function loadMemories(sourceChatId?: string | null): Promise<void> {
  const scope = sourceChatId ?? '';
  const seq = ++loadSeq;
  memoryStore.set((s) => (s.scope === scope ? { status: 'loading', error: null } : { scope, items: [], status: 'loading', error: null }));
  try {
    const items = await fetchMemories(scope || null);
    if (seq !== loadSeq) return;
    // A removal still pending is not shown again by a refresh that raced it.
    const hidden = new Set(memoryStore.get().pending.map((p) => p.memory.user_memory_id));
    memoryStore.set({ items: items.filter((m) => !hidden.has(m.user_memory_id)), status: 'ready' });
  } catch (error) {
    console.error(error);
    if (seq === loadSeq) memoryStore.set({ status: 'error', error: messageOf(error) });
  }
}

/** Applied at once, replaced by the stored item, rolled back on failure (the error is kept and rethrown). */
async function change(id: string, patch: MemoryPatch): Promise<UserMemory> {
  const before = memoryStore.get().items.find((m) => m.user_memory_id === id);
  if (before) replaceItem({ ...before, ...patch });
  memoryStore.set({ actionError: null });
  setBusy(id, true);
  try {
    const stored = await updateMemory(id, patch);
    replaceItem(stored);
    return stored;
  } catch (error) {
    console.error(error);
    if (before) replaceItem(before);
    memoryStore.set({ actionError: messageOf(error) });
    throw error;
  } finally {
    setBusy(id, false);
  }
}

/** Checks a new text as the server would (not empty, at most 500 characters); the error to show, or null. */
export function memoryTextProblem(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return 'A memory cannot be empty.';
  if (trimmed.length > MEMORY_TEXT_MAX) return `A memory can be at most ${MEMORY_TEXT_MAX} characters.`;
  return null;
}

export function editMemory(id: string, text: string): Promise<UserMemory> {
  const problem = memoryTextProblem(text);
  if (problem) return Promise.reject(new Error(problem));
  return change(id, { text: text.trim() });
}

/** Confirm an inference: is_confirmed becomes true. */
export const confirmMemory = (id: string) => change(id, { is_confirmed: true });

function settle(id: string): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  memoryStore.set((s) => ({ pending: s.pending.filter((p) => p.memory.user_memory_id !== id) }));
}

/**
 * Removes a memory: gone from the list at once and deleted on the server; it can be undone for
 * UNDO_MS (the undo restores it). A failed delete puts it back where it was and keeps the error.
 */
export function removeMemory(id: string, kind: RemovalKind = 'deleted'): Promise<boolean> {
  const { items } = memoryStore.get();
  const index = items.findIndex((m) => m.user_memory_id === id);
  if (index < 0) return deletions.get(id) ?? Promise.resolve(false);
  const memory = items[index];
  memoryStore.set((s) => ({
    items: s.items.filter((m) => m.user_memory_id !== id),
    pending: [...s.pending.filter((p) => p.memory.user_memory_id !== id), { memory, index, kind, expiresAt: Date.now() + UNDO_MS }],
    actionError: null,
  }));
  clearTimeout(timers.get(id));
  timers.set(id, setTimeout(() => settle(id), UNDO_MS));
  const deletion = (async () => {
    setBusy(id, true);
    try {
      await deleteMemory(id);
      return true;
    } catch (error) {
      console.error(error);
      settle(id);
      insertAt(memory, index);
      memoryStore.set({ actionError: messageOf(error) });
      return false;
    } finally {
      setBusy(id, false);
      deletions.delete(id);
    }
  })();
  deletions.set(id, deletion);
  return deletion;
}

/** Reject an inference: it is removed (and can be undone like any removal). */
export const rejectMemory = (id: string) => removeMemory(id, 'rejected');

/**
 * Undo a removal still within UNDO_MS: back in its place at once, restored on the server (after
 * the delete, if it is still on its way); taken out again with the error if the restore fails.
 */
export async function undoRemoval(id: string): Promise<void> {
  const entry = memoryStore.get().pending.find((p) => p.memory.user_memory_id === id);
  if (!entry) return;
  settle(id);
  insertAt(entry.memory, entry.index);
  memoryStore.set({ actionError: null });
  const deleted = await (deletions.get(id) ?? Promise.resolve(true));
  if (!deleted) return; // the delete failed: it is back already
  setBusy(id, true);
  try {
    replaceItem(await restoreMemory(id));
  } catch (error) {
    console.error(error);
    memoryStore.set((s) => ({ items: s.items.filter((m) => m.user_memory_id !== id), actionError: `Could not bring the memory back: ${messageOf(error)}` }));
  } finally {
    setBusy(id, false);
  }
}

export function dismissMemoryError(): void {
  memoryStore.set({ actionError: null });
}

export function resetMemories(): void {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  deletions.clear();
  loadSeq++;
  memoryStore.reset();
}

onLogout(resetMemories);

export const useMemoryState = <T,>(selector: (state: MemoryState) => T) => useStore(memoryStore, selector);

/** An inference the user has not confirmed yet: to confirm or reject. */
export const awaitsConfirmation = (memory: UserMemory) => memory.is_inference && !memory.is_confirmed;
