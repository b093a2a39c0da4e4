import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth, useAuthStatus } from '../modules/auth/state/authStore';
import { LoadingScreen } from '../ui/Spinner';

type GuardProps = { children: ReactNode };

/** Where a logged-out visitor is sent, remembering where they were going. */
function ToLogin() {
  const location = useLocation();
  const next = `${location.pathname}${location.search}`;
  return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
}

/** Logged in (a guest counts). */
export function RequireLogin({ children }: GuardProps) {
  const status = useAuthStatus();
  if (status === 'loading') return <LoadingScreen />;
  if (status === 'logged-out') return <ToLogin />;
  return <>{children}</>;
}

/**
 * The chat shell: logged in; a user neither registered nor anonymous goes to /new-user.
 * `loading`: what shows while the session is checked (the chat's skeleton), a spinner by default.
 */
export function RequireChatAccess({ children, loading }: GuardProps & { loading?: ReactNode }) {
  const status = useAuthStatus();
  const registered = useAuth((s) => s.user?.onboarding_config.registered ?? false);
  if (status === 'loading') return <>{loading ?? <LoadingScreen />}</>;
  if (status === 'logged-out') return <ToLogin />;
  if (status === 'registered' && !registered) return <Navigate to="/new-user" replace />;
  return <>{children}</>;
}

/** /kba/{campaign} and /new-user: logged-in non-anonymous users; otherwise /login (a placeholder while loading). */
export function RequireAccount({ children }: GuardProps) {
  const status = useAuthStatus();
  if (status === 'loading') return <LoadingScreen />;
  if (status !== 'registered') return <ToLogin />;
  return <>{children}</>;
}

/** /onboarding and /confirm-memories: as RequireAccount, and /chat once onboarding is done. */
export function RequireOnboarding({ children }: GuardProps) {
  const status = useAuthStatus();
  const done = useAuth((s) => s.user?.onboarding_config.onboarding_done ?? false);
  if (status === 'loading') return <LoadingScreen />;
  if (status !== 'registered') return <ToLogin />;
  if (done) return <Navigate to="/chat" replace />;
  return <>{children}</>;
}
