import { beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteConversation, fetchConversations } from '../../chat/api/chatApi';
import { guestUser, json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { authStatusOf, authStore, completesSignIn, loginWithToken, logout, onLogin, startAuth } from './authStore';

const me = (user: object) => () => json(200, user);

describe('auth start-up (section 4)', () => {
  beforeEach(() => authStore.reset());

  it('with no stored token, creates a guest, stores its token and validates it', async () => {
    const api = mockFetch({
      'POST /api/v1/auth/anon': json(200, { token: 'guest-token', error: null, redirect_url: null }),
      'GET /api/v1/auth/me': me(guestUser),
    });
    const started = startAuth();
    expect(authStore.get().isLoading).toBe(true);
    await started;
    expect(localStorage.getItem('access_token')).toBe('guest-token');
    expect(api.called('GET /api/v1/auth/me')[0].headers.get('authorization')).toBe('Bearer guest-token');
    expect(authStore.get()).toMatchObject({ isLoading: false, isLoggedIn: true, accessToken: 'guest-token', user: guestUser });
    expect(authStatusOf(authStore.get())).toBe('anonymous');
  });

  it('with a stored token, validates it and creates no guest', async () => {
    localStorage.setItem('access_token', 'kept');
    const api = mockFetch({ 'GET /api/v1/auth/me': me(registeredUser) });
    await startAuth();
    expect(api.called('POST /api/v1/auth/anon')).toHaveLength(0);
    expect(authStatusOf(authStore.get())).toBe('registered');
    expect(localStorage.getItem('last_logged_in_email')).toBe('ada@example.com');
  });

  it('falls back to a new guest when the stored token is refused', async () => {
    localStorage.setItem('access_token', 'expired');
    mockFetch({
      'GET /api/v1/auth/me': ({ headers }) =>
        headers.get('authorization') === 'Bearer expired'
          ? json(401, { detail: 'Your session has ended. Please sign in again.' })
          : json(200, guestUser),
      'POST /api/v1/auth/anon': json(200, { token: 'fresh-guest', error: null, redirect_url: null }),
    });
    await startAuth();
    expect(localStorage.getItem('access_token')).toBe('fresh-guest');
    expect(authStatusOf(authStore.get())).toBe('anonymous');
  });

  it('keeps a stored token the server cannot be asked about (offline, 5xx): no new guest, checked again once back online', async () => {
    localStorage.setItem('access_token', 'guest-with-history');
    let reachable = false;
    let failures = 0;
    const api = mockFetch({
      'GET /api/v1/auth/me': () => {
        if (reachable) return json(200, guestUser);
        failures++;
        if (failures % 2) throw new TypeError('Failed to fetch');
        return json(503, { detail: 'Restarting' });
      },
      'POST /api/v1/auth/anon': json(200, { token: 'another-guest', error: null, redirect_url: null }),
    });
    const started = startAuth();
    await vi.waitFor(() => expect(authStore.get().unreachable).toBe(true));
    expect(authStore.get()).toMatchObject({ isLoading: true, isLoggedIn: false });
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(failures).toBeGreaterThanOrEqual(2));
    expect(localStorage.getItem('access_token')).toBe('guest-with-history');
    reachable = true;
    window.dispatchEvent(new Event('online'));
    await started;
    expect(api.called('POST /api/v1/auth/anon')).toHaveLength(0);
    expect(localStorage.getItem('access_token')).toBe('guest-with-history');
    expect(authStore.get()).toMatchObject({ isLoading: false, isLoggedIn: true, unreachable: false, accessToken: 'guest-with-history' });
  });

  it('is logged out with no user when the guest cannot be created either', async () => {
    localStorage.setItem('access_token', 'expired');
    mockFetch({ 'GET /api/v1/auth/me': json(401, { detail: 'no' }), 'POST /api/v1/auth/anon': json(503, { detail: 'down' }) });
    await startAuth();
    expect(authStore.get()).toMatchObject({ isLoading: false, isLoggedIn: false, user: null });
    expect(authStatusOf(authStore.get())).toBe('logged-out');
    expect(console.error).toHaveBeenCalledWith('Failed to create an anonymous user', expect.anything());
  });

  it('fetches what follows a login (CSRF token, session id) and tells the listeners', async () => {
    const listener = vi.fn();
    const off = onLogin(listener);
    const api = mockFetch({
      'POST /api/v1/auth/anon': json(200, { token: 't', error: null, redirect_url: null }),
      'GET /api/v1/auth/me': me(guestUser),
      'GET /api/v1/auth/csrf-token': json(200, { csrf_token: 'c' }, { 'x-csrf-token': 'csrf-1' }),
      'GET /api/v1/auth/session-id': json(200, { session_id: 'sess-1' }),
    });
    await startAuth();
    await vi.waitFor(() => expect(sessionStorage.getItem('user_session_id')).toBe('sess-1'));
    expect(authStore.get().csrfToken).toBe('csrf-1');
    expect(listener).toHaveBeenCalledWith(guestUser);
    expect(api.called('GET /api/v1/auth/csrf-token')).toHaveLength(1);
    off();
  });
});

describe('start-up and a sign-in completing at the same time (issue 22.1)', () => {
  beforeEach(() => authStore.reset());

  it('knows a page load that completes a sign-in: /login-success with a token in its fragment', () => {
    expect(completesSignIn({ pathname: '/login-success', hash: '#access_token=t&login_state=s' })).toBe(true);
    expect(completesSignIn({ pathname: '/login-success', hash: '' })).toBe(false);
    expect(completesSignIn({ pathname: '/chat', hash: '#access_token=t' })).toBe(false);
  });

  it('leaves a page that completes a sign-in to it: no call, no guest, loading until the sign-in', async () => {
    localStorage.setItem('access_token', 'ended-guest');
    const api = mockFetch({ 'GET /api/v1/auth/me': me(registeredUser) });
    await startAuth({ completingSignIn: true });
    expect(api.calls).toHaveLength(0);
    expect(authStatusOf(authStore.get())).toBe('loading');
    await loginWithToken('account-token');
    expect(authStatusOf(authStore.get())).toBe('registered');
    expect(api.called('POST /api/v1/auth/anon')).toHaveLength(0);
  });

  it('gives way to a sign-in that starts while it checks the ended guest: no new guest, the account kept', async () => {
    localStorage.setItem('access_token', 'ended-guest');
    let refuseGuest!: () => void;
    const guestRefused = new Promise<void>((resolve) => (refuseGuest = resolve));
    const api = mockFetch({
      'GET /api/v1/auth/me': async ({ headers }) => {
        if (headers.get('authorization') === 'Bearer ended-guest') {
          await guestRefused; // answered only after the sign-in completed
          return json(401, { detail: 'Your session has ended. Please sign in again.' });
        }
        return json(200, registeredUser);
      },
      'POST /api/v1/auth/anon': json(200, { token: 'spare-guest', error: null, redirect_url: null }),
    });
    const started = startAuth();
    await loginWithToken('account-token');
    refuseGuest();
    await started;
    expect(api.called('POST /api/v1/auth/anon')).toHaveLength(0);
    expect(localStorage.getItem('access_token')).toBe('account-token');
    expect(authStore.get()).toMatchObject({ isLoading: false, isLoggedIn: true, accessToken: 'account-token', user: registeredUser });
  });
});

describe('logout and 401 (sections 4 and 8)', () => {
  beforeEach(() => {
    authStore.reset();
    localStorage.setItem('access_token', 'tok');
    localStorage.setItem('last_logged_in_email', 'ada@example.com');
    authStore.set({
      isLoading: false,
      isLoggedIn: true,
      accessToken: 'tok',
      user: registeredUser,
      csrfToken: 'csrf',
      lastLoggedInEmail: 'ada@example.com',
    });
  });

  it('calls the server first (with the CSRF token and the bearer), then clears token, e-mail, user, flag and CSRF token', async () => {
    let tokenAtServerCall: string | null = 'unset';
    const api = mockFetch({
      'POST /api/v1/auth/logout': () => {
        tokenAtServerCall = localStorage.getItem('access_token');
        return json(200, { logged_out: true });
      },
    });
    await logout();
    const call = api.called('POST /api/v1/auth/logout')[0];
    expect(call.headers.get('x-csrf-token')).toBe('csrf');
    expect(call.headers.get('authorization')).toBe('Bearer tok');
    expect(tokenAtServerCall).toBe('tok');
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('last_logged_in_email')).toBeNull();
    expect(authStore.get()).toMatchObject({ user: null, isLoggedIn: false, csrfToken: null, accessToken: null });
  });

  it('still logs out locally when the server call fails, and says so in the console', async () => {
    mockFetch({ 'POST /api/v1/auth/logout': json(500, { detail: 'boom' }) });
    await logout();
    expect(authStore.get().isLoggedIn).toBe(false);
    expect(console.error).toHaveBeenCalledWith('Failed to log out on the server', expect.anything());
  });

  it('logs out on a 401 from a data call: a read answers empty, an update throws Unauthorized', async () => {
    const api = mockFetch({
      'GET /api/v1/chats/': json(401, { detail: 'ended' }),
      'POST /api/v1/auth/logout': json(200, { logged_out: true }),
    });
    await expect(fetchConversations()).resolves.toEqual([]);
    expect(api.called('POST /api/v1/auth/logout')).toHaveLength(1);
    expect(authStore.get().isLoggedIn).toBe(false);

    authStore.set({ isLoggedIn: true, accessToken: 'tok', user: registeredUser });
    mockFetch({ 'DELETE /api/v1/chats/c1': json(401, { detail: 'ended' }), 'POST /api/v1/auth/logout': json(200, { logged_out: true }) });
    await expect(deleteConversation('c1')).rejects.toThrow(/^Unauthorized$/);
    expect(authStore.get().isLoggedIn).toBe(false);
  });
});
