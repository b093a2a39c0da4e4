import { ApiError } from '../../common/api/http';
import { createStore, useStore } from '../../common/state/createStore';
import { fetchVoiceConfig, fetchVoices, postVoiceConfig, type VoiceConfig, type VoiceMap } from '../api/voiceApi';

export type VoiceState = {
  config: VoiceConfig | null;
  voices: VoiceMap | null;
  loading: boolean;
  unavailable: boolean;
  error: string | null;
};

export const voiceStore = createStore<VoiceState>(() => ({ config: null, voices: null, loading: false, unavailable: false, error: null }));

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function loadVoiceSettings(): Promise<void> {
  voiceStore.set({ loading: true });
  try {
    const config = await fetchVoiceConfig();
    voiceStore.set({ config: config ?? null, unavailable: false });
  } catch (error) {
    voiceStore.set({ unavailable: error instanceof ApiError && error.status === 404 });
    console.error(error);
  } finally {
    voiceStore.set({ loading: false });
  }
  // The voice list has no loading indicator (section 4).
  try {
    const voices = await fetchVoices();
    voiceStore.set({ voices: voices ?? null });
  } catch (error) {
    console.error(error);
  }
}

/** Merged optimistically, replaced by the server's config, the previous one restored on failure. */
export async function updateVoiceConfig(patch: Partial<VoiceConfig>): Promise<void> {
  const previous = voiceStore.get().config;
  voiceStore.set({ config: { ...(previous ?? {}), ...patch }, loading: true, error: null });
  try {
    const config = await postVoiceConfig(patch);
    if (config) voiceStore.set({ config });
  } catch (error) {
    console.error(error);
    voiceStore.set({ config: previous, error: `Could not save the voice settings: ${messageOf(error)}` });
    throw error;
  } finally {
    voiceStore.set({ loading: false });
  }
}

export const useVoice = <T,>(selector: (state: VoiceState) => T) => useStore(voiceStore, selector);
