import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { LoginOutcome } from '@app/contracts/auth';
import { USER_EVENTS } from '@app/contracts/events';
import { AppLogger, DomainError } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { CampaignsService } from '../campaigns/campaigns.service';
import { INVITE_ERROR, InvitesService } from '../invites/invites.service';
import { SessionsService, type ClientInfo, type EndedSession } from '../sessions/sessions.service';
import { AuthStore, type AuthData, type AuthRepositories } from '../store/auth-store';
import { TokenService } from '../tokens/token.service';
import type { IdentityProvider } from '../users/identity.entity';
import type { UserEntity } from '../users/user.entity';

/** What a provider vouched for. */
export interface VerifiedProfile {
  provider: IdentityProvider;
  subject: string;
  email?: string | null;
  name?: string | null;
  phoneNumber?: string | null;
}

/** A guest who may be carried into the account: only the guest of the browser that completes the sign-in. */
export interface GuestCandidate {
  userId: string;
  sessionId: string | null;
}

export interface SignInContext {
  client: ClientInfo;
  inviteLinkId?: string | null;
  campaignName?: string | null;
  /**
   * The guest whose browser completes this sign-in (the caller of a provider login; for a phone code,
   * the guest recorded when that same browser asked for it). Carried over only while their session lives.
   */
  guest: GuestCandidate | null;
  /** Work that commits with the sign-in or not at all (a phone code is used up); it throws to refuse. */
  within?: (repos: AuthRepositories) => Promise<void>;
}

export const ACCOUNT_BEING_DELETED = 'This account is being deleted. Try again in a few minutes.';

export const inviteFailure = (): LoginOutcome => ({
  token: null,
  error: INVITE_ERROR,
  redirect_url: '/login-invite-error',
  session_id: null,
  expires_at: null,
});

/** The calling guest, as a candidate to carry into the account (a provider login is made by the browser itself). */
export function callerGuest(caller: Caller): GuestCandidate | null {
  return caller.is_anon && caller.user_id ? { userId: caller.user_id, sessionId: caller.session_id } : null;
}

/** The invite was used up between the check and the redemption: the whole sign-in is rolled back. */
class InviteUsedUp extends Error {}

/**
 * The one way into an account, whatever the provider: find the account linked to the identity
 * (or turn the completing guest into it, or create it), redeem the invite, record the campaign, open
 * a session and issue its token. A guest signing in to an existing account has their data moved
 * there. Either way the guest's sessions end: the browser receives the account's token instead.
 */
@Injectable()
export class LoginService {
  constructor(
    @Inject(AuthStore) private readonly store: AuthData,
    private readonly sessions: SessionsService,
    private readonly tokens: TokenService,
    private readonly invites: InvitesService,
    private readonly campaigns: CampaignsService,
    private readonly logger: AppLogger,
  ) {}

  async createGuest(client: ClientInfo): Promise<LoginOutcome> {
    const { user, session } = await this.store.transaction(async (repos) => {
      const user = await repos.users.save(repos.users.create({ id: randomUUID(), isAnon: true }));
      await repos.events.enqueue(USER_EVENTS.created, { user_id: user.id, is_anon: true });
      return { user, session: await this.sessions.open(repos, user.id, client) };
    });
    return this.outcome(user, session, null);
  }

  async signIn(profile: VerifiedProfile, context: SignInContext): Promise<LoginOutcome> {
    if (context.inviteLinkId && !(await this.invites.usable(context.inviteLinkId))) return inviteFailure();
    const campaign = context.campaignName ? await this.campaigns.find(context.campaignName) : null;

    let result;
    try {
      result = await this.store.transaction(async (repos) => {
        if (context.within) await context.within(repos);
        const identity = await repos.users.findIdentity(profile.provider, profile.subject);
        const guest = context.guest ? await this.liveGuest(repos, context.guest) : null;
        let user: UserEntity;
        let created = false;
        let mergedGuest: string | null = null;
        const byPhone = !identity && profile.phoneNumber ? await repos.users.findByPhone(profile.phoneNumber) : null;
        if (identity || byPhone) {
          user = (await repos.users.findForUpdate((identity?.userId ?? byPhone?.id)!))!;
          if (await repos.deletions.openForUser(user.id)) throw DomainError.conflict(ACCOUNT_BEING_DELETED);
          if (guest && guest.id !== user.id) mergedGuest = guest.id;
          if (!identity) await repos.users.addIdentity(user.id, profile.provider, profile.subject, profile.email ?? null);
        } else if (guest) {
          // The guest becomes the account: same id, so everything they did stays theirs.
          user = guest;
          user.isAnon = false;
          await repos.users.addIdentity(user.id, profile.provider, profile.subject, profile.email ?? null);
        } else {
          user = repos.users.create({ id: randomUUID(), isAnon: false });
          created = true;
        }
        user.email ??= profile.email ?? null;
        user.name ??= profile.name ?? null;
        if (profile.phoneNumber && !user.phoneNumber) user.phoneNumber = profile.phoneNumber;
        if (campaign && !user.campaignName) user.campaignName = campaign.campaign_name;
        user = await repos.users.save(user);
        if (created) await repos.users.addIdentity(user.id, profile.provider, profile.subject, profile.email ?? null);
        if (context.inviteLinkId && !(await this.invites.redeem(repos, context.inviteLinkId, user.id))) throw new InviteUsedUp();
        // The guest's sessions end (merged away or turned into the account): its old token must not outlive it.
        const ended: EndedSession[] = guest ? await this.sessions.endAllOf(repos, guest.id) : [];
        if (mergedGuest) await repos.users.delete(mergedGuest);
        const session = await this.sessions.open(repos, user.id, context.client);
        // In the sign-in's own transaction: told to every service if and only if it happened.
        if (created) await repos.events.enqueue(USER_EVENTS.created, { user_id: user.id, is_anon: false });
        if (mergedGuest) await repos.events.enqueue(USER_EVENTS.merged, { from_user_id: mergedGuest, into_user_id: user.id });
        return { user, session, created, mergedGuest, ended };
      });
    } catch (error) {
      if (error instanceof InviteUsedUp) return inviteFailure();
      throw error;
    }
    await this.sessions.announceEnded(result.ended);
    if (result.mergedGuest) {
      this.logger.log({ msg: 'Guest merged into an existing account', from: result.mergedGuest, into: result.user.id }, 'Login');
    }
    return this.outcome(result.user, result.session, campaign?.campaign_name ?? null);
  }

  /**
   * The account of a phone number without a session (the text service): the account linked to the
   * number's phone identity or holding the number, else a new registered account with that identity.
   * Two first texts at once: the identity is unique, so the loser of the race finds the winner's account.
   */
  async accountForPhone(phoneNumber: string, attempt = 1): Promise<{ user: UserEntity; created: boolean }> {
    try {
      return await this.store.transaction(async (repos) => {
        const identity = await repos.users.findIdentity('phone', phoneNumber);
        const existing = identity ? await repos.users.findForUpdate(identity.userId) : await repos.users.findByPhone(phoneNumber);
        if (existing) {
          if (await repos.deletions.openForUser(existing.id)) throw DomainError.conflict(ACCOUNT_BEING_DELETED);
          if (!identity) await repos.users.addIdentity(existing.id, 'phone', phoneNumber, null);
          return { user: existing, created: false };
        }
        const user = await repos.users.save(repos.users.create({ id: randomUUID(), isAnon: false, phoneNumber }));
        await repos.users.addIdentity(user.id, 'phone', phoneNumber, null);
        await repos.events.enqueue(USER_EVENTS.created, { user_id: user.id, is_anon: false });
        return { user, created: true };
      });
    } catch (error) {
      if (attempt < 3 && !(error instanceof DomainError)) return this.accountForPhone(phoneNumber, attempt + 1);
      throw error;
    }
  }

  /** The candidate guest, locked, if it is still a guest and the session it was seen with still lives. */
  private async liveGuest(repos: AuthRepositories, candidate: GuestCandidate): Promise<UserEntity | null> {
    if (!candidate.sessionId) return null;
    const user = await repos.users.findForUpdate(candidate.userId);
    if (!user?.isAnon) return null;
    const session = await repos.sessions.find(candidate.sessionId);
    const live = session !== null && session.userId === user.id && session.revokedAt === null && session.expiresAt.getTime() > Date.now();
    return live ? user : null;
  }

  private async outcome(user: UserEntity, session: { id: string; expiresAt: Date }, campaignName: string | null): Promise<LoginOutcome> {
    const token = await this.tokens.issue({ userId: user.id, sessionId: session.id, isAnon: user.isAnon, expiresAt: session.expiresAt });
    const redirect = user.isAnon ? null : !user.registered ? '/new-user' : campaignName ? `/kba/${campaignName}` : null;
    return { token, error: null, redirect_url: redirect, session_id: session.id, expires_at: session.expiresAt.toISOString() };
  }
}
