import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { authStore } from '../../auth/state/authStore';
import { DEFAULT_FLAGS, effectiveFlags, FORBIDDEN_FLAGS, insiderStore, loadInsider, loadInsiderForSettings, setInsiderEnabled, updateFlags } from './insiderStore';

const FLAGS = { dislike_button_verbose_feedback: true, show_rewritten_user_message: false, show_auto_model_selection: true, enable_ko_search: null, can_create_invite: true };

describe('insider mode and flags (sections 4 and 6)', () => {
  beforeEach(() => {
    insiderStore.reset();
    authStore.reset();
    authStore.set({ isLoading: false, isLoggedIn: true, accessToken: 'tok', user: registeredUser });
  });

  it('effective flags: enabled insiders get them as stored; otherwise only can_create_invite survives', () => {
    expect(effectiveFlags({ is_insider: true, is_insider_enabled: true }, FLAGS)).toEqual(FLAGS);
    expect(effectiveFlags({ is_insider: true, is_insider_enabled: false }, FLAGS)).toEqual({ ...DEFAULT_FLAGS, can_create_invite: true });
    expect(DEFAULT_FLAGS).toEqual({ dislike_button_verbose_feedback: null, show_rewritten_user_message: null, show_auto_model_selection: null, enable_ko_search: null, can_create_invite: false });
  });

  it('fetches the flags only for an insider with insider mode enabled', async () => {
    let api = mockFetch({ 'GET /api/v1/user_config/insider-mode': json(200, { is_insider: true, is_insider_enabled: false }) });
    await loadInsider();
    expect(api.called('GET /api/v1/user_config/insider-mode/insider-flags')).toHaveLength(0);
    api = mockFetch({ 'GET /api/v1/user_config/insider-mode': json(200, { is_insider: true, is_insider_enabled: true }), 'GET /api/v1/user_config/insider-mode/insider-flags': json(200, FLAGS) });
    await loadInsider();
    expect(api.called('GET /api/v1/user_config/insider-mode/insider-flags')).toHaveLength(1);
    expect(insiderStore.get().flags).toEqual(FLAGS);
  });

  it('in settings, reads the invite right of an insider whose insider mode is off (section 6)', async () => {
    const api = mockFetch({
      'GET /api/v1/user_config/insider-mode': json(200, { is_insider: true, is_insider_enabled: false }),
      'GET /api/v1/user_config/insider-mode/insider-flags': json(200, { ...DEFAULT_FLAGS, can_create_invite: true }),
    });
    await loadInsiderForSettings();
    expect(api.called('GET /api/v1/user_config/insider-mode/insider-flags')).toHaveLength(1);
    const { status, flags } = insiderStore.get();
    expect(effectiveFlags(status, flags).can_create_invite).toBe(true);
  });

  it('maps a 403 on the flags read to no flags at all', async () => {
    mockFetch({ 'GET /api/v1/user_config/insider-mode': json(200, { is_insider: true, is_insider_enabled: true }), 'GET /api/v1/user_config/insider-mode/insider-flags': json(403, { detail: 'no' }) });
    await loadInsider();
    expect(insiderStore.get().flags).toEqual(FORBIDDEN_FLAGS);
    expect(FORBIDDEN_FLAGS.can_create_invite).toBeNull();
  });

  it('skips the calls without a token and keeps the defaults', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null });
    const api = mockFetch({});
    await loadInsider();
    expect(api.calls).toHaveLength(0);
    expect(insiderStore.get().status).toEqual({ is_insider: false, is_insider_enabled: false });
  });

  it('the switch is optimistic, replaced by the server, and reverted to the opposite of the request on failure', async () => {
    insiderStore.set({ status: { is_insider: true, is_insider_enabled: false } });
    let release: (r: Response) => void = () => undefined;
    mockFetch({ 'POST /api/v1/user_config/insider-mode': () => new Promise<Response>((resolve) => (release = resolve)), 'GET /api/v1/user_config/insider-mode/insider-flags': json(200, FLAGS) });
    const switching = setInsiderEnabled(true);
    expect(insiderStore.get().status.is_insider_enabled).toBe(true);
    expect(insiderStore.get().loading).toBe(true);
    release(json(200, { is_insider: true, is_insider_enabled: true }));
    await switching;
    expect(insiderStore.get().loading).toBe(false);

    mockFetch({ 'POST /api/v1/user_config/insider-mode': json(500, { detail: 'boom' }) });
    await expect(setInsiderEnabled(false)).rejects.toThrow('boom');
    expect(insiderStore.get().status.is_insider_enabled).toBe(true);
    expect(insiderStore.get().error).toContain('boom');
  });

  it('a flag update merges optimistically, takes the server’s flags, and restores the previous ones on failure', async () => {
    insiderStore.set({ flags: FLAGS });
    mockFetch({ 'POST /api/v1/user_config/insider-mode/insider-flags': ({ body }) => json(200, { ...FLAGS, ...JSON.parse(body ?? '{}'), enable_ko_search: false }) });
    await updateFlags({ show_rewritten_user_message: true });
    expect(insiderStore.get().flags).toEqual({ ...FLAGS, show_rewritten_user_message: true, enable_ko_search: false });
    const before = insiderStore.get().flags;
    mockFetch({ 'POST /api/v1/user_config/insider-mode/insider-flags': json(400, { detail: 'bad flag' }) });
    await expect(updateFlags({ dislike_button_verbose_feedback: false })).rejects.toThrow('bad flag');
    expect(insiderStore.get().flags).toEqual(before);
  });
});
