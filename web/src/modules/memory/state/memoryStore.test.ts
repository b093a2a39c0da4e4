import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryItem } from '../../../test/builders';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { authStore } from '../../auth/state/authStore';
import { confirmMemory, editMemory, loadMemories, memoryStore, rejectMemory, removeMemory, resetMemories, undoRemoval, UNDO_MS } from './memoryStore';

const LIST = 'GET /api/v1/user_memory/';
const lisbon = memoryItem('a', { text: 'Lives in Lisbon' });
const parent = memoryItem('b', { text: 'Is a parent', is_inference: true, is_confirmed: false, is_fact: false });
const veg = memoryItem('c', { text: 'Is vegetarian', source_message_id: 'm2' });

/** A call that answers when the test says so. */
function held() {
  let release: (response: Response) => void = () => undefined;
  const handler = () => new Promise<Response>((resolve) => (release = resolve));
  return { handler, release: (response: Response) => release(response) };
}
const ids = () => memoryStore.get().items.map((m) => m.user_memory_id);

describe('the memory store', () => {
  beforeEach(async () => {
    resetMemories();
    authStore.reset();
    authStore.set({ isLoading: false, isLoggedIn: true, accessToken: 'tok', user: registeredUser });
    mockFetch({ [LIST]: json(200, [lisbon, parent, veg]) });
    await loadMemories();
  });
  afterEach(() => {
    vi.useRealTimers();
    resetMemories();
  });

  it('loads all memories, or one conversation’s, and keeps the list on a failed read with the spec’s text', async () => {
    expect(memoryStore.get()).toMatchObject({ scope: '', status: 'ready', error: null });
    expect(ids()).toEqual(['a', 'b', 'c']);
    mockFetch({ [LIST]: json(503, { detail: 'down' }) });
    await loadMemories();
    expect(memoryStore.get()).toMatchObject({ status: 'error', error: 'Failed to fetch user memory' });
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(console.error).toHaveBeenCalled();

    const api = mockFetch({ [LIST]: json(200, [veg]) });
    const loading = loadMemories('c2');
    expect(memoryStore.get()).toMatchObject({ scope: 'c2', status: 'loading', items: [] });
    await loading;
    expect(api.calls[0].url).toContain('source_chat_id=c2');
    expect(ids()).toEqual(['c']);
  });

  it('confirms an inference at once, then takes the stored item', async () => {
    const put = held();
    const api = mockFetch({ 'PUT /api/v1/user_memory/b': put.handler });
    const confirming = confirmMemory('b');
    expect(memoryStore.get().items[1]).toMatchObject({ is_confirmed: true });
    expect(memoryStore.get().busy).toEqual(['b']);
    put.release(json(200, { ...parent, is_confirmed: true, updated_at: '2025-09-21T00:00:00Z' }));
    await confirming;
    expect(memoryStore.get().items[1]).toMatchObject({ is_confirmed: true, updated_at: '2025-09-21T00:00:00Z' });
    expect(memoryStore.get().busy).toEqual([]);
    expect(api.calls[0].body).toBe('{"is_confirmed":true}');
  });

  it('rolls a failed confirmation back, with the spec’s error kept', async () => {
    mockFetch({ 'PUT /api/v1/user_memory/b': json(500, { detail: 'x' }) });
    await expect(confirmMemory('b')).rejects.toThrow('Failed to update user memory');
    expect(memoryStore.get().items[1]).toEqual(parent);
    expect(memoryStore.get().actionError).toBe('Failed to update user memory');
  });

  it('edits a text optimistically, refuses an empty or too long one without a call, and rolls back on failure', async () => {
    const api = mockFetch({ 'PUT /api/v1/user_memory/a': ({ body }) => json(200, { ...lisbon, ...JSON.parse(body ?? '{}') }) });
    await editMemory('a', '  Lives in Porto ');
    expect(memoryStore.get().items[0].text).toBe('Lives in Porto');
    expect(api.calls[0].body).toBe('{"text":"Lives in Porto"}');
    await expect(editMemory('a', '   ')).rejects.toThrow('A memory cannot be empty.');
    await expect(editMemory('a', 'x'.repeat(501))).rejects.toThrow('at most 500');
    expect(api.calls).toHaveLength(1);

    mockFetch({ 'PUT /api/v1/user_memory/a': json(500, {}) });
    await expect(editMemory('a', 'Lives in Faro')).rejects.toThrow('Failed to update user memory');
    expect(memoryStore.get().items[0].text).toBe('Lives in Porto');
  });

  it('rejects an inference: removed at once (deleted on the server), undoable like a deletion', async () => {
    const api = mockFetch({ 'DELETE /api/v1/user_memory/b': new Response(null, { status: 204 }) });
    await rejectMemory('b');
    expect(ids()).toEqual(['a', 'c']);
    expect(memoryStore.get().pending).toMatchObject([{ memory: parent, index: 1, kind: 'rejected' }]);
    expect(api.called('DELETE /api/v1/user_memory/b')).toHaveLength(1);
  });

  it('puts a memory back where it was when the delete fails', async () => {
    mockFetch({ 'DELETE /api/v1/user_memory/a': json(500, {}) });
    await expect(removeMemory('a')).resolves.toBe(false);
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(memoryStore.get()).toMatchObject({ pending: [], actionError: 'Failed to delete user memory' });
  });

  it('offers the undo for UNDO_MS, then the removal is final', async () => {
    vi.useFakeTimers();
    const api = mockFetch({ 'DELETE /api/v1/user_memory/c': new Response(null, { status: 204 }), 'POST /api/v1/user_memory/c/restore': json(200, veg) });
    await removeMemory('c');
    expect(memoryStore.get().pending).toHaveLength(1);
    vi.advanceTimersByTime(UNDO_MS - 1);
    expect(memoryStore.get().pending).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(memoryStore.get().pending).toHaveLength(0);
    await undoRemoval('c'); // too late: nothing happens
    expect(ids()).toEqual(['a', 'b']);
    expect(api.called('POST /api/v1/user_memory/c/restore')).toHaveLength(0);
  });

  it('an undo within the window puts it back in its place at once and restores it on the server', async () => {
    vi.useFakeTimers();
    const restore = held();
    const api = mockFetch({ 'DELETE /api/v1/user_memory/b': new Response(null, { status: 204 }), 'POST /api/v1/user_memory/b/restore': restore.handler });
    await removeMemory('b');
    vi.advanceTimersByTime(UNDO_MS / 2);
    const undoing = undoRemoval('b');
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(memoryStore.get().pending).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    restore.release(json(200, { ...parent, updated_at: '2025-09-22T00:00:00Z' }));
    await undoing;
    expect(memoryStore.get().items[1].updated_at).toBe('2025-09-22T00:00:00Z');
    expect(api.called('POST /api/v1/user_memory/b/restore')).toHaveLength(1);
    // The expired timer of the undone removal changes nothing.
    vi.advanceTimersByTime(UNDO_MS);
    expect(ids()).toEqual(['a', 'b', 'c']);
  });

  it('an undo while the delete is on its way waits for it, then restores', async () => {
    const del = held();
    const api = mockFetch({ 'DELETE /api/v1/user_memory/a': del.handler, 'POST /api/v1/user_memory/a/restore': json(200, lisbon) });
    const removing = removeMemory('a');
    expect(ids()).toEqual(['b', 'c']);
    const undoing = undoRemoval('a');
    expect(ids()).toEqual(['a', 'b', 'c']);
    await Promise.resolve();
    expect(api.called('POST /api/v1/user_memory/a/restore')).toHaveLength(0);
    del.release(new Response(null, { status: 204 }));
    await Promise.all([removing, undoing]);
    expect(api.calls.map((c) => c.method)).toEqual(['DELETE', 'POST']);
    expect(ids()).toEqual(['a', 'b', 'c']);
  });

  it('takes it out again with a message when the restore fails', async () => {
    mockFetch({ 'DELETE /api/v1/user_memory/a': new Response(null, { status: 204 }), 'POST /api/v1/user_memory/a/restore': json(404, { detail: 'Memory not found' }) });
    await removeMemory('a');
    await undoRemoval('a');
    expect(ids()).toEqual(['b', 'c']);
    expect(memoryStore.get().actionError).toBe('Could not bring the memory back: Failed to restore user memory');
  });

  it('forgets everything, timers included, on logout', async () => {
    vi.useFakeTimers();
    mockFetch({ 'DELETE /api/v1/user_memory/a': new Response(null, { status: 204 }), 'POST /api/v1/auth/logout': json(200, {}), 'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'c' }) });
    await removeMemory('a');
    const { logout } = await import('../../auth/state/authStore');
    await logout();
    expect(memoryStore.get()).toMatchObject({ items: [], scope: null, status: 'idle', pending: [] });
    expect(vi.getTimerCount()).toBe(0);
  });
});
