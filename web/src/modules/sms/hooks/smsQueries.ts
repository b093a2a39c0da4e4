import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataSession } from '../../auth/state/authStore';
import { ApiError } from '../../common/api/http';
import { messageOf } from '../../common/utils/errors';
import {
  createGroup,
  createGroupInviteLink,
  fetchGroup,
  fetchGroupInvite,
  fetchGroups,
  fetchSmsMe,
  fetchSmsService,
  joinGroupInvite,
  leaveGroup,
  revokeGroupInviteLink,
  searchGroupMessages,
  type GroupChannel,
  type GroupInviteLink,
} from '../api/smsApi';
import { useDebouncedValue } from '../../common/hooks/useDebouncedValue';

export const smsKeys = {
  service: ['sms', 'service'] as const,
  invite: (inviteId: string) => ['sms', 'invite', inviteId] as const,
  me: (userId: string | null) => ['sms', 'me', userId] as const,
  groups: (userId: string | null) => ['sms', 'groups', userId] as const,
  group: (userId: string | null, channelUrl: string) => ['sms', 'groups', userId, channelUrl] as const,
  search: (userId: string | null, channelUrl: string, q: string) => ['sms', 'groups', userId, channelUrl, 'search', q] as const,
  invites: (userId: string | null, channelUrl: string) => ['sms', 'groups', userId, channelUrl, 'invites'] as const,
};

export const SEARCH_DEBOUNCE_MS = 300;

/** The text service: the assistant's number, allowance, segments, whether the development phone is there. */
export function useSmsService() {
  const query = useQuery({ queryKey: smsKeys.service, queryFn: fetchSmsService, staleTime: 60_000, retry: false });
  return { service: query.data, loading: query.isPending, error: query.isError ? messageOf(query.error) : null };
}

/** A group invite link's group (public); an expired or revoked link answers the server's reason. */
export function useGroupInvite(inviteId: string) {
  const query = useQuery({ queryKey: smsKeys.invite(inviteId), queryFn: () => fetchGroupInvite(inviteId), retry: false });
  return { invite: query.data, loading: query.isPending, error: query.isError ? messageOf(query.error) : null };
}

/** Asks the server to text a number the confirmation that joins it to the group. */
export function useJoinGroup(inviteId: string) {
  const mutation = useMutation({ mutationFn: (phoneNumber: string) => joinGroupInvite(inviteId, phoneNumber) });
  return {
    join: mutation.mutate,
    busy: mutation.isPending,
    /** The number that was texted, once the server took it. */
    sentTo: mutation.isSuccess ? mutation.variables : null,
    error: mutation.isError ? messageOf(mutation.error) : null,
    reset: mutation.reset,
  };
}

/** The caller's number, opt-in state and this month's texts. */
export function useSmsMe() {
  const { userId, ready } = useDataSession();
  const query = useQuery({ queryKey: smsKeys.me(userId), queryFn: fetchSmsMe, enabled: ready, retry: false });
  return {
    me: query.data ?? null,
    loading: ready ? query.isPending : true,
    error: query.isError ? messageOf(query.error) : null,
    reload: () => void query.refetch(),
  };
}

/** The group texts the caller belongs to. */
export function useGroups() {
  const { userId, ready } = useDataSession();
  const query = useQuery({ queryKey: smsKeys.groups(userId), queryFn: fetchGroups, enabled: ready, retry: false });
  return {
    groups: query.data ?? [],
    loading: ready ? query.isPending : true,
    error: query.isError ? messageOf(query.error) : null,
    reload: () => void query.refetch(),
  };
}

/** Creates a group; it joins the list at once. */
export function useCreateGroup() {
  const { userId } = useDataSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (name: string) => createGroup(name),
    onSuccess: (group) => {
      client.setQueryData<GroupChannel[]>(smsKeys.groups(userId), (list) => [
        group,
        ...(list ?? []).filter((g) => g.channel_url !== group.channel_url),
      ]);
      client.setQueryData(smsKeys.group(userId, group.channel_url), group);
    },
  });
  return {
    create: mutation.mutate,
    busy: mutation.isPending,
    created: mutation.data ?? null,
    error: mutation.isError ? messageOf(mutation.error) : null,
    reset: mutation.reset,
  };
}

/** Leaves a group: it leaves the list at once (its number is free for another group). */
export function useLeaveGroup(channelUrl: string) {
  const { userId } = useDataSession();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => leaveGroup(channelUrl),
    onSuccess: () => {
      client.setQueryData<GroupChannel[]>(smsKeys.groups(userId), (list) => (list ?? []).filter((g) => g.channel_url !== channelUrl));
      client.removeQueries({ queryKey: smsKeys.group(userId, channelUrl) });
    },
  });
  return {
    leave: mutation.mutate,
    busy: mutation.isPending,
    left: mutation.isSuccess,
    error: mutation.isError ? messageOf(mutation.error) : null,
  };
}

/** One group of the caller; `notMember` when the server answers 404 (not a member, or no such group). */
export function useGroup(channelUrl: string) {
  const { userId, ready } = useDataSession();
  const query = useQuery({
    queryKey: smsKeys.group(userId, channelUrl),
    queryFn: () => fetchGroup(channelUrl),
    enabled: ready,
    retry: false,
  });
  const notMember = query.error instanceof ApiError && query.error.status === 404;
  return {
    group: query.data ?? null,
    loading: !ready || query.isPending,
    notMember,
    error: query.isError && !notMember ? messageOf(query.error) : null,
  };
}

/**
 * The group's messages, newest first: the latest without a query, the matches (with their
 * highlights) once the typed query has settled for SEARCH_DEBOUNCE_MS. The previous results stay
 * while the next ones load.
 */
export function useGroupSearch(channelUrl: string, typed: string, enabled = true) {
  const { userId, ready } = useDataSession();
  const q = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: smsKeys.search(userId, channelUrl, q),
    queryFn: () => searchGroupMessages(channelUrl, q),
    enabled: ready && enabled,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const notMember = query.error instanceof ApiError && query.error.status === 404;
  return {
    /** The query the results answer. */
    q,
    results: query.data ?? [],
    /** A query typed but not yet asked, or asked and not yet answered. */
    searching: typed.trim() !== q || query.isFetching,
    loaded: query.isSuccess && !query.isPlaceholderData,
    notMember,
    error: query.isError && !notMember ? messageOf(query.error) : null,
  };
}

export type HeldInvite = GroupInviteLink & { revoked: boolean };

/** Invite links made on this page (the server keeps no list to read back): create, then revoke. */
export function useGroupInviteLinks(channelUrl: string) {
  const { userId } = useDataSession();
  const client = useQueryClient();
  const key = smsKeys.invites(userId, channelUrl);
  const held = useQuery({ queryKey: key, queryFn: () => client.getQueryData<HeldInvite[]>(key) ?? [], staleTime: Infinity });
  const update = (change: (list: HeldInvite[]) => HeldInvite[]) => client.setQueryData<HeldInvite[]>(key, (list) => change(list ?? []));
  const creating = useMutation({
    mutationFn: () => createGroupInviteLink(channelUrl),
    onSuccess: (link) => update((list) => [{ ...link, revoked: false }, ...list]),
  });
  const revoking = useMutation({
    mutationFn: (inviteId: string) => revokeGroupInviteLink(channelUrl, inviteId),
    onSuccess: (_answer, inviteId) => update((list) => list.map((i) => (i.invite_id === inviteId ? { ...i, revoked: true } : i))),
  });
  return {
    invites: held.data ?? [],
    create: () => creating.mutate(),
    creating: creating.isPending,
    revoke: revoking.mutate,
    revokingId: revoking.isPending ? revoking.variables : null,
    error: creating.isError ? messageOf(creating.error) : revoking.isError ? messageOf(revoking.error) : null,
  };
}
