import { describe, expect, it } from 'vitest';
import { initialSidebarOpen, sidebarStore, toggleSidebar, viewportWidth } from './sidebarStore';

describe('sidebar rules (section 4)', () => {
  it('from 768 px: always open for a logged-out visitor, whatever is stored', () => {
    expect(initialSidebarOpen(false, 768, 'false')).toBe(true);
    expect(initialSidebarOpen(false, 1440, null)).toBe(true);
  });

  it('from 768 px: a logged-in user gets the stored preference, open when nothing is stored', () => {
    expect(initialSidebarOpen(true, 1024, null)).toBe(true);
    expect(initialSidebarOpen(true, 1024, 'false')).toBe(false);
    expect(initialSidebarOpen(true, 1024, 'true')).toBe(true);
  });

  it('below 768 px: open only when the stored preference is the string true', () => {
    expect(initialSidebarOpen(false, 767, null)).toBe(false);
    expect(initialSidebarOpen(true, 390, null)).toBe(false);
    expect(initialSidebarOpen(true, 390, 'yes')).toBe(false);
    expect(initialSidebarOpen(true, 390, 'true')).toBe(true);
    expect(initialSidebarOpen(false, 390, 'true')).toBe(true);
  });

  it('assumes 1024 without a window width', () => {
    const original = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 0 });
    expect(viewportWidth()).toBe(1024);
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: original });
  });

  it('toggling flips it and stores it under sidebarOpen', () => {
    sidebarStore.set({ sidebarOpen: true });
    toggleSidebar();
    expect(sidebarStore.get().sidebarOpen).toBe(false);
    expect(localStorage.getItem('sidebarOpen')).toBe('false');
    toggleSidebar();
    expect(localStorage.getItem('sidebarOpen')).toBe('true');
  });
});
