import { describe, expect, it } from 'vitest';
import { applyTheme, setDarkMode, storedDarkMode, themeStore, toggleDarkMode } from './themeStore';

describe('dark mode (section 4)', () => {
  it('is on by default', () => {
    expect(storedDarkMode()).toBe(true);
    localStorage.setItem('isDarkMode', 'false');
    expect(storedDarkMode()).toBe(false);
  });

  it('toggling stores true/false and sets or removes the theme attribute on the document root', () => {
    setDarkMode(true);
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    toggleDarkMode();
    expect(localStorage.getItem('isDarkMode')).toBe('false');
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(themeStore.get().isDarkMode).toBe(false);
    toggleDarkMode();
    expect(localStorage.getItem('isDarkMode')).toBe('true');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
  });

  it('applies the attribute without touching storage', () => {
    applyTheme(false);
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem('isDarkMode')).toBeNull();
  });
});
