import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch, registeredUser } from '../../../test/fetchMock';
import { authStore } from '../../auth/state/authStore';
import { loadVoiceSettings, updateVoiceConfig, voiceStore } from './voiceStore';

const CONFIG = { min_chars: 100, openai_model: 'gpt-4o-mini-tts', voice: 'alloy', speed: 1, auto_read_aloud: false };

describe('AI voice settings (section 4)', () => {
  beforeEach(() => {
    voiceStore.reset();
    authStore.reset();
    authStore.set({ isLoading: false, isLoggedIn: true, accessToken: 't', user: registeredUser });
  });

  it('merges an update optimistically, takes the server’s config, and restores the previous one on failure', async () => {
    mockFetch({ 'GET /api/v1/user_config/ai-voice': json(200, CONFIG) });
    await loadVoiceSettings();
    expect(voiceStore.get().config).toEqual(CONFIG);
    let release: (r: Response) => void = () => undefined;
    mockFetch({ 'POST /api/v1/user_config/ai-voice': () => new Promise<Response>((resolve) => (release = resolve)) });
    const saving = updateVoiceConfig({ voice: 'nova' });
    expect(voiceStore.get()).toMatchObject({ config: { ...CONFIG, voice: 'nova' }, loading: true });
    release(json(200, { ...CONFIG, voice: 'nova', speed: 1.25 }));
    await saving;
    expect(voiceStore.get()).toMatchObject({ config: { ...CONFIG, voice: 'nova', speed: 1.25 }, loading: false });

    const before = voiceStore.get().config;
    mockFetch({ 'POST /api/v1/user_config/ai-voice': json(400, { detail: 'min_chars: Too big' }) });
    await expect(updateVoiceConfig({ min_chars: 99_999 })).rejects.toThrow('min_chars: Too big');
    expect(voiceStore.get().config).toEqual(before);
    expect(voiceStore.get().error).toContain('min_chars: Too big');
  });

  it('degrades when the endpoints are not there (404)', async () => {
    mockFetch({});
    await loadVoiceSettings();
    expect(voiceStore.get()).toMatchObject({ unavailable: true, config: null, loading: false });
  });
});
