import type { Import } from '@app/contracts/chat';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useDataSession } from '../../auth/state/authStore';
import { conversationsKey } from '../../chat/hooks/chatQueries';
import { memoryKeys } from '../../memory/hooks/memoryQueries';
import { cancelImport, fetchImport, fetchImports } from '../api/importsApi';

/** How often a running import is asked for its progress. */
export const IMPORT_POLL_MS = 1_000;
/** How often, at most, the conversation list is read again while an import adds to it. */
export const IMPORT_LIST_REFRESH_MS = 5_000;

export const importKeys = {
  list: (userId: string | null) => ['imports', userId] as const,
  one: (userId: string | null, id: string) => ['imports', userId, id] as const,
};

export const isUnderWay = (i: Pick<Import, 'status'> | null | undefined) => i?.status === 'queued' || i?.status === 'running';

/** The caller's imports, newest first (asked again while one is under way). */
export function useImports() {
  const { userId, ready } = useDataSession();
  return useQuery({
    queryKey: importKeys.list(userId),
    queryFn: fetchImports,
    enabled: ready,
    refetchInterval: (query) => (query.state.data?.some(isUnderWay) ? IMPORT_POLL_MS * 3 : false),
  });
}

/**
 * One import, polled every IMPORT_POLL_MS while it is queued or running; when it ends, the
 * conversation list (and the memories, when it learnt some) are fetched again.
 */
export function useImport(id: string | null) {
  const { userId, ready } = useDataSession();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: importKeys.one(userId, id ?? ''),
    queryFn: () => fetchImport(id!),
    enabled: ready && !!id,
    refetchInterval: (q) => (!q.state.data || isUnderWay(q.state.data) ? IMPORT_POLL_MS : false),
  });
  // While it runs, the conversations it wrote so far appear in the list (read again at most every few seconds).
  const imported = query.data && isUnderWay(query.data) ? query.data.conversations_imported : 0;
  const listReadAt = useRef(0);
  useEffect(() => {
    if (!imported || Date.now() - listReadAt.current < IMPORT_LIST_REFRESH_MS) return;
    listReadAt.current = Date.now();
    void client.invalidateQueries({ queryKey: conversationsKey });
  }, [imported, client]);
  const ended = query.data && !isUnderWay(query.data) ? query.data.status : null;
  useEffect(() => {
    if (!ended) return;
    void client.invalidateQueries({ queryKey: conversationsKey });
    void client.invalidateQueries({ queryKey: importKeys.list(userId) });
    void client.invalidateQueries({ queryKey: memoryKeys.user(userId) });
  }, [ended, client, userId]);
  return query;
}

/**
 * Stops an import under way. Its answer (cancelled) is shown at once; the list, the conversations it
 * imported before it stopped and the import itself are fetched again either way (a refusal means it
 * ended meanwhile).
 */
export function useCancelImport() {
  const { userId } = useDataSession();
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelImport,
    onSuccess: (cancelled) => client.setQueryData(importKeys.one(userId, cancelled.import_id), cancelled),
    onSettled: (_data, _error, id) => {
      void client.invalidateQueries({ queryKey: importKeys.one(userId, id) });
      void client.invalidateQueries({ queryKey: importKeys.list(userId) });
      void client.invalidateQueries({ queryKey: conversationsKey });
    },
  });
}
