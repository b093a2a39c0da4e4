import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { showToast } from '../../../ui/toastStore';
import { replyStore, stopGenerating } from '../../chat/state/replyStore';
import { listen } from '../../common/utils/listen';
import { toggleSidebar } from '../../layout/state/sidebarStore';
import { setHelpOpen } from '../state/helpStore';
import { copyLastReply, focusComposer } from '../utils/chatActions';
import { shortcutOf, shortcutsAllowed } from '../utils/shortcuts';

/**
 * The page's shortcuts (see SHORTCUTS), while a logged-in user is on the chat: never while a dialog
 * is open or another field than the message box has the focus. The palette's Ctrl/Cmd+K is its own
 * (CommandPalette); ArrowUp in the empty message box is the composer's.
 */
export function useGlobalShortcuts(enabled: boolean) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!enabled) return;
    return listen(window, {
      keydown: (event) => {
        if (event.defaultPrevented || event.isComposing) return;
        const id = shortcutOf(event);
        if (!id || id === 'palette' || id === 'editLast') return;
        if (!shortcutsAllowed(document.activeElement)) return;
        if (id === 'stop') {
          // Escape does other things (it closes the narrow sidebar): it is only ours while a reply streams.
          if (!replyStore.get().draft?.streaming) return;
          event.preventDefault();
          void stopGenerating();
          return;
        }
        event.preventDefault();
        if (id === 'newChat') {
          navigate('/chat');
          requestAnimationFrame(focusComposer);
        } else if (id === 'focusComposer') focusComposer();
        else if (id === 'copyLastReply') {
          if (!copyLastReply()) showToast('There is no reply to copy yet.');
        } else if (id === 'toggleSidebar') toggleSidebar();
        else if (id === 'help') setHelpOpen(true);
      },
    });
  }, [enabled, navigate]);
}
