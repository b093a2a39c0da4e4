import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../auth/state/authStore';
import { ConnectionNotice } from './ConnectionNotice';

describe('ConnectionNotice', () => {
  let online = true;
  beforeEach(() => {
    authStore.reset();
    online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  const goes = (now: boolean) =>
    act(() => {
      online = now;
      window.dispatchEvent(new Event(now ? 'online' : 'offline'));
    });

  it('says nothing while connected, that the browser is offline while it is, and goes when it is back', () => {
    render(<ConnectionNotice />);
    expect(screen.queryByRole('status')).toBeNull();
    goes(false);
    expect(screen.getByRole('status').textContent).toMatch(/^You are offline\./);
    goes(true);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says the session is kept while start-up cannot reach the server', () => {
    render(<ConnectionNotice />);
    act(() => authStore.set({ unreachable: true }));
    expect(screen.getByRole('status').textContent).toContain('Your session is kept');
    act(() => authStore.set({ unreachable: false }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
