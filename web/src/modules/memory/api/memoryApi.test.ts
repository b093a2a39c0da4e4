import { DEFAULT_PREFERENCE_NAME as CONTRACT_PREFERENCE, MEMORY_TEXT_MAX as CONTRACT_TEXT_MAX } from '@app/contracts/memory';
import { beforeEach, describe, expect, it } from 'vitest';
import { memoryItem as memory } from '../../../test/builders';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { authStore } from '../../auth/state/authStore';
import { DEFAULT_PREFERENCE_NAME, deleteMemory, fetchMemories, MEMORY_TEXT_MAX, restoreMemory, updateMemory } from './memoryApi';

describe('user memory calls (spec sections 5, 7 and 8)', () => {
  beforeEach(() => {
    signedIn();
  });

  it('keeps the contract’s constants', () => {
    expect(DEFAULT_PREFERENCE_NAME).toBe(CONTRACT_PREFERENCE);
    expect(MEMORY_TEXT_MAX).toBe(CONTRACT_TEXT_MAX);
  });

  it('asks for the default preference and one conversation, with the bearer token', async () => {
    const api = mockFetch({ 'GET /api/v1/user_memory/': json(200, [memory('a')]) });
    await expect(fetchMemories('c1')).resolves.toEqual([memory('a')]);
    await fetchMemories();
    expect(api.calls.map((c) => c.url)).toEqual([
      '/api/v1/user_memory/?user_preference_name=default&source_chat_id=c1',
      '/api/v1/user_memory/?user_preference_name=default&source_chat_id=',
    ]);
    expect(api.calls[0].headers.get('authorization')).toBe('Bearer tok');
  });

  it('sends edits, confirmations, removals and the undo to their paths', async () => {
    const api = mockFetch({
      'PUT /api/v1/user_memory/a': ({ body }) => json(200, memory('a', JSON.parse(body ?? '{}'))),
      'DELETE /api/v1/user_memory/a': new Response(null, { status: 204 }),
      'POST /api/v1/user_memory/a/restore': json(200, memory('a')),
    });
    await expect(updateMemory('a', { text: 'Lives in Porto' })).resolves.toMatchObject({ text: 'Lives in Porto' });
    await expect(updateMemory('a', { is_confirmed: true })).resolves.toMatchObject({ is_confirmed: true });
    await expect(deleteMemory('a')).resolves.toBeUndefined();
    await expect(restoreMemory('a')).resolves.toMatchObject({ user_memory_id: 'a' });
    expect(api.calls.map((c) => `${c.method} ${c.url} ${c.body ?? ''}`)).toEqual([
      'PUT /api/v1/user_memory/a {"text":"Lives in Porto"}',
      'PUT /api/v1/user_memory/a {"is_confirmed":true}',
      'DELETE /api/v1/user_memory/a ',
      'POST /api/v1/user_memory/a/restore {}',
    ]);
  });

  it('throws the spec’s texts on other failures, whatever the detail', async () => {
    mockFetch({
      'GET /api/v1/user_memory/': json(500, { detail: 'boom' }),
      'PUT /api/v1/user_memory/a': json(422, { detail: 'text: must not be empty' }),
      'DELETE /api/v1/user_memory/a': json(404, { detail: 'Memory not found' }),
    });
    await expect(fetchMemories()).rejects.toThrow(/^Failed to fetch user memory$/);
    await expect(updateMemory('a', { text: ' ' })).rejects.toThrow(/^Failed to update user memory$/);
    await expect(deleteMemory('a')).rejects.toThrow(/^Failed to delete user memory$/);
  });

  it('without a login: every memory call throws Not authenticated, and nothing is asked', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null, user: null });
    const api = mockFetch({});
    await expect(fetchMemories()).rejects.toThrow('Not authenticated');
    await expect(updateMemory('a', { is_confirmed: true })).rejects.toThrow('Not authenticated');
    await expect(deleteMemory('a')).rejects.toThrow('Not authenticated');
    await expect(restoreMemory('a')).rejects.toThrow('Not authenticated');
    authStore.set({ isLoggedIn: true, accessToken: null, user: registeredUser });
    await expect(fetchMemories()).rejects.toThrow('Not authenticated');
    expect(api.calls).toHaveLength(0);
  });

  it('a 401 logs out: the list answers empty, an update or delete throws Unauthorized', async () => {
    const api = mockFetch({
      'GET /api/v1/user_memory/': json(401, { detail: 'Not authenticated' }),
      'POST /api/v1/auth/logout': json(200, {}),
      'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'csrf' }),
    });
    await expect(fetchMemories()).resolves.toEqual([]);
    expect(authStore.get()).toMatchObject({ isLoggedIn: false, accessToken: null, user: null });
    expect(api.called('POST /api/v1/auth/logout')).toHaveLength(1);

    signedIn();
    mockFetch({
      'PUT /api/v1/user_memory/a': json(401, {}),
      'DELETE /api/v1/user_memory/a': json(401, {}),
      'POST /api/v1/auth/logout': json(200, {}),
      'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'c' }),
    });
    await expect(updateMemory('a', { is_confirmed: true })).rejects.toThrow(/^Unauthorized$/);
    expect(authStore.get().isLoggedIn).toBe(false);
    signedIn();
    await expect(deleteMemory('a')).rejects.toThrow(/^Unauthorized$/);
    expect(authStore.get().isLoggedIn).toBe(false);
  });
});
