import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { registeredUser } from '../test/fetchMock';
import { signedIn, signedInAsGuest } from '../test/session';
import { authStore } from '../modules/auth/state/authStore';
import { ErrorBoundary } from './ErrorBoundary';
import { RequireAccount, RequireChatAccess, RequireLogin, RequireOnboarding } from './guards';

function at(path: string) {
  const router = createMemoryRouter(
    [
      {
        path: '/chat',
        element: (
          <RequireChatAccess>
            <p>chat</p>
          </RequireChatAccess>
        ),
      },
      {
        path: '/settings',
        element: (
          <RequireLogin>
            <p>settings</p>
          </RequireLogin>
        ),
      },
      {
        path: '/new-user',
        element: (
          <RequireAccount>
            <p>new user</p>
          </RequireAccount>
        ),
      },
      {
        path: '/onboarding',
        element: (
          <RequireOnboarding>
            <p>onboarding</p>
          </RequireOnboarding>
        ),
      },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('route guards (section 2)', () => {
  beforeEach(() => authStore.reset());

  it('shows a placeholder while auth loads', () => {
    at('/new-user');
    expect(screen.getByRole('status')).toBeTruthy();
  });

  it('sends a logged-out visitor to /login from protected routes', () => {
    authStore.set({ isLoading: false });
    const router = at('/chat');
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?next=%2Fchat');
  });

  it('lets a guest chat and reach settings, but not the account pages', () => {
    signedInAsGuest();
    expect(at('/chat').state.location.pathname).toBe('/chat');
    expect(at('/settings').state.location.pathname).toBe('/settings');
    expect(at('/new-user').state.location.pathname).toBe('/login');
    expect(at('/onboarding').state.location.pathname).toBe('/login');
  });

  it('sends a signed-in user who is not registered from the chat to /new-user', () => {
    signedIn({ user: { ...registeredUser, onboarding_config: { registered: false, onboarding_done: false } } });
    expect(at('/chat').state.location.pathname).toBe('/new-user');
    expect(at('/onboarding').state.location.pathname).toBe('/onboarding');
  });

  it('sends an onboarded user from /onboarding to /chat', () => {
    signedIn();
    expect(at('/onboarding').state.location.pathname).toBe('/chat');
    expect(screen.getByText('chat')).toBeTruthy();
  });
});

describe('rendering failure', () => {
  it('shows Something went wrong', () => {
    const Broken = () => {
      throw new Error('broken');
    };
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain('Something went wrong');
  });
});
