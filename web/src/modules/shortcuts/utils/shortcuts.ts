/** The keyboard shortcuts people know from ChatGPT (issue 25), and the palette's. */
export type ShortcutId = 'newChat' | 'focusComposer' | 'copyLastReply' | 'toggleSidebar' | 'help' | 'stop' | 'editLast' | 'palette';

export type ShortcutKeys = { mod?: boolean; shift?: boolean; key: string };

export type Shortcut = { id: ShortcutId; keys: ShortcutKeys; label: string };

/** In the order the help sheet lists them. `editLast` and `stop` are read by the composer and the page. */
export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'palette', keys: { mod: true, key: 'k' }, label: 'Search conversations' },
  { id: 'newChat', keys: { mod: true, shift: true, key: 'o' }, label: 'New chat' },
  { id: 'focusComposer', keys: { shift: true, key: 'Escape' }, label: 'Focus the message box' },
  { id: 'copyLastReply', keys: { mod: true, shift: true, key: 'c' }, label: 'Copy the last reply' },
  { id: 'editLast', keys: { key: 'ArrowUp' }, label: 'Edit your last message (in an empty message box)' },
  { id: 'stop', keys: { key: 'Escape' }, label: 'Stop the reply being written' },
  { id: 'toggleSidebar', keys: { mod: true, shift: true, key: 's' }, label: 'Show or hide the sidebar' },
  { id: 'help', keys: { mod: true, key: '/' }, label: 'Show these shortcuts' },
];

export const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

type KeyEventLike = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

/** The key, independent of the keyboard layout's shifted character ("?" for Shift+/ on some, "O" for Shift+o). */
function baseKey(event: KeyEventLike): string {
  if (event.code === 'Slash') return '/';
  if (/^Key[A-Z]$/.test(event.code)) return event.code.slice(3).toLowerCase();
  return event.key.length === 1 ? event.key.toLowerCase() : event.key;
}

/** Which shortcut a key press is (the modifier is Cmd on a Mac, Ctrl elsewhere; either is taken). */
export function shortcutOf(event: KeyEventLike): ShortcutId | null {
  if (event.altKey) return null;
  const mod = event.ctrlKey || event.metaKey;
  const key = baseKey(event);
  const found = SHORTCUTS.find(
    (s) => s.keys.key.toLowerCase() === key.toLowerCase() && !!s.keys.mod === mod && !!s.keys.shift === event.shiftKey,
  );
  return found?.id ?? null;
}

/** How a shortcut reads on this platform: "⌘ ⇧ O" on a Mac, "Ctrl Shift O" elsewhere. */
export function keysLabel(keys: ShortcutKeys, mac = isMac()): string[] {
  const names: Record<string, string> = { Escape: 'Esc', ArrowUp: '↑' };
  return [
    ...(keys.mod ? [mac ? '⌘' : 'Ctrl'] : []),
    ...(keys.shift ? [mac ? '⇧' : 'Shift'] : []),
    names[keys.key] ?? keys.key.toUpperCase(),
  ];
}

/** The message box's id (Composer). */
export const COMPOSER_ID = 'composer-input';

const EDITABLE = 'input, textarea, select, [contenteditable=""], [contenteditable="true"]';

/**
 * Whether a page shortcut may act: never while a dialog is open (it has its own keys), nor while a
 * field other than the message box has the focus (its keys are the user's typing).
 */
export function shortcutsAllowed(active: Element | null, doc: Document = document): boolean {
  if (doc.querySelector('dialog[open]')) return false;
  if (!active || !active.matches(EDITABLE)) return true;
  return active.id === COMPOSER_ID;
}
