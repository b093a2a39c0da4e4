import { useEffect, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useAuthStatus } from '../../auth/state/authStore';
import { listen } from '../../common/utils/listen';
import { applySidebarRule, isWideViewport, setSidebarOpen, sidebarStore, useSidebarOpen } from '../state/sidebarStore';
import { ReminderNotifications } from '../../reminders/components/ReminderNotifications';
import { CommandPalette } from '../../search/components/CommandPalette';
import { ShortcutsHelp } from '../../shortcuts/components/ShortcutsHelp';
import { useGlobalShortcuts } from '../../shortcuts/hooks/useGlobalShortcuts';
import { Sidebar } from './Sidebar';

type ChatShellProps = {
  /** The sidebar's content for a logged-in user (the conversation list). */
  sidebar: ReactNode;
};

/** The shell: sidebar, and the page (header and view) beside it. */
export function ChatShell({ sidebar }: ChatShellProps) {
  const status = useAuthStatus();
  const open = useSidebarOpen();
  const loggedIn = status === 'anonymous' || status === 'registered';
  useGlobalShortcuts(loggedIn);
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
    return listen(window, { resize: onResize, keydown: onKey });
  }, [loggedIn]);
  return (
    <div className="shell" data-sidebar-open={open}>
      <Sidebar>{sidebar}</Sidebar>
      <div className="shell__main">
        {loggedIn && <ReminderNotifications />}
        <Outlet />
      </div>
      <CommandPalette />
      <ShortcutsHelp />
    </div>
  );
}
