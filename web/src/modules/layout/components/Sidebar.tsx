import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { requestLogout, useAuth, useAuthStatus } from '../../auth/state/authStore';
import { Icon } from '../../../ui/Icon';
import { SearchCombobox } from '../../search/components/SearchCombobox';
import { ThemeToggle } from '../../theme/components/ThemeToggle';
import { closeSidebarOnNarrow, setSidebarOpen, useSidebarOpen } from '../state/sidebarStore';

type SidebarProps = {
  /** What a logged-in user finds under "New chat" (the app puts the conversation list there). */
  children: ReactNode;
};

/** The 300 px sidebar: new chat, the conversations, the account corner. */
export function Sidebar({ children }: SidebarProps) {
  const open = useSidebarOpen();
  const status = useAuthStatus();
  const user = useAuth((s) => s.user);
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);
  const loggedIn = status === 'anonymous' || status === 'registered';
  const who = user?.is_anon ? 'Guest' : (user?.name ?? user?.email ?? user?.phone_number ?? 'Account');
  return (
    <>
      <div className="sidebar-scrim" hidden={!open} onClick={() => setSidebarOpen(false)} aria-hidden="true" />
      <nav id="sidebar" className="sidebar" data-open={open} aria-label="Conversations" hidden={!open}>
        <div className="sidebar__top">
          <Link to="/chat" className="brand" onClick={closeSidebarOnNarrow}>
            <img src="/favicon.svg" alt="" width={24} height={24} />
            <span>Assistant</span>
          </Link>
          {/* On a phone the header leaves the theme to the sidebar. */}
          <span className="narrow-only sidebar__theme">
            <ThemeToggle />
          </span>
          <button type="button" className="icon-button" aria-label="Close sidebar" onClick={() => setSidebarOpen(false)}>
            <Icon name="chevron-left" />
          </button>
        </div>
        <button
          type="button"
          className="button button--primary new-chat"
          onClick={() => {
            navigate('/chat');
            closeSidebarOnNarrow();
          }}
        >
          <Icon name="plus" /> New chat
        </button>
        {status === 'loading' ? (
          // The session is being checked: neither the conversations nor "Sign in" yet.
          <div className="sidebar__loading" aria-hidden="true">
            <span className="sk__bar" style={{ width: '80%' }} />
            <span className="sk__bar" style={{ width: '65%' }} />
            <span className="sk__bar" style={{ width: '72%' }} />
          </div>
        ) : loggedIn ? (
          <SearchCombobox
            label="Search conversations"
            placeholder="Search conversations"
            onChosen={closeSidebarOnNarrow}
            className="search--sidebar"
          >
            {children}
          </SearchCombobox>
        ) : (
          <div className="sidebar__empty">
            <p>Sign in to keep your conversations.</p>
            <Link className="button button--primary" to="/login">
              Sign in
            </Link>
          </div>
        )}
        <div className="sidebar__bottom">
          {loggedIn && (
            <div className="account">
              <span className="account__avatar" aria-hidden="true">
                <Icon name="user" size={16} />
              </span>
              <span className="account__name" title={who}>
                {who}
              </span>
            </div>
          )}
          <div className="sidebar__links">
            {loggedIn && (
              <Link to="/reminders" className="sidebar__link" onClick={closeSidebarOnNarrow}>
                <Icon name="check" size={16} /> Reminders
              </Link>
            )}
            <Link to="/settings" className="sidebar__link" onClick={closeSidebarOnNarrow}>
              <Icon name="settings" size={16} /> Settings
            </Link>
            {status === 'registered' && (
              <button
                type="button"
                className="sidebar__link"
                disabled={signingOut}
                onClick={async () => {
                  setSigningOut(true);
                  await requestLogout();
                  setSigningOut(false);
                  navigate('/login');
                }}
              >
                <Icon name="logout" size={16} /> Sign out
              </button>
            )}
            {status === 'anonymous' && (
              <Link to="/login" className="sidebar__link" onClick={closeSidebarOnNarrow}>
                <Icon name="login" size={16} /> Sign in
              </Link>
            )}
          </div>
          <p className="sidebar__legal">
            <Link to="/terms">Terms</Link> · <Link to="/privacy">Privacy</Link> · <Link to="/text">Text</Link>
          </p>
        </div>
      </nav>
    </>
  );
}
