import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch, registeredUser } from '../test/fetchMock';
import { authStore } from '../modules/auth/state/authStore';
import { startLoginState } from '../modules/auth/utils/loginState';
import { LoginSuccessPage } from './LoginSuccessPage';

/** The browser arrives on /login-success with this fragment (the server's redirect, or a crafted link). */
function arrive(fragment: string) {
  window.history.replaceState(null, '', `/login-success#${fragment}`);
  const router = createMemoryRouter(
    [
      { path: '/login-success', element: <LoginSuccessPage /> },
      { path: '/chat', element: <p>chat</p> },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: ['/login-success'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('/login-success', () => {
  beforeEach(() => {
    authStore.reset();
    localStorage.setItem('access_token', 'guest-token');
    authStore.set({ isLoading: false, accessToken: 'guest-token' });
  });

  const api = () => mockFetch({ 'GET /api/v1/auth/me': () => json(200, registeredUser) });

  it('refuses a token this browser did not ask for: nothing stored, the fragment cleared, a way back to sign in', async () => {
    const calls = api();
    arrive('access_token=someone-elses-token');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('This sign-in link was not started in this browser. Sign in again here.');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
    expect(window.location.hash).toBe('');
    expect(localStorage.getItem('access_token')).toBe('guest-token');
    expect(authStore.get().accessToken).toBe('guest-token');
    // Start-up, left to this page, now checks the stored guest; the refused token is never sent.
    await waitFor(() => expect(calls.called('GET /api/v1/auth/me')).toHaveLength(1));
    expect(calls.called('GET /api/v1/auth/me')[0].headers.get('authorization')).toBe('Bearer guest-token');
    expect(calls.calls.some((c) => c.headers.get('authorization') === 'Bearer someone-elses-token')).toBe(false);
    await waitFor(() => expect(authStore.get().isLoading).toBe(false));
  });

  it('refuses a token whose login_state is not this tab’s nonce', async () => {
    const calls = api();
    const mine = startLoginState();
    arrive(`access_token=someone-elses-token&login_state=${'A'.repeat(mine.length)}`);
    await screen.findByRole('alert');
    expect(localStorage.getItem('access_token')).toBe('guest-token');
    expect(calls.calls.some((c) => c.headers.get('authorization') === 'Bearer someone-elses-token')).toBe(false);
    // The sign-in this tab started can still finish.
    expect(sessionStorage.getItem('login_state')).toBe(mine);
  });

  it('accepts the token that answers this tab’s sign-in, and forgets the nonce and the number', async () => {
    api();
    const state = startLoginState();
    sessionStorage.setItem('login_phone_number', JSON.stringify({ phoneNumber: '+14155550100', campaignName: null }));
    const router = arrive(`access_token=my-token&login_state=${state}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/chat'));
    expect(window.location.hash).toBe('');
    expect(localStorage.getItem('access_token')).toBe('my-token');
    expect(authStore.get().user?.user_id).toBe(registeredUser.user_id);
    expect(sessionStorage.getItem('login_state')).toBeNull();
    expect(sessionStorage.getItem('login_phone_number')).toBeNull();
  });
});
