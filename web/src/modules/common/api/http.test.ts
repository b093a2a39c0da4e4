import { beforeEach, describe, expect, it } from 'vitest';
import { fetchConversations, fetchMessages, deleteConversation } from '../../chat/api/chatApi';
import { fetchCsrfToken } from '../../auth/api/authApi';
import { authStore } from '../../auth/state/authStore';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { API } from '@app/contracts/gateway';
import { ApiError, call } from './http';

describe('request headers (section 7)', () => {
  beforeEach(() => {
    signedIn({ user: { ...registeredUser, email: `${'x'.repeat(120)}@example.com` } });
  });

  it('carries the session id, user id, user label cut at 100 and a fresh request id on same-origin calls', async () => {
    sessionStorage.setItem('user_session_id', 'sess-1');
    const api = mockFetch({ 'GET /api/v1/version/commit': json(200, { commit: 'abc' }) });
    await call(API.version.commit, {});
    await call(API.version.commit, {});
    const [first, second] = api.calls;
    expect(first.headers.get('x-user-session-id')).toBe('sess-1');
    expect(first.headers.get('x-user-id')).toBe('u-ada');
    expect(first.headers.get('x-user-label')).toHaveLength(100);
    expect(first.headers.get('x-user-label')).toBe(`${'x'.repeat(100)}`);
    expect(first.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9-]{8,}$/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(first.headers.get('authorization')).toBe('Bearer tok');
  });

  it('stores the X-User-Session-Id an answer returns', async () => {
    sessionStorage.setItem('user_session_id', 'old');
    mockFetch({ 'GET /api/v1/auth/me': json(200, registeredUser, { 'x-user-session-id': 'new-session' }) });
    await call(API.auth.me, {});
    expect(sessionStorage.getItem('user_session_id')).toBe('new-session');
  });
});

describe('error texts (sections 5 and 8)', () => {
  beforeEach(() => {
    signedIn();
  });

  it('uses the detail of the answer, else API Error: {status}', async () => {
    mockFetch({
      'POST /api/v1/onboarding/done': json(409, { detail: 'Confirm your age and your name first.' }),
      'GET /api/v1/auth/me': new Response('oops', { status: 502 }),
    });
    await expect(call(API.onboarding.done, {})).rejects.toThrow('Confirm your age and your name first.');
    await expect(call(API.auth.me, {})).rejects.toThrow('API Error: 502');
  });

  it('a 401 logs out only the signed-in user’s calls: a public call’s is an ordinary failure', async () => {
    const api = mockFetch({
      'GET /api/v1/sms/service': json(401, { detail: 'Bad token' }),
      'GET /api/v1/chats/': json(401, {}),
      'POST /api/v1/auth/logout': json(200, {}),
      'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'c' }),
    });
    await expect(call(API.sms.service, {}, { public: true })).rejects.toEqual(new ApiError('Bad token', 401));
    expect(authStore.get().isLoggedIn).toBe(true);
    await expect(call(API.chat.list, {}, { orElse: [] })).resolves.toEqual([]);
    expect(authStore.get().isLoggedIn).toBe(false);
    expect(api.called('POST /api/v1/auth/logout')).toHaveLength(1);
  });

  it('throws the call’s own message on other failures', async () => {
    mockFetch({
      'GET /api/v1/chats/': json(500, { detail: 'x' }),
      'GET /api/v1/messages/all_user_messages': json(500, { detail: 'x' }),
      'DELETE /api/v1/chats/c1': json(500, { detail: 'x' }),
    });
    await expect(fetchConversations()).rejects.toThrow('Failed to fetch conversations');
    await expect(fetchMessages(['c1'])).rejects.toThrow('Failed to fetch messages');
    await expect(deleteConversation('c1')).rejects.toThrow('Failed to delete conversation');
  });

  it('without a login, lists answer empty and updates throw Not authenticated, with no request', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null, user: null });
    const api = mockFetch({});
    await expect(call(API.chat.list, {}, { orElse: [] })).resolves.toEqual([]);
    await expect(call(API.reminders.list, {}, { orElse: false })).resolves.toBe(false);
    await expect(call(API.chat.remove, { params: { chat_id: 'c1' } })).rejects.toThrow(/^Not authenticated$/);
    expect(api.calls).toHaveLength(0);
    // Public calls (the sign-in, the public pages) need no login.
    mockFetch({ 'GET /api/v1/sms/service': json(200, { enabled: false }) });
    await expect(call(API.sms.service, {}, { public: true })).resolves.toEqual({ enabled: false });
  });

  it('drops hidden messages and asks for the conversations by id', async () => {
    const message = (id: string, hidden: boolean) => ({
      message_id: id,
      chat_id: 'c1',
      content: id,
      sender: 'user',
      author_user_id: null,
      expert_id: null,
      expert_name: null,
      feedback: null,
      hidden,
      previous_message_id: null,
      metadata: {},
      created_at: '2025-01-01T00:00:00Z',
    });
    const api = mockFetch({ 'GET /api/v1/messages/all_user_messages': json(200, [message('m1', false), message('m2', true)]) });
    const messages = await fetchMessages(['c1', 'c2']);
    expect(messages.map((m) => m.message_id)).toEqual(['m1']);
    expect(api.calls[0].url).toBe('/api/v1/messages/all_user_messages?chat_ids=c1%2Cc2');
  });

  it('says Failed to fetch CSRF token when the token cannot be read', async () => {
    mockFetch({ 'GET /api/v1/auth/csrf-token': json(200, { csrf_token: 'x' }) }); // no header
    await expect(fetchCsrfToken()).rejects.toThrow('Failed to fetch CSRF token');
    mockFetch({ 'GET /api/v1/auth/csrf-token': json(200, {}, { 'x-csrf-token': 'tok-1' }) });
    await expect(fetchCsrfToken()).resolves.toBe('tok-1');
  });
});
