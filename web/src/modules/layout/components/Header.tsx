import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuthStatus } from '../../auth/state/authStore';
import { firstTimeDotHidden, hideFirstTimeDot } from '../../auth/state/firstTimeModal';
import { ThemeToggle } from '../../theme/components/ThemeToggle';
import { Icon } from '../../../ui/Icon';
import { toggleSidebar, useSidebarOpen } from '../state/sidebarStore';

type HeaderProps = { title?: ReactNode; actions?: ReactNode };

export function Header({ title, actions }: HeaderProps) {
  const open = useSidebarOpen();
  const status = useAuthStatus();
  const showDot = status === 'anonymous' && !firstTimeDotHidden();
  return (
    <header className="header">
      <button
        type="button"
        className="icon-button"
        aria-label={open ? 'Hide sidebar' : 'Show sidebar'}
        aria-expanded={open}
        aria-controls="sidebar"
        onClick={toggleSidebar}
      >
        <Icon name="menu" />
      </button>
      <div className="header__title">{title}</div>
      <div className="header__actions">
        {actions}
        <span className="header__theme wide-only">
          <ThemeToggle />
        </span>
        {status === 'anonymous' && (
          <Link to="/login" className="button button--secondary button--small signup" onClick={hideFirstTimeDot}>
            Sign up
            {showDot && <span className="dot" aria-label="New" />}
          </Link>
        )}
      </div>
    </header>
  );
}
