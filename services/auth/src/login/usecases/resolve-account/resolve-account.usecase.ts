import { Injectable } from '@nestjs/common';
import { DomainError } from '@app/platform';
import { randomUUID } from 'node:crypto';
import type { AuthRepositories } from '../../../store/auth-unit-of-work';
import type { UserEntity } from '../../../users/user.entity';
import type { GuestCandidate, VerifiedProfile } from '../../login.service';

export const ACCOUNT_BEING_DELETED = 'This account is being deleted. Try again in a few minutes.';

/** The account a sign-in reaches, and what happened to reach it. */
export interface ResolvedAccount {
  user: UserEntity;
  /** A new account (no identity, no number, no guest to turn into it). */
  created: boolean;
  /** The completing guest, when their session still lives (their sessions end with the sign-in). */
  guest: UserEntity | null;
  /** The guest folded into an existing account (their data moves there, their row goes). */
  mergedGuest: string | null;
}

/**
 * Step one of a sign-in, inside its transaction: the account linked to the identity, else the
 * account holding the verified phone number, else the completing guest turned into the account
 * (same id, so everything they did stays theirs), else a new account. What the provider vouched
 * for fills what the account lacks (and the campaign it came by, first one wins); the account is
 * saved with its identity.
 */
@Injectable()
export class ResolveAccount {
  async execute(
    repos: AuthRepositories,
    { profile, guest: candidate, campaignName }: { profile: VerifiedProfile; guest: GuestCandidate | null; campaignName: string | null },
  ): Promise<ResolvedAccount> {
    const identity = await repos.users.findIdentity(profile.provider, profile.subject);
    const guest = candidate ? await liveGuest(repos, candidate) : null;
    const byPhone = !identity && profile.phoneNumber ? await repos.users.findByPhone(profile.phoneNumber) : null;
    const addIdentity = (userId: string) => repos.users.addIdentity(userId, profile.provider, profile.subject, profile.email ?? null);
    let user: UserEntity;
    let created = false;
    let mergedGuest: string | null = null;
    if (identity || byPhone) {
      user = (await repos.users.findForUpdate((identity?.userId ?? byPhone?.id)!))!;
      if (await repos.deletions.openForUser(user.id)) throw DomainError.conflict(ACCOUNT_BEING_DELETED);
      if (guest && guest.id !== user.id) mergedGuest = guest.id;
      if (!identity) await addIdentity(user.id);
    } else if (guest) {
      user = guest;
      user.isAnon = false;
      await addIdentity(user.id);
    } else {
      user = repos.users.create({ id: randomUUID(), isAnon: false });
      created = true;
    }
    user.email ??= profile.email ?? null;
    user.name ??= profile.name ?? null;
    if (profile.phoneNumber && !user.phoneNumber) user.phoneNumber = profile.phoneNumber;
    if (campaignName && !user.campaignName) user.campaignName = campaignName;
    user = await repos.users.save(user);
    if (created) await addIdentity(user.id);
    return { user, created, guest, mergedGuest };
  }
}

/** The candidate guest, locked, if it is still a guest and the session it was seen with still lives. */
async function liveGuest(repos: AuthRepositories, candidate: GuestCandidate): Promise<UserEntity | null> {
  if (!candidate.sessionId) return null;
  const user = await repos.users.findForUpdate(candidate.userId);
  if (!user?.isAnon) return null;
  const session = await repos.sessions.find(candidate.sessionId);
  const live = session !== null && session.userId === user.id && session.revokedAt === null && session.expiresAt.getTime() > Date.now();
  return live ? user : null;
}
