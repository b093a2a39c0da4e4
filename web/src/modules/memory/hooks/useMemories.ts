import { useEffect } from 'react';
import { useAuth, useAuthStatus } from '../../auth/state/authStore';
import { loadMemories } from '../state/memoryStore';

/** Loads the memories (all, or one conversation's) only once logged in with a token (spec section 5). */
export function useLoadMemories(sourceChatId?: string | null): { reload: () => void } {
  const status = useAuthStatus();
  const token = useAuth((s) => s.accessToken);
  const ready = (status === 'anonymous' || status === 'registered') && !!token;
  const scope = sourceChatId ?? '';
  useEffect(() => {
    if (ready) void loadMemories(scope);
  }, [ready, scope]);
  return {
    reload: () => {
      if (ready) void loadMemories(scope);
    },
  };
}
