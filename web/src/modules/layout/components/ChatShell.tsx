import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useAuthStatus } from '../../auth/state/authStore';
import { applySidebarRule, isWideViewport, setSidebarOpen, sidebarStore, useSidebarOpen } from '../state/sidebarStore';
import { Sidebar } from './Sidebar';

/** The shell: sidebar, and the page (header and view) beside it. */
export function ChatShell() {
  const status = useAuthStatus();
  const open = useSidebarOpen();
  const loggedIn = status === 'anonymous' || status === 'registered';
  useEffect(() => {
    if (status !== 'loading') applySidebarRule(loggedIn);
  }, [status, loggedIn]);
  useEffect(() => {
    let wide = isWideViewport();
    const onResize = () => {
      const now = isWideViewport();
      if (now !== wide) {
        wide = now;
        applySidebarRule(loggedIn);
      }
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !isWideViewport() && sidebarStore.get().sidebarOpen) setSidebarOpen(false);
    };
    window.addEventListener('resize', onResize);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('resize', onResize);
      window.removeEventListener('keydown', onKey);
    };
  }, [loggedIn]);
  return (
    <div className="shell" data-sidebar-open={open}>
      <Sidebar />
      <div className="shell__main">
        <Outlet />
      </div>
    </div>
  );
}
