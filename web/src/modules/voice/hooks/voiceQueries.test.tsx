import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { withQueryClient } from '../../../test/queryClient';
import { signedIn } from '../../../test/session';
import { authStore } from '../../auth/state/authStore';
import { useVoiceSettings } from './voiceQueries';

const CONFIG = { min_chars: 100, openai_model: 'gpt-4o-mini-tts', voice: 'alloy', speed: 1, auto_read_aloud: false };

function mountVoice() {
  const { client, wrapper } = withQueryClient();
  const hook = renderHook(() => useVoiceSettings(), { wrapper });
  const settle = () => act(() => vi.waitFor(() => expect(client.isFetching() + client.isMutating()).toBe(0)));
  return { ...hook, settle };
}

describe('AI voice settings', () => {
  beforeEach(() => {
    signedIn();
  });

  it('merges an update optimistically, takes the server’s config, and restores the previous one on failure', async () => {
    mockFetch({ 'GET /api/v1/user_config/ai-voice': json(200, CONFIG) });
    const { result, settle } = mountVoice();
    await settle();
    expect(result.current.config).toEqual(CONFIG);
    let release: (r: Response) => void = () => undefined;
    mockFetch({ 'POST /api/v1/user_config/ai-voice': () => new Promise<Response>((resolve) => (release = resolve)) });
    let saving!: Promise<unknown>;
    act(() => {
      saving = result.current.update({ voice: 'nova' });
    });
    await act(() => vi.waitFor(() => expect(result.current).toMatchObject({ config: { ...CONFIG, voice: 'nova' }, loading: true })));
    release(json(200, { ...CONFIG, voice: 'nova', speed: 1.25 }));
    await act(() => saving);
    expect(result.current).toMatchObject({ config: { ...CONFIG, voice: 'nova', speed: 1.25 }, loading: false });

    const before = result.current.config;
    mockFetch({ 'POST /api/v1/user_config/ai-voice': json(400, { detail: 'min_chars: Too big' }) });
    await act(() => expect(result.current.update({ min_chars: 99_999 })).rejects.toThrow('min_chars: Too big'));
    expect(result.current.config).toEqual(before);
    expect(result.current.error).toContain('min_chars: Too big');
  });

  it('keeps the loading indicator on while the config is read, not while the voice list is', async () => {
    let releaseVoices: (r: Response) => void = () => undefined;
    mockFetch({
      'GET /api/v1/user_config/ai-voice': json(200, CONFIG),
      'GET /api/v1/text-to-speech/voices': () => new Promise<Response>((resolve) => (releaseVoices = resolve)),
    });
    const { result } = mountVoice();
    expect(result.current.loading).toBe(true);
    await act(() => vi.waitFor(() => expect(result.current.config).toEqual(CONFIG)));
    expect(result.current).toMatchObject({ loading: false, voices: null });
    releaseVoices(json(200, { alloy: {}, verse: {} }));
    await act(() => vi.waitFor(() => expect(result.current.voices).toEqual({ alloy: {}, verse: {} })));
  });

  it('asks nothing without a token', async () => {
    authStore.set({ isLoggedIn: false, accessToken: null });
    const api = mockFetch({});
    const { result } = mountVoice();
    expect(result.current).toMatchObject({ config: null, loading: false, unavailable: false });
    expect(api.calls).toHaveLength(0);
  });

  it('degrades when the endpoints are not there (404)', async () => {
    mockFetch({});
    const { result, settle } = mountVoice();
    await settle();
    expect(result.current).toMatchObject({ unavailable: true, config: null, loading: false });
  });
});
