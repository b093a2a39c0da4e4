import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Dialog } from '../../../ui/Dialog';
import { useAuthStatus } from '../../auth/state/authStore';
import { useConversations } from '../../chat/hooks/chatQueries';
import { UNTITLED } from '../../chat/utils/titles';
import { listen } from '../../common/utils/listen';
import { closeSidebarOnNarrow } from '../../layout/state/sidebarStore';
import { isMac, shortcutOf } from '../../shortcuts/utils/shortcuts';
import { paletteStore, setPaletteOpen, usePaletteOpen } from '../state/paletteStore';
import { SearchCombobox, type ShortcutOption } from './SearchCombobox';

const RECENT = 6;
/** The platform's modifier, as its users read it. */
export const MOD_LABEL = isMac() ? '⌘' : 'Ctrl';

/** Ctrl+K (⌘K on a Mac) opens the palette from anywhere but another dialog; again, it closes. */
export const isPaletteKey = (event: KeyboardEvent) => shortcutOf(event) === 'palette';

/**
 * The command palette: search every conversation as you type, or, before typing, start a new chat
 * or jump to a recent one. Opened with Ctrl/Cmd+K, closed with Escape or the same keys.
 */
export function CommandPalette() {
  const open = usePaletteOpen();
  const status = useAuthStatus();
  const loggedIn = status === 'anonymous' || status === 'registered';
  const navigate = useNavigate();
  const { data: conversations } = useConversations();

  useEffect(
    () =>
      listen(window, {
        keydown: (event) => {
          if (!loggedIn || !isPaletteKey(event) || event.defaultPrevented) return;
          const inOtherDialog = document.querySelector('dialog[open]:not(.palette)');
          if (inOtherDialog) return;
          event.preventDefault();
          setPaletteOpen(!paletteStore.get().open);
        },
      }),
    [loggedIn],
  );

  const idle: ShortcutOption[] = [
    { id: 'new', label: 'New chat', icon: 'plus', run: () => navigate('/chat') },
    ...(conversations ?? [])
      .filter((c) => !c.temporary)
      .slice(0, RECENT)
      .map((c) => ({
        id: c.chat_id,
        label: c.conversation_title || UNTITLED,
        icon: 'file' as const,
        run: () => navigate(`/chat/${c.chat_id}`),
      })),
  ];

  return (
    <Dialog open={open && loggedIn} title="Search conversations" onClose={() => setPaletteOpen(false)} className="palette">
      <SearchCombobox
        label="Search conversations"
        placeholder="Search conversations…"
        autoFocus
        idle={idle}
        onEscape={() => setPaletteOpen(false)}
        onChosen={() => {
          setPaletteOpen(false);
          closeSidebarOnNarrow();
        }}
      />
      <p className="palette__keys muted small" aria-hidden="true">
        <kbd>↑</kbd> <kbd>↓</kbd> to choose · <kbd>Enter</kbd> to open · <kbd>Esc</kbd> to close · <kbd>{MOD_LABEL}</kbd>+<kbd>K</kbd>
      </p>
    </Dialog>
  );
}
