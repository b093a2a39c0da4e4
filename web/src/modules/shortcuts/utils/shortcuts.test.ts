import { afterEach, describe, expect, it } from 'vitest';
import { keysLabel, SHORTCUTS, shortcutOf, shortcutsAllowed } from './shortcuts';

const press = (key: string, code: string, mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) => ({
  key,
  code,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  shiftKey: !!mods.shift,
  altKey: !!mods.alt,
});

describe('shortcutOf', () => {
  it("reads ChatGPT's shortcuts with Ctrl or Cmd, whatever the layout makes of Shift", () => {
    expect(shortcutOf(press('O', 'KeyO', { ctrl: true, shift: true }))).toBe('newChat');
    expect(shortcutOf(press('o', 'KeyO', { meta: true, shift: true }))).toBe('newChat');
    expect(shortcutOf(press('Escape', 'Escape', { shift: true }))).toBe('focusComposer');
    expect(shortcutOf(press('C', 'KeyC', { ctrl: true, shift: true }))).toBe('copyLastReply');
    expect(shortcutOf(press('S', 'KeyS', { meta: true, shift: true }))).toBe('toggleSidebar');
    expect(shortcutOf(press('/', 'Slash', { ctrl: true }))).toBe('help');
    expect(shortcutOf(press('k', 'KeyK', { meta: true }))).toBe('palette');
    expect(shortcutOf(press('Escape', 'Escape'))).toBe('stop');
    expect(shortcutOf(press('ArrowUp', 'ArrowUp'))).toBe('editLast');
  });

  it('takes nothing else: plain letters, Ctrl+C, Alt combinations', () => {
    expect(shortcutOf(press('o', 'KeyO'))).toBeNull();
    expect(shortcutOf(press('c', 'KeyC', { ctrl: true }))).toBeNull();
    expect(shortcutOf(press('O', 'KeyO', { ctrl: true, shift: true, alt: true }))).toBeNull();
    expect(shortcutOf(press('k', 'KeyK', { ctrl: true, shift: true }))).toBeNull();
  });
});

describe('shortcutsAllowed', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('allows them from the page and the message box, never from another field nor with a dialog open', () => {
    document.body.innerHTML =
      '<textarea id="composer-input"></textarea><input id="other" /><button id="b"></button><dialog id="d"></dialog>';
    expect(shortcutsAllowed(document.body)).toBe(true);
    expect(shortcutsAllowed(document.getElementById('b'))).toBe(true);
    expect(shortcutsAllowed(document.getElementById('composer-input'))).toBe(true);
    expect(shortcutsAllowed(document.getElementById('other'))).toBe(false);
    document.getElementById('d')!.setAttribute('open', '');
    expect(shortcutsAllowed(document.body)).toBe(false);
    expect(shortcutsAllowed(document.getElementById('composer-input'))).toBe(false);
  });
});

describe('keysLabel', () => {
  it('writes the keys as each platform does', () => {
    const newChat = SHORTCUTS.find((s) => s.id === 'newChat')!.keys;
    expect(keysLabel(newChat, true)).toEqual(['⌘', '⇧', 'O']);
    expect(keysLabel(newChat, false)).toEqual(['Ctrl', 'Shift', 'O']);
  });
});
