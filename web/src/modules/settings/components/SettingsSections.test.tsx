import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { toastStore } from '../../../ui/toastStore';
import { authStore } from '../../auth/state/authStore';
import { DataSection } from './DataSection';
import { ProfileSection } from './ProfileSection';

function show(element: ReactNode) {
  const router = createMemoryRouter(
    [
      { path: '/settings', element },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: ['/settings'] },
  );
  render(<RouterProvider router={router} />, withQueryClient());
  return router;
}
const toasts = () => toastStore.get().toasts.map((t) => `${t.tone}: ${t.text}`);

describe('the settings sections', () => {
  beforeEach(() => {
    toastStore.reset();
    signedIn({ csrfToken: 'c' });
  });

  it('saves the name only when it changed, and says so either way', async () => {
    const api = mockFetch({ 'POST /api/v1/onboarding/profile': json(200, { ...registeredUser, name: 'Ada King' }) });
    show(<ProfileSection registered />);
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Ada King');
    await user.click(save);
    await waitFor(() => expect(toasts()).toEqual(['success: Your name was saved.']));
    expect(authStore.get().user?.name).toBe('Ada King');
    expect(api.calls).toHaveLength(1);

    mockFetch({ 'POST /api/v1/onboarding/profile': json(422, { detail: 'name: too long' }) });
    await user.type(screen.getByLabelText('Name'), 'x');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts()).toContain('error: name: too long'));
  });

  it('deletes the account only once DELETE is typed; a refusal stays in the dialog, a success logs out to /login', async () => {
    mockFetch({ 'DELETE /api/v1/users/me': json(503, { detail: 'Try again in a minute.' }) });
    const router = show(<DataSection />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    const confirm = screen.getByRole('button', { name: 'Delete my account' });
    expect(confirm).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText(/to confirm/), 'DELETE');
    await user.click(confirm);
    expect((await screen.findByRole('alert')).textContent).toBe('Try again in a minute.');

    mockFetch({
      'DELETE /api/v1/users/me': new Response(null, { status: 204 }),
      'POST /api/v1/auth/logout': json(200, {}),
    });
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ notice: 'Your account and all its data have been deleted.' });
    expect(authStore.get()).toMatchObject({ isLoggedIn: false, accessToken: null });
    expect(toasts()).toEqual(['success: Your account and all its data have been deleted.']);
  });
});
