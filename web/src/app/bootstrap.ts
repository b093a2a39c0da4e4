import { completesSignIn, onLogin, onLogout, startAuth } from '../modules/auth/state/authStore';
import { preloadChatMessages } from '../modules/chat/components/LazyChatMessages';
import { prefetchOpenedConversation } from '../modules/chat/hooks/chatQueries';
import { preloadMarkdown } from '../modules/markdown/components/LazyMarkdown';
import { loadInsider } from '../modules/insider/hooks/insiderQueries';
import { registerServiceWorker } from '../modules/version/serviceWorker';
import { applyTheme, storedDarkMode } from '../modules/theme/state/themeStore';
import { listenForWindowFocus, queryClient } from './queryClient';

let started = false;

/**
 * Start-up (section 7): the theme attribute, the auth check (with CSRF and session id; none on a
 * /login-success that completes a sign-in, which signs in itself), then the insider status after
 * every login (and the first page of the conversation opened, ahead of the shell); a logout forgets all server state.
 */
export function bootstrap(): void {
  if (started) return;
  started = true;
  applyTheme(storedDarkMode());
  listenForWindowFocus();
  onLogin((user) => {
    // A conversation opened: its newest page, its list's code and the markdown's, all at once.
    if (prefetchOpenedConversation(queryClient, window.location.pathname)) {
      preloadChatMessages();
      preloadMarkdown();
    }
    void loadInsider(queryClient, user.user_id);
  });
  onLogout(() => queryClient.clear());
  // Global script, resource and promise errors are logged and suppressed (monitoring is off in this build).
  window.addEventListener(
    'error',
    (event: Event) => {
      // Script errors (ErrorEvent) and failed resources (a plain Event from the element).
      console.error('Unhandled error', event instanceof ErrorEvent ? (event.error ?? event.message) : event.target);
      if (event instanceof ErrorEvent) event.preventDefault();
    },
    true,
  );
  window.addEventListener('unhandledrejection', (event) => {
    console.error('Unhandled rejection', event.reason);
    event.preventDefault();
  });
  void startAuth({ completingSignIn: completesSignIn(window.location) });
  registerServiceWorker();
}
