import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { guestUser } from '../../../test/fetchMock';
import { signedIn, signedInAsGuest } from '../../../test/session';
import { WelcomeDialog } from '../components/WelcomeDialog';
import { authStore } from './authStore';
import { isWelcomeExcludedPath, resetFirstTimeModal, shouldShowFirstTimeModal } from './firstTimeModal';

describe('first-time modal (sections 2 and 4)', () => {
  beforeEach(() => authStore.reset());

  it('is for guests only, once, and never on the excluded paths', () => {
    expect(shouldShowFirstTimeModal('anonymous', '/chat')).toBe(true);
    expect(shouldShowFirstTimeModal('registered', '/chat')).toBe(false);
    expect(shouldShowFirstTimeModal('logged-out', '/chat')).toBe(false);
    for (const path of ['/terms', '/privacy', '/text', '/about', '/group-search/invite/abc', '/kba/spring', '/kba/login/spring']) {
      expect(isWelcomeExcludedPath(path)).toBe(true);
      expect(shouldShowFirstTimeModal('anonymous', path)).toBe(false);
    }
    expect(isWelcomeExcludedPath('/group-search/channel-1')).toBe(false);
  });

  it('shows the dialog once, sets the flag, and shows it again after the flag is removed', () => {
    signedInAsGuest();
    const first = render(
      <MemoryRouter initialEntries={['/chat']}>
        <WelcomeDialog />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Welcome to Assistant' })).toBeTruthy();
    expect(localStorage.getItem('firstTimeModalShown')).toBe('true');
    first.unmount();

    const second = render(
      <MemoryRouter initialEntries={['/chat']}>
        <WelcomeDialog />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('heading', { name: 'Welcome to Assistant' })).toBeNull();
    second.unmount();

    resetFirstTimeModal();
    expect(localStorage.getItem('firstTimeModalShown')).toBeNull();
    render(
      <MemoryRouter initialEntries={['/chat']}>
        <WelcomeDialog />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Welcome to Assistant' })).toBeTruthy();
  });

  it('waits on an excluded path and for a registered user shows nothing', () => {
    signedIn();
    render(
      <MemoryRouter initialEntries={['/chat']}>
        <WelcomeDialog />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('heading', { name: 'Welcome to Assistant' })).toBeNull();
    act(() => authStore.set({ user: guestUser }));
    expect(screen.getByRole('heading', { name: 'Welcome to Assistant' })).toBeTruthy();
  });
});
