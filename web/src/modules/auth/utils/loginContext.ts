import type { User } from '@app/contracts/auth';
import { readStorage, removeStorage, writeStorage } from '../../common/utils/storage';

/** Where to go after a login that leaves the page (phone callback, Google redirect): session storage. */
const NEXT_KEY = 'login_next';
const INVITE_KEY = 'invite_link_id';

export function rememberNext(path: string | null): void {
  if (path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/login')) writeStorage(NEXT_KEY, path, 'session');
}

export function takeNext(): string | null {
  const next = readStorage(NEXT_KEY, 'session');
  removeStorage(NEXT_KEY, 'session');
  return next;
}

export function rememberInvite(inviteLinkId: string | null): void {
  if (inviteLinkId) writeStorage(INVITE_KEY, inviteLinkId, 'session');
}

export function currentInvite(): string | null {
  return readStorage(INVITE_KEY, 'session');
}

export function clearInvite(): void {
  removeStorage(INVITE_KEY, 'session');
}

/** After a login: unregistered users onboard first; otherwise the server's target, the remembered page, or the chat. */
export function destinationAfterLogin(user: User, redirectUrl: string | null = null, next: string | null = null): string {
  if (!user.is_anon && !user.onboarding_config.registered) return '/new-user';
  if (redirectUrl && redirectUrl.startsWith('/') && !redirectUrl.startsWith('//')) return redirectUrl;
  return next ?? '/chat';
}
