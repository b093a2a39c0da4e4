import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { WelcomeDialog } from '../modules/auth/components/WelcomeDialog';
import { syncCurrentChat } from '../modules/layout/state/uiStore';
import { useVersionCheck } from '../modules/version/hooks/useVersionCheck';
import { LoadingScreen } from '../ui/Spinner';
import { Toasts } from '../ui/Toasts';
import { ErrorBoundary } from './ErrorBoundary';

/** What every page shares: error boundary, welcome dialog, version check, notifications. */
export function Root() {
  const location = useLocation();
  useVersionCheck();
  useEffect(() => {
    syncCurrentChat(location.pathname);
  }, [location.pathname]);
  return (
    <>
      <a className="skip-link" href="#composer-input">
        Skip to the message box
      </a>
      <ErrorBoundary key={location.pathname}>
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
      <WelcomeDialog />
      <Toasts />
    </>
  );
}
