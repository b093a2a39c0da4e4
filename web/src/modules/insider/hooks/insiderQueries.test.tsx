import type { QueryClient } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { testQueryClient, withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { authStore } from '../../auth/state/authStore';
import { DEFAULT_FLAGS, effectiveFlags, FORBIDDEN_FLAGS } from '../utils/flags';
import { insiderKeys, loadInsider, useEffectiveFlags } from './insiderQueries';
import { useInsiderSettings } from './useInsiderSettings';

const FLAGS = {
  dislike_button_verbose_feedback: true,
  show_rewritten_user_message: false,
  show_auto_model_selection: true,
  enable_ko_search: null,
  can_create_invite: true,
};
const STATUS = 'GET /api/v1/user_config/insider-mode';
const READ_FLAGS = 'GET /api/v1/user_config/insider-mode/insider-flags';
const ME = 'u-ada';

let client: QueryClient;
/** The insider state held for the user, as the screens read it. */
const insiderState = () => ({ status: client.getQueryData(insiderKeys.status(ME)), flags: client.getQueryData(insiderKeys.flags(ME)) });
const settle = () => act(() => vi.waitFor(() => expect(client.isFetching() + client.isMutating()).toBe(0)));
function mountSettings() {
  const { wrapper } = withQueryClient(client);
  return renderHook(() => useInsiderSettings(), { wrapper });
}

describe('insider mode and flags', () => {
  beforeEach(() => {
    client = testQueryClient();
    signedIn();
  });

  it('effective flags: enabled insiders get them as stored; otherwise only can_create_invite survives', () => {
    expect(effectiveFlags({ is_insider: true, is_insider_enabled: true }, FLAGS)).toEqual(FLAGS);
    expect(effectiveFlags({ is_insider: true, is_insider_enabled: false }, FLAGS)).toEqual({ ...DEFAULT_FLAGS, can_create_invite: true });
    expect(DEFAULT_FLAGS).toEqual({
      dislike_button_verbose_feedback: null,
      show_rewritten_user_message: null,
      show_auto_model_selection: null,
      enable_ko_search: null,
      can_create_invite: false,
    });
  });

  it('fetches the flags only for an insider with insider mode enabled', async () => {
    let api = mockFetch({ [STATUS]: json(200, { is_insider: true, is_insider_enabled: false }) });
    await loadInsider(client, ME);
    expect(api.called(READ_FLAGS)).toHaveLength(0);
    api = mockFetch({ [STATUS]: json(200, { is_insider: true, is_insider_enabled: true }), [READ_FLAGS]: json(200, FLAGS) });
    await loadInsider(client, ME);
    expect(api.called(READ_FLAGS)).toHaveLength(1);
    expect(insiderState().flags).toEqual(FLAGS);
  });

  it('the screens read the flags in force, without asking again', async () => {
    const api = mockFetch({ [STATUS]: json(200, { is_insider: true, is_insider_enabled: true }), [READ_FLAGS]: json(200, FLAGS) });
    await loadInsider(client, ME);
    const { wrapper } = withQueryClient(client);
    const { result } = renderHook(() => useEffectiveFlags(), { wrapper });
    expect(result.current).toEqual(FLAGS);
    client.setQueryData(insiderKeys.status(ME), { is_insider: true, is_insider_enabled: false });
    await settle();
    expect(result.current).toEqual({ ...DEFAULT_FLAGS, can_create_invite: true });
    expect(api.calls).toHaveLength(2);
  });

  it('in settings, reads the invite right of an insider whose insider mode is off', async () => {
    const api = mockFetch({
      [STATUS]: json(200, { is_insider: true, is_insider_enabled: false }),
      [READ_FLAGS]: json(200, { ...DEFAULT_FLAGS, can_create_invite: true }),
    });
    const { result } = mountSettings();
    await settle();
    expect(api.called(READ_FLAGS)).toHaveLength(1);
    const { status, flags } = result.current;
    expect(effectiveFlags(status, flags).can_create_invite).toBe(true);
  });

  it('maps a 403 on the flags read to no flags at all', async () => {
    mockFetch({ [STATUS]: json(200, { is_insider: true, is_insider_enabled: true }), [READ_FLAGS]: json(403, { detail: 'no' }) });
    await loadInsider(client, ME);
    expect(insiderState().flags).toEqual(FORBIDDEN_FLAGS);
    expect(FORBIDDEN_FLAGS.can_create_invite).toBeNull();
  });

  it('skips the calls without a token and keeps the defaults', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null });
    const api = mockFetch({});
    await loadInsider(client, ME);
    const { result } = mountSettings();
    expect(api.calls).toHaveLength(0);
    expect(result.current.status).toEqual({ is_insider: false, is_insider_enabled: false });
  });

  it('says so when the server has no insider configuration (404)', async () => {
    mockFetch({});
    const { result } = mountSettings();
    await settle();
    expect(result.current).toMatchObject({ unavailable: true, status: { is_insider: false } });
  });

  it('the switch is optimistic, replaced by the server, and reverted to the opposite of the request on failure', async () => {
    client.setQueryData(insiderKeys.status(ME), { is_insider: true, is_insider_enabled: false });
    let release: (r: Response) => void = () => undefined;
    mockFetch({ [STATUS]: json(200, { is_insider: true, is_insider_enabled: false }), [READ_FLAGS]: json(200, FLAGS) });
    const { result } = mountSettings();
    await settle();
    mockFetch({
      'POST /api/v1/user_config/insider-mode': () => new Promise<Response>((resolve) => (release = resolve)),
      [READ_FLAGS]: json(200, FLAGS),
    });
    let switching!: Promise<unknown>;
    act(() => {
      switching = result.current.setEnabled(true);
    });
    await act(() => vi.waitFor(() => expect(result.current.status.is_insider_enabled).toBe(true)));
    expect(result.current.loading).toBe(true);
    release(json(200, { is_insider: true, is_insider_enabled: true }));
    await act(() => switching);
    expect(result.current.loading).toBe(false);

    mockFetch({ 'POST /api/v1/user_config/insider-mode': json(500, { detail: 'boom' }) });
    await act(() => expect(result.current.setEnabled(false)).rejects.toThrow('boom'));
    expect(result.current.status.is_insider_enabled).toBe(true);
    expect(result.current.error).toContain('boom');
  });

  it('after the switch turns insider mode on, the flags are read again before the loading indicator goes', async () => {
    client.setQueryData(insiderKeys.status(ME), { is_insider: true, is_insider_enabled: false });
    mockFetch({ [STATUS]: json(200, { is_insider: true, is_insider_enabled: false }), [READ_FLAGS]: json(200, DEFAULT_FLAGS) });
    const { result } = mountSettings();
    await settle();
    let release: (r: Response) => void = () => undefined;
    const api = mockFetch({
      'POST /api/v1/user_config/insider-mode': json(200, { is_insider: true, is_insider_enabled: true }),
      [READ_FLAGS]: () => new Promise<Response>((resolve) => (release = resolve)),
    });
    let switching!: Promise<unknown>;
    act(() => {
      switching = result.current.setEnabled(true);
    });
    await act(() => vi.waitFor(() => expect(api.called(READ_FLAGS)).toHaveLength(1)));
    expect(result.current.loading).toBe(true);
    release(json(200, FLAGS));
    await act(() => switching);
    expect(result.current).toMatchObject({ loading: false, flags: FLAGS });
  });

  it('a flag update merges optimistically, takes the server’s flags, and restores the previous ones on failure', async () => {
    client.setQueryData(insiderKeys.status(ME), { is_insider: true, is_insider_enabled: true });
    client.setQueryData(insiderKeys.flags(ME), FLAGS);
    mockFetch({ [STATUS]: json(200, { is_insider: true, is_insider_enabled: true }), [READ_FLAGS]: json(200, FLAGS) });
    const { result } = mountSettings();
    await settle();
    mockFetch({
      'POST /api/v1/user_config/insider-mode/insider-flags': ({ body }) =>
        json(200, { ...FLAGS, ...JSON.parse(body ?? '{}'), enable_ko_search: false }),
    });
    await act(() => result.current.updateFlags({ show_rewritten_user_message: true }));
    expect(result.current.flags).toEqual({ ...FLAGS, show_rewritten_user_message: true, enable_ko_search: false });
    const before = result.current.flags;
    mockFetch({ 'POST /api/v1/user_config/insider-mode/insider-flags': json(400, { detail: 'bad flag' }) });
    await act(() => expect(result.current.updateFlags({ dislike_button_verbose_feedback: false })).rejects.toThrow('bad flag'));
    expect(result.current.flags).toEqual(before);
    expect(result.current.error).toBe('Could not save the flag: bad flag');
  });
});
