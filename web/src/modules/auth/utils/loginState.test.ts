import { describe, expect, it } from 'vitest';
import { acceptLoginState, startLoginState } from './loginState';

describe('the sign-in nonce (login_state)', () => {
  it('is random, base64url, 16 to 128 characters, and kept in session storage', () => {
    const first = startLoginState();
    expect(first).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
    expect(sessionStorage.getItem('login_state')).toBe(first);
    const second = startLoginState();
    expect(second).not.toBe(first);
    expect(sessionStorage.getItem('login_state')).toBe(second);
  });

  it('accepts only the nonce this tab made, once', () => {
    expect(acceptLoginState('anything')).toBe(false);
    const state = startLoginState();
    expect(acceptLoginState(null)).toBe(false);
    expect(acceptLoginState('')).toBe(false);
    expect(acceptLoginState(`${state}x`)).toBe(false);
    // A refused one leaves the real sign-in free to finish.
    expect(sessionStorage.getItem('login_state')).toBe(state);
    expect(acceptLoginState(state)).toBe(true);
    expect(sessionStorage.getItem('login_state')).toBeNull();
    expect(acceptLoginState(state)).toBe(false);
  });
});
