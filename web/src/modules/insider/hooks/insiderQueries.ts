import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import { ApiError, isAuthenticated } from '../../common/api/http';
import { fetchInsiderFlags, fetchInsiderStatus, type StoredFlags } from '../api/insiderApi';
import { DEFAULT_FLAGS, effectiveFlags, FORBIDDEN_FLAGS, NOT_INSIDER } from '../utils/flags';

/** One user's insider status and flags. */
export const insiderKeys = {
  status: (userId: string | null) => ['insider', userId, 'status'] as const,
  flags: (userId: string | null) => ['insider', userId, 'flags'] as const,
};

/** A 403 on the flags read means no flags at all; other failures keep the flags held. */
async function readFlags(): Promise<StoredFlags> {
  try {
    return (await fetchInsiderFlags()) ?? DEFAULT_FLAGS;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return FORBIDDEN_FLAGS;
    throw error;
  }
}

// Read after each login and by the settings page, never by a timer; a failed read keeps the defaults.
const statusQuery = (userId: string | null) =>
  queryOptions({
    queryKey: insiderKeys.status(userId),
    queryFn: async () => (await fetchInsiderStatus()) ?? NOT_INSIDER,
    staleTime: Infinity,
    retry: false,
  });
export const flagsQuery = (userId: string | null) =>
  queryOptions({ queryKey: insiderKeys.flags(userId), queryFn: readFlags, staleTime: Infinity, retry: false });

/** After every login: the status, then the flags only for an insider with insider mode enabled. */
export async function loadInsider(client: QueryClient, userId: string): Promise<void> {
  if (!isAuthenticated()) return;
  const status = await client.fetchQuery({ ...statusQuery(userId), staleTime: 0 }).catch(() => NOT_INSIDER);
  if (status.is_insider && status.is_insider_enabled)
    await client.fetchQuery({ ...flagsQuery(userId), staleTime: 0 }).catch(() => undefined);
}

/**
 * The status and the flags held for the user. `fresh` (the settings page) reads both again on
 * mount, and also the flags of an insider with insider mode off: can_create_invite is in force
 * for them, which start-up does not read.
 */
export function useInsiderState(fresh = false) {
  const { userId, ready } = useDataSession();
  const refetchOnMount = fresh ? ('always' as const) : true;
  const statusRead = useQuery({ ...statusQuery(userId), enabled: ready, refetchOnMount });
  const status = statusRead.data ?? NOT_INSIDER;
  const wantsFlags = status.is_insider && (status.is_insider_enabled || fresh);
  const flagsRead = useQuery({ ...flagsQuery(userId), enabled: ready && wantsFlags, refetchOnMount });
  return { userId, status, flags: flagsRead.data ?? DEFAULT_FLAGS, statusRead };
}

/** The flags in force, for the screens that read them. */
export function useEffectiveFlags(): StoredFlags {
  const { status, flags } = useInsiderState();
  return effectiveFlags(status, flags);
}
