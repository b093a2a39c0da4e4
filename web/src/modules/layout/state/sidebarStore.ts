import { PRODUCT_CONSTANTS } from '@app/contracts/common/constants';
import { createStore, useStore } from '../../common/state/createStore';
import { readStorage, STORAGE_KEYS, writeStorage } from '../../common/utils/storage';

/** Without a window width, 1024 is assumed (section 4). */
export function viewportWidth(): number {
  return typeof window !== 'undefined' && typeof window.innerWidth === 'number' && window.innerWidth > 0 ? window.innerWidth : 1024;
}

export function isWideViewport(width = viewportWidth()): boolean {
  return width >= PRODUCT_CONSTANTS.sidebarBreakpointPx;
}

/**
 * The sidebar rule of section 4: from 768 px a logged-out visitor always sees it open and a
 * logged-in user gets the stored preference (open when nothing is stored); narrower, it is open
 * only when the stored preference is the string 'true'.
 */
export function initialSidebarOpen(isLoggedIn: boolean, width = viewportWidth(), stored = readStorage(STORAGE_KEYS.sidebarOpen)): boolean {
  if (isWideViewport(width)) {
    if (!isLoggedIn) return true;
    return stored === null ? true : stored === 'true';
  }
  return stored === 'true';
}

export const sidebarStore = createStore(() => ({ sidebarOpen: initialSidebarOpen(false) }));

export function applySidebarRule(isLoggedIn: boolean): void {
  sidebarStore.set({ sidebarOpen: initialSidebarOpen(isLoggedIn) });
}

/** Flips it and stores the new value under sidebarOpen. */
export function toggleSidebar(): void {
  setSidebarOpen(!sidebarStore.get().sidebarOpen);
}

export function setSidebarOpen(open: boolean): void {
  writeStorage(STORAGE_KEYS.sidebarOpen, open ? 'true' : 'false');
  sidebarStore.set({ sidebarOpen: open });
}

/** After a choice in the sidebar: on a narrow screen it gets out of the way. */
export function closeSidebarOnNarrow(): void {
  if (!isWideViewport()) setSidebarOpen(false);
}

export const useSidebarOpen = () => useStore(sidebarStore, (s) => s.sidebarOpen);
