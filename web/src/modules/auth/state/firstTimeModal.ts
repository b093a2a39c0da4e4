import { readStorage, removeStorage, STORAGE_KEYS, writeStorage } from '../../common/utils/storage';
import type { AuthStatus } from './authStore';

/** Paths on which a guest is never shown the welcome dialog (section 2). */
export function isWelcomeExcludedPath(pathname: string): boolean {
  return (
    ['/terms', '/privacy', '/text', '/about'].includes(pathname.replace(/\/+$/, '') || '/') ||
    pathname.startsWith('/group-search/invite/') ||
    pathname === '/kba' ||
    pathname.startsWith('/kba/')
  );
}

export function firstTimeModalShown(): boolean {
  return readStorage(STORAGE_KEYS.firstTimeModal) === 'true';
}

/** Guests see the welcome / sign-up dialog once, except on the excluded paths. */
export function shouldShowFirstTimeModal(status: AuthStatus, pathname: string): boolean {
  return status === 'anonymous' && !firstTimeModalShown() && !isWelcomeExcludedPath(pathname);
}

export function markFirstTimeModalShown(): void {
  writeStorage(STORAGE_KEYS.firstTimeModal, 'true');
}

/** Removing the flag shows the dialog again. */
export function resetFirstTimeModal(): void {
  removeStorage(STORAGE_KEYS.firstTimeModal);
}

export function firstTimeDotHidden(): boolean {
  return readStorage(STORAGE_KEYS.firstTimeDot) === 'true';
}

export function hideFirstTimeDot(): void {
  writeStorage(STORAGE_KEYS.firstTimeDot, 'true');
}
