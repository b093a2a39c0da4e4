import { createStore, useStore } from '../../common/state/createStore';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../common/utils/storage';

/** Dark is the default: only a stored 'false' turns it off. */
export function storedDarkMode(): boolean {
  return readStorage(STORAGE_KEYS.isDarkMode) !== 'false';
}

/** The theme attribute on the document root: set when dark, removed when light. */
export function applyTheme(dark: boolean): void {
  const root = document.documentElement;
  if (dark) root.setAttribute('data-theme', 'dark');
  else root.removeAttribute('data-theme');
  root.style.colorScheme = dark ? 'dark' : 'light';
}

export const themeStore = createStore(() => ({ isDarkMode: storedDarkMode() }));

export function setDarkMode(dark: boolean): void {
  writeStorage(STORAGE_KEYS.isDarkMode, dark ? 'true' : 'false');
  applyTheme(dark);
  themeStore.set({ isDarkMode: dark });
}

export function toggleDarkMode(): void {
  setDarkMode(!themeStore.get().isDarkMode);
}

export const useDarkMode = () => useStore(themeStore, (s) => s.isDarkMode);
