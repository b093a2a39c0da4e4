import { useIsMutating, useMutation, useMutationState, useQueryClient, type Mutation } from '@tanstack/react-query';
import { mergeMutation } from '../../common/api/mergeMutation';
import { ApiError } from '../../common/api/http';
import { messageOf } from '../../common/utils/errors';
import { postInsiderEnabled, postInsiderFlags, type InsiderStatus, type StoredFlags } from '../api/insiderApi';
import { DEFAULT_FLAGS, effectiveFlags, NOT_INSIDER } from '../utils/flags';
import { flagsQuery, insiderKeys, useInsiderState } from './insiderQueries';

const MUTATION_KEY = ['insider'] as const;

type Failure = { failure: string };
/** The last change's failure, with what it was about; null once another change starts. */
const failureOf = (mutation: Mutation<unknown, Error, unknown, unknown>) =>
  mutation.state.status === 'error' ? `${(mutation.options.meta as Failure).failure}: ${messageOf(mutation.state.error)}` : null;

/**
 * The settings page's insider section. The switch is applied at once, replaced by the server's
 * answer, and on failure set to the opposite of what was asked; a flag change is merged at once,
 * replaced by the server's flags, and the previous flags come back on failure. Failures are logged
 * and rethrown. `loading` is on while a change is under way.
 */
export function useInsiderSettings() {
  const client = useQueryClient();
  const { userId, status, flags, statusRead } = useInsiderState(true);
  const statusKey = insiderKeys.status(userId);
  const flagsKey = insiderKeys.flags(userId);
  const loading = useIsMutating({ mutationKey: MUTATION_KEY }) > 0;
  const error = useMutationState({ filters: { mutationKey: MUTATION_KEY }, select: failureOf }).at(-1) ?? null;
  const setSwitch = (enabled: boolean) =>
    client.setQueryData<InsiderStatus>(statusKey, (held) => ({ ...(held ?? NOT_INSIDER), is_insider_enabled: enabled }));

  const switchMode = useMutation({
    mutationKey: [...MUTATION_KEY, 'mode'],
    meta: { failure: 'Could not change insider mode' } satisfies Failure,
    mutationFn: (enabled: boolean) => postInsiderEnabled(enabled),
    onMutate: async (enabled) => {
      await client.cancelQueries({ queryKey: statusKey });
      setSwitch(enabled);
    },
    onSuccess: async (answer) => {
      if (!answer) return;
      client.setQueryData(statusKey, answer);
      if (answer.is_insider && answer.is_insider_enabled)
        await client.fetchQuery({ ...flagsQuery(userId), staleTime: 0 }).catch(() => undefined);
    },
    onError: (failure, enabled) => {
      console.error(failure);
      setSwitch(!enabled);
    },
  });

  const saveFlags = useMutation({
    mutationKey: [...MUTATION_KEY, 'flags'],
    meta: { failure: 'Could not save the flag' } satisfies Failure,
    ...mergeMutation(client, flagsKey, (patch: Partial<StoredFlags>) => postInsiderFlags(patch), DEFAULT_FLAGS),
  });

  return {
    status,
    flags,
    effective: effectiveFlags(status, flags),
    loading,
    error,
    /** The endpoints answered 404: this server has no insider configuration yet. */
    unavailable: statusRead.isError && statusRead.error instanceof ApiError && statusRead.error.status === 404,
    setEnabled: switchMode.mutateAsync,
    updateFlags: saveFlags.mutateAsync,
  };
}
