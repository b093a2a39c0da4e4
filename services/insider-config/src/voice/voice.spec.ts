import { domainRefusal as refusal } from '@app/testing';
import type { AiVoiceConfig } from '@app/contracts/insider-config';
import { DEFAULT_AI_VOICE_CONFIG } from '@app/contracts/insider-config';
import { DomainError } from '@app/platform';
import type { VoiceConfigStore } from './voice-config.repository';
import { mergeVoiceConfig, normalizeVoiceConfig, VoiceService } from './voice.service';

/** The repository's contract in memory: a change that throws leaves nothing behind. */
class FakeVoiceConfigStore implements VoiceConfigStore {
  readonly rows = new Map<string, Record<string, unknown>>();

  async find(userId: string) {
    return structuredClone(this.rows.get(userId) ?? null);
  }

  async update(userId: string, change: (stored: Record<string, unknown> | null) => AiVoiceConfig) {
    const next = change(structuredClone(this.rows.get(userId) ?? null));
    this.rows.set(userId, structuredClone(next));
    return next;
  }
}

const caller = { user_id: 'guest-1', is_anon: true, session_id: 's', request_id: 'r' };

function setup() {
  const store = new FakeVoiceConfigStore();
  return { store, service: new VoiceService(store) };
}

describe('AI voice settings', () => {
  it('are the defaults until changed, for guests too, without writing anything', async () => {
    const { store, service } = setup();
    expect(await service.get(caller)).toEqual({
      min_chars: 100,
      openai_model: 'gpt-4o-mini-tts',
      voice: 'alloy',
      speed: 1,
      auto_read_aloud: false,
    });
    expect(store.rows.size).toBe(0);
  });

  it('merge the changed fields into the stored ones and answer them whole', async () => {
    const { store, service } = setup();
    expect(await service.update(caller, { min_chars: 250 })).toEqual({ ...DEFAULT_AI_VOICE_CONFIG, min_chars: 250 });
    const both = await service.update(caller, { voice: 'verse', auto_read_aloud: true });
    expect(both).toEqual({ ...DEFAULT_AI_VOICE_CONFIG, min_chars: 250, voice: 'verse', auto_read_aloud: true });
    expect(store.rows.get('guest-1')).toEqual(both);
    expect(await service.get(caller)).toEqual(both);
  });

  it('refuse a merged result that is wrong as a whole (422 naming the field), leaving the stored settings as they were', async () => {
    const { store, service } = setup();
    await service.update(caller, { voice: 'ballad', speed: 1.5 });
    const before = structuredClone(store.rows.get('guest-1'));
    const error = await refusal(service.update(caller, { openai_model: 'tts-1', min_chars: 300 }));
    expect(error).toMatchObject({ status: 422, code: 'validation_failed', detail: 'voice: ballad is not available with tts-1' });
    expect(store.rows.get('guest-1')).toEqual(before);
    // Both at once is fine.
    expect(await service.update(caller, { openai_model: 'tts-1', voice: 'nova' })).toMatchObject({
      openai_model: 'tts-1',
      voice: 'nova',
      speed: 1.5,
    });
  });

  it('check every range and allow-list, all or nothing', () => {
    for (const bad of [
      { min_chars: 19 },
      { min_chars: 2001 },
      { min_chars: 100.5 },
      { speed: 0.2 },
      { speed: 4.5 },
      { voice: 'robot' },
      { openai_model: 'gpt-2' },
      { auto_read_aloud: 'yes' },
    ]) {
      expect(() => mergeVoiceConfig(DEFAULT_AI_VOICE_CONFIG, bad as never)).toThrow(DomainError);
    }
    expect(mergeVoiceConfig(DEFAULT_AI_VOICE_CONFIG, { min_chars: 20, speed: 4 })).toMatchObject({ min_chars: 20, speed: 4 });
    expect(mergeVoiceConfig(DEFAULT_AI_VOICE_CONFIG, { min_chars: 2000, speed: 0.25 })).toMatchObject({ min_chars: 2000, speed: 0.25 });
    expect(mergeVoiceConfig(DEFAULT_AI_VOICE_CONFIG, { voice: undefined })).toEqual(DEFAULT_AI_VOICE_CONFIG);
  });

  it('read stored settings defensively: a field no longer allowed falls back to its default', () => {
    expect(normalizeVoiceConfig(null)).toEqual(DEFAULT_AI_VOICE_CONFIG);
    expect(normalizeVoiceConfig({ min_chars: 300 })).toEqual({ ...DEFAULT_AI_VOICE_CONFIG, min_chars: 300 });
    expect(normalizeVoiceConfig({ min_chars: 5, voice: 'retired', speed: 2, extra: true })).toEqual({
      ...DEFAULT_AI_VOICE_CONFIG,
      speed: 2,
    });
    expect(normalizeVoiceConfig({ openai_model: 'tts-1', voice: 'marin' })).toEqual({ ...DEFAULT_AI_VOICE_CONFIG, openai_model: 'tts-1' });
  });

  it('need a signed-in caller', async () => {
    const { service } = setup();
    expect(await refusal(service.get({ ...caller, user_id: null }))).toMatchObject({ status: 401 });
  });
});
