import { useQuery } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import { fetchSpeechToTextStatus, fetchVoiceConfig, type VoiceConfig } from '../api/voiceApi';

/** One user's AI voice configuration, the voices on offer, and whether speech can be transcribed. */
export const voiceKeys = {
  config: (userId: string | null) => ['voice', userId, 'config'] as const,
  voices: (userId: string | null) => ['voice', userId, 'voices'] as const,
  speechToText: (userId: string | null) => ['voice', userId, 'speech-to-text'] as const,
};

/** The AI voice config as the chat reads it (min_chars, voice, auto read-aloud), shared with the settings' cache. */
export function useVoiceConfig(): VoiceConfig | null {
  const { userId, ready } = useDataSession();
  const config = useQuery({
    queryKey: voiceKeys.config(userId),
    queryFn: async () => (await fetchVoiceConfig()) ?? null,
    enabled: ready,
    staleTime: 60_000,
    retry: false,
  });
  return config.data ?? null;
}

/** How often the status is asked again while speech-to-text is off but can be started (its server is looked for). */
const STT_RECHECK_MS = 5_000;

/** Whether the server can transcribe speech (voice mode needs it); asked again while its server may be on its way. */
export function useSpeechToTextStatus() {
  const { userId, ready } = useDataSession();
  return useQuery({
    queryKey: voiceKeys.speechToText(userId),
    queryFn: async () => (await fetchSpeechToTextStatus()) ?? null,
    enabled: ready,
    staleTime: 5 * 60_000,
    retry: false,
    refetchInterval: (query) => (query.state.data?.setup_command ? STT_RECHECK_MS : false),
  });
}
