import type { User } from '@app/contracts/auth';
import { readStorage, removeStorage, writeStorage } from '../../common/utils/storage';

/** Where to go after a login that leaves the page (phone callback, Google redirect): session storage. */
const NEXT_KEY = 'login_next';
const INVITE_KEY = 'invite_link_id';
/** The number a code was texted to (and the campaign it was asked for), until the sign-in ends. */
const PHONE_KEY = 'login_phone_number';

/** codeSent: a code texted to it may still be entered (false once the server said to ask for a new one). */
export type PendingPhoneLogin = { phoneNumber: string; campaignName: string | null; codeSent: boolean };

/** A code was texted to this number: kept so that the code step comes back after the callback. */
export function rememberPhoneLogin(pending: PendingPhoneLogin): void {
  writeStorage(PHONE_KEY, JSON.stringify(pending), 'session');
}

export function pendingPhoneLogin(): PendingPhoneLogin | null {
  try {
    const value = JSON.parse(readStorage(PHONE_KEY, 'session') ?? 'null') as Partial<PendingPhoneLogin> | null;
    if (typeof value?.phoneNumber !== 'string' || !value.phoneNumber) return null;
    return {
      phoneNumber: value.phoneNumber,
      campaignName: typeof value.campaignName === 'string' ? value.campaignName : null,
      codeSent: value.codeSent === true,
    };
  } catch {
    return null;
  }
}

export function forgetPhoneLogin(): void {
  removeStorage(PHONE_KEY, 'session');
}

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
