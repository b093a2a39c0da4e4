import type { QueryClient } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryItem } from '../../../test/builders';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { testQueryClient, withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { authStore } from '../../auth/state/authStore';
import { resetRemovals, UNDO_MS, useRemovals } from '../state/removalStore';
import { useMemories, useMemoryActions, useMemoryBusy } from './memoryQueries';

const LIST = 'GET /api/v1/user_memory/';
const lisbon = memoryItem('a', { text: 'Lives in Lisbon' });
const parent = memoryItem('b', { text: 'Is a parent', is_inference: true, is_confirmed: false, is_fact: false });
const veg = memoryItem('c', { text: 'Is vegetarian', source_message_id: 'm2' });

/** A call that answers when the test says so (also when it is made after that). */
function held() {
  let answer: Response | undefined;
  let release: ((response: Response) => void) | undefined;
  const handler = () => (answer ? Promise.resolve(answer) : new Promise<Response>((resolve) => (release = resolve)));
  return {
    handler,
    release: (response: Response) => {
      answer = response;
      release?.(response);
    },
  };
}

/** The hooks a memories screen uses, mounted for one list (all, or one conversation's). */
function mountMemories(client = testQueryClient()) {
  const { wrapper } = withQueryClient(client);
  const hook = renderHook(
    ({ scope }: { scope: string | null }) => ({
      list: useMemories(scope),
      busy: useMemoryBusy(),
      removals: useRemovals((s) => s),
      actions: useMemoryActions(),
    }),
    { wrapper, initialProps: { scope: null as string | null } },
  );
  return hook;
}

let client: QueryClient;
let hook: ReturnType<typeof mountMemories>;
/** What the screen sees: the list, the ids being saved, the removals that can be undone, the last error. */
const state = () => ({ ...hook.result.current.list, busy: hook.result.current.busy, ...hook.result.current.removals });
const ids = () => state().items.map((m) => m.user_memory_id);
const actions = () => hook.result.current.actions;
/** Starts a call the way a click does; what it changes at once is seen on return. */
function start<T>(call: () => T): T {
  let started!: T;
  act(() => {
    started = call();
  });
  return started;
}
/** Waits for a call to end, with what it changed seen on return. */
async function end<T>(call: Promise<T>): Promise<T> {
  let outcome!: { ok: true; value: T } | { ok: false; error: unknown };
  await act(async () => {
    outcome = await call.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  });
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
const loaded = () => end(vi.waitFor(() => expect(state().status).not.toBe('loading')));

describe('the memories held by the query client', () => {
  beforeEach(async () => {
    resetRemovals();
    signedIn();
    mockFetch({ [LIST]: json(200, [lisbon, parent, veg]) });
    client = testQueryClient();
    hook = mountMemories(client);
    await loaded();
  });
  afterEach(() => {
    vi.useRealTimers();
    resetRemovals();
  });

  it('loads all memories, or one conversation’s, and keeps the list on a failed read with the spec’s text', async () => {
    expect(state()).toMatchObject({ scope: '', status: 'ready', error: null });
    expect(ids()).toEqual(['a', 'b', 'c']);
    mockFetch({ [LIST]: json(503, { detail: 'down' }) });
    start(() => state().reload());
    await loaded();
    expect(state()).toMatchObject({ status: 'error', error: 'Failed to fetch user memory' });
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(console.error).toHaveBeenCalled();

    const api = mockFetch({ [LIST]: json(200, [veg]) });
    start(() => hook.rerender({ scope: 'c2' }));
    expect(state()).toMatchObject({ scope: 'c2', status: 'loading', items: [] });
    await loaded();
    expect(api.calls[0].url).toContain('source_chat_id=c2');
    expect(ids()).toEqual(['c']);
  });

  it('reads each list again when a screen shows it, with one call per read (no retry)', async () => {
    const api = mockFetch({ [LIST]: json(200, [lisbon]) });
    hook.unmount();
    hook = mountMemories(client);
    expect(ids()).toEqual(['a', 'b', 'c']); // the list held is shown while it is read again
    await loaded();
    expect(ids()).toEqual(['a']);
    mockFetch({ [LIST]: json(500, {}) });
    start(() => state().reload());
    await loaded();
    expect(api.called(LIST)).toHaveLength(1);
  });

  it('confirms an inference at once, then takes the stored item', async () => {
    const put = held();
    const api = mockFetch({ 'PUT /api/v1/user_memory/b': put.handler });
    const confirming = start(() => actions().confirm('b'));
    expect(state().items[1]).toMatchObject({ is_confirmed: true });
    expect(state().busy).toEqual(['b']);
    put.release(json(200, { ...parent, is_confirmed: true, updated_at: '2025-09-21T00:00:00Z' }));
    await end(confirming);
    expect(state().items[1]).toMatchObject({ is_confirmed: true, updated_at: '2025-09-21T00:00:00Z' });
    expect(state().busy).toEqual([]);
    expect(api.calls[0].body).toBe('{"is_confirmed":true}');
  });

  it('rolls a failed confirmation back, with the spec’s error kept', async () => {
    mockFetch({ 'PUT /api/v1/user_memory/b': json(500, { detail: 'x' }) });
    await expect(end(start(() => actions().confirm('b')))).rejects.toThrow('Failed to update user memory');
    expect(state().items[1]).toEqual(parent);
    expect(state().actionError).toBe('Failed to update user memory');
  });

  it('edits a text optimistically, refuses an empty or too long one without a call, and rolls back on failure', async () => {
    const api = mockFetch({ 'PUT /api/v1/user_memory/a': ({ body }) => json(200, { ...lisbon, ...JSON.parse(body ?? '{}') }) });
    await end(start(() => actions().edit('a', '  Lives in Porto ')));
    expect(state().items[0].text).toBe('Lives in Porto');
    expect(api.calls[0].body).toBe('{"text":"Lives in Porto"}');
    await expect(end(start(() => actions().edit('a', '   ')))).rejects.toThrow('A memory cannot be empty.');
    await expect(end(start(() => actions().edit('a', 'x'.repeat(501))))).rejects.toThrow('at most 500');
    expect(api.calls).toHaveLength(1);

    mockFetch({ 'PUT /api/v1/user_memory/a': json(500, {}) });
    await expect(end(start(() => actions().edit('a', 'Lives in Faro')))).rejects.toThrow('Failed to update user memory');
    expect(state().items[0].text).toBe('Lives in Porto');
  });

  it('rejects an inference: removed at once (deleted on the server), undoable like a deletion', async () => {
    const api = mockFetch({ 'DELETE /api/v1/user_memory/b': new Response(null, { status: 204 }) });
    await end(start(() => actions().reject('b')));
    expect(ids()).toEqual(['a', 'c']);
    expect(state().pending).toMatchObject([{ memory: parent, index: 1, kind: 'rejected' }]);
    expect(api.called('DELETE /api/v1/user_memory/b')).toHaveLength(1);
  });

  it('puts a memory back where it was when the delete fails', async () => {
    mockFetch({ 'DELETE /api/v1/user_memory/a': json(500, {}) });
    await expect(end(start(() => actions().remove('a')))).resolves.toBe(false);
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(state()).toMatchObject({ pending: [], actionError: 'Failed to delete user memory' });
  });

  it('a read that raced a removal does not bring the memory back', async () => {
    const list = held();
    mockFetch({ [LIST]: list.handler, 'DELETE /api/v1/user_memory/a': new Response(null, { status: 204 }) });
    start(() => state().reload());
    await end(start(() => actions().remove('a')));
    list.release(json(200, [lisbon, parent, veg]));
    await loaded();
    expect(ids()).toEqual(['b', 'c']);
  });

  it('offers the undo for UNDO_MS, then the removal is final', async () => {
    vi.useFakeTimers();
    const api = mockFetch({
      'DELETE /api/v1/user_memory/c': new Response(null, { status: 204 }),
      'POST /api/v1/user_memory/c/restore': json(200, veg),
    });
    await end(start(() => actions().remove('c')));
    expect(state().pending).toHaveLength(1);
    act(() => vi.advanceTimersByTime(UNDO_MS - 1));
    expect(state().pending).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(state().pending).toHaveLength(0);
    await end(start(() => actions().undo('c'))); // too late: nothing happens
    expect(ids()).toEqual(['a', 'b']);
    expect(api.called('POST /api/v1/user_memory/c/restore')).toHaveLength(0);
  });

  it('an undo within the window puts it back in its place at once and restores it on the server', async () => {
    vi.useFakeTimers();
    const restore = held();
    const api = mockFetch({
      'DELETE /api/v1/user_memory/b': new Response(null, { status: 204 }),
      'POST /api/v1/user_memory/b/restore': restore.handler,
    });
    await end(start(() => actions().remove('b')));
    act(() => vi.advanceTimersByTime(UNDO_MS / 2));
    const undoing = start(() => actions().undo('b'));
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(state().pending).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(0));
    restore.release(json(200, { ...parent, updated_at: '2025-09-22T00:00:00Z' }));
    await end(undoing);
    expect(state().items[1].updated_at).toBe('2025-09-22T00:00:00Z');
    expect(api.called('POST /api/v1/user_memory/b/restore')).toHaveLength(1);
    // The expired timer of the undone removal changes nothing.
    act(() => vi.advanceTimersByTime(UNDO_MS));
    expect(ids()).toEqual(['a', 'b', 'c']);
  });

  it('an undo while the delete is on its way waits for it, then restores', async () => {
    const del = held();
    const api = mockFetch({ 'DELETE /api/v1/user_memory/a': del.handler, 'POST /api/v1/user_memory/a/restore': json(200, lisbon) });
    const removing = start(() => actions().remove('a'));
    expect(ids()).toEqual(['b', 'c']);
    const undoing = start(() => actions().undo('a'));
    expect(ids()).toEqual(['a', 'b', 'c']);
    await Promise.resolve();
    expect(api.called('POST /api/v1/user_memory/a/restore')).toHaveLength(0);
    del.release(new Response(null, { status: 204 }));
    await end(Promise.all([removing, undoing]));
    expect(api.calls.map((c) => c.method)).toEqual(['DELETE', 'POST']);
    expect(ids()).toEqual(['a', 'b', 'c']);
  });

  it('an undo while the delete is on its way sends no restore when the delete fails', async () => {
    const del = held();
    const api = mockFetch({ 'DELETE /api/v1/user_memory/a': del.handler, 'POST /api/v1/user_memory/a/restore': json(200, lisbon) });
    const removing = start(() => actions().remove('a'));
    const undoing = start(() => actions().undo('a'));
    del.release(json(500, {}));
    await end(Promise.all([removing, undoing]));
    expect(api.called('POST /api/v1/user_memory/a/restore')).toHaveLength(0);
    expect(ids()).toEqual(['a', 'b', 'c']);
    expect(state().actionError).toBe('Failed to delete user memory');
  });

  it('takes it out again with a message when the restore fails', async () => {
    mockFetch({
      'DELETE /api/v1/user_memory/a': new Response(null, { status: 204 }),
      'POST /api/v1/user_memory/a/restore': json(404, { detail: 'Memory not found' }),
    });
    await end(start(() => actions().remove('a')));
    await end(start(() => actions().undo('a')));
    expect(ids()).toEqual(['b', 'c']);
    expect(state().actionError).toBe('Could not bring the memory back: Failed to restore user memory');
  });

  it('keys the lists per user: another user never sees them', async () => {
    const api = mockFetch({ [LIST]: json(200, [veg]) });
    start(() => authStore.set({ user: { ...registeredUser, user_id: 'u-bob' } }));
    expect(ids()).toEqual([]);
    await loaded();
    expect(ids()).toEqual(['c']);
    expect(api.called(LIST)).toHaveLength(1);
  });

  it('asks nothing without a login and a token, and a memory call then says Not authenticated', async () => {
    const api = mockFetch({ [LIST]: json(200, [lisbon]) });
    hook.unmount();
    authStore.set({ accessToken: null });
    hook = mountMemories();
    expect(state()).toMatchObject({ scope: null, status: 'idle', items: [] });
    start(() => state().reload());
    expect(api.calls).toHaveLength(0);
    start(() => authStore.set({ accessToken: 'tok' }));
    await loaded();
    authStore.set({ isLoggedIn: false });
    const { fetchMemories } = await import('../api/memoryApi');
    await expect(fetchMemories()).rejects.toThrow('Not authenticated');
  });

  it('forgets everything, timers included, on logout', async () => {
    vi.useFakeTimers();
    mockFetch({
      'DELETE /api/v1/user_memory/a': new Response(null, { status: 204 }),
      'POST /api/v1/auth/logout': json(200, {}),
      'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'c' }),
    });
    await end(start(() => actions().remove('a')));
    const { logout } = await import('../../auth/state/authStore');
    await end(logout());
    expect(state()).toMatchObject({ items: [], scope: null, status: 'idle', pending: [] });
    expect(vi.getTimerCount()).toBe(0);
  });
});
