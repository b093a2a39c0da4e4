import type { Import } from '@app/contracts/chat';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataSession } from '../../auth/state/authStore';
import { conversationsKey } from '../../chat/hooks/chatQueries';
import { memoryKeys } from '../../memory/hooks/memoryQueries';
import { fetchImport, fetchImports } from '../api/importsApi';

/** How often a running import is asked for its progress. */
export const IMPORT_POLL_MS = 1_000;

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
  const ended = query.data && !isUnderWay(query.data) ? query.data.status : null;
  useEffect(() => {
    if (!ended) return;
    void client.invalidateQueries({ queryKey: conversationsKey });
    void client.invalidateQueries({ queryKey: importKeys.list(userId) });
    void client.invalidateQueries({ queryKey: memoryKeys.user(userId) });
  }, [ended, client, userId]);
  return query;
}
