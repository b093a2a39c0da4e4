import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { WelcomeDialog } from '../modules/auth/components/WelcomeDialog';
import { ConnectionNotice } from '../modules/layout/components/ConnectionNotice';
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
      <a
        className="skip-link"
        href="#composer-input"
        onClick={(event) => {
          // Focus the message box where there is one, else the page's heading.
          const target = document.getElementById('composer-input') ?? document.querySelector<HTMLElement>('main h1, h1');
          if (!target) return;
          event.preventDefault();
          if (!target.hasAttribute('tabindex') && target.tagName === 'H1') target.setAttribute('tabindex', '-1');
          target.focus();
        }}
      >
        Skip to the main content
      </a>
      <ConnectionNotice />
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
