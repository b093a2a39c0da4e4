import { useIsMutating, useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import { ApiError } from '../../common/api/http';
import { mergeMutation } from '../../common/api/mergeMutation';
import { messageOf } from '../../common/utils/errors';
import { fetchVoiceConfig, fetchVoices, postVoiceConfig, type VoiceConfig } from '../api/voiceApi';
import { voiceKeys } from './voiceConfig';

export { voiceKeys } from './voiceConfig';
const MUTATION_KEY = ['voice', 'config'] as const;

/**
 * The AI voice settings, read again each time they are shown (calls are skipped without a token).
 * An update is merged at once, replaced by the server's config, and the previous config comes back
 * on failure (logged and rethrown). `loading` is on while the config is read or saved; the voice
 * list has no loading indicator.
 */
export function useVoiceSettings() {
  const client = useQueryClient();
  const { userId, ready } = useDataSession();
  const key = voiceKeys.config(userId);
  const config = useQuery({
    queryKey: key,
    queryFn: async () => (await fetchVoiceConfig()) ?? null,
    enabled: ready,
    staleTime: 0,
    retry: false,
  });
  const voices = useQuery({
    queryKey: voiceKeys.voices(userId),
    queryFn: async () => (await fetchVoices()) ?? null,
    enabled: ready,
    staleTime: 0,
    retry: false,
  });
  const saving = useIsMutating({ mutationKey: MUTATION_KEY }) > 0;
  const lastSave = useMutationState({
    filters: { mutationKey: MUTATION_KEY },
    select: (m) => (m.state.status === 'error' ? m.state.error : null),
  }).at(-1);

  const update = useMutation({
    mutationKey: MUTATION_KEY,
    ...mergeMutation(client, key, (patch: Partial<VoiceConfig>) => postVoiceConfig(patch), null as VoiceConfig | null),
  });

  return {
    config: config.data ?? null,
    voices: voices.data ?? null,
    loading: config.isFetching || saving,
    /** The endpoints answered 404: this server has no voice configuration yet. */
    unavailable: config.isError && config.error instanceof ApiError && config.error.status === 404,
    error: lastSave ? `Could not save the voice settings: ${messageOf(lastSave)}` : null,
    update: update.mutateAsync,
  };
}
