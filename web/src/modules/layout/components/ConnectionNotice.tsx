import { useAuth } from '../../auth/state/authStore';
import { useOnline } from '../../common/hooks/useOnline';

/**
 * A line at the top of every page while the assistant cannot be reached: the browser is offline
 * (what is on screen stays readable; lists and replies come back with the connection, as TanStack
 * Query refetches on reconnect), or start-up could not check the stored session (it is kept and
 * checked again on its own: nobody is signed out or given a new guest for a lost connection).
 */
export function ConnectionNotice() {
  const online = useOnline();
  const unreachable = useAuth((s) => s.unreachable);
  if (online && !unreachable) return null;
  return (
    <div className="connection-notice notice notice--warning" role="status">
      {!online
        ? 'You are offline. What is on screen stays here; the assistant answers again once you are back online.'
        : 'The assistant cannot be reached right now. Your session is kept; it tries again on its own.'}
    </div>
  );
}
