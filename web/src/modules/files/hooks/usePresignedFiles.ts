import type { FileReference } from '@app/contracts/chat';
import { useQuery } from '@tanstack/react-query';
import { useAuthStatus } from '../../auth/state/authStore';
import { fetchPresignedFiles } from '../api/filesApi';

/** Signed links live 5 minutes (FILES_SIGNED_URL_TTL_SECONDS); one older than this is asked again before opening. */
export const PRESIGN_FRESH_MS = 4 * 60_000;

/** The presigned attachments of a message (through the share on a shared page). */
export function usePresignedFiles(files: FileReference[], shareId?: string | null) {
  const status = useAuthStatus();
  return useQuery({
    queryKey: ['presigned', shareId ?? null, ...files.map((f) => f.object_store_object_id)],
    queryFn: () => fetchPresignedFiles(files, { shareId }),
    enabled: files.length > 0 && (status === 'anonymous' || status === 'registered'),
    staleTime: PRESIGN_FRESH_MS,
    gcTime: 10 * 60_000,
    retry: false,
  });
}
