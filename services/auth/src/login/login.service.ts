import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { LoginOutcome } from '@app/contracts/auth';
import { USER_EVENTS } from '@app/contracts/events';
import { AppLogger, DomainError } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { CampaignsService } from '../campaigns/campaigns.service';
import { INVITE_ERROR, InvitesService } from '../invites/invites.service';
import { SessionsService, type ClientInfo } from '../sessions/sessions.service';
import { AuthUnitOfWork, type AuthData, type AuthRepositories } from '../store/auth-unit-of-work';
import { TokenService } from '../tokens/token.service';
import type { IdentityProvider } from '../users/identity.entity';
import type { UserEntity } from '../users/user.entity';
import { RecordSignIn, InviteUsedUp } from './usecases/record-sign-in/record-sign-in.usecase';
import { ACCOUNT_BEING_DELETED, ResolveAccount } from './usecases/resolve-account/resolve-account.usecase';

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

export { ACCOUNT_BEING_DELETED };

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

/**
 * The one way into an account, whatever the provider: the account resolved, the sign-in recorded
 * (one use case each, in usecases/), and its token issued. A guest signing in to an existing account
 * has their data moved there. Either way the guest's sessions end: the browser receives the
 * account's token instead. Also guests, and the account of a number that texts the assistant.
 */
@Injectable()
export class LoginService {
  constructor(
    @Inject(AuthUnitOfWork) private readonly store: AuthData,
    private readonly sessions: SessionsService,
    private readonly tokens: TokenService,
    private readonly invites: InvitesService,
    private readonly campaigns: CampaignsService,
    private readonly resolveAccount: ResolveAccount,
    private readonly recordSignIn: RecordSignIn,
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

  /**
   * A sign-in, top to bottom: the invite still usable, the campaign known, then in one transaction
   * the caller's own work (a phone code used up), the account resolved (ResolveAccount) and the
   * sign-in recorded (RecordSignIn); once committed, the ended guest sessions are announced and
   * the token issued.
   */
  async signIn(profile: VerifiedProfile, context: SignInContext): Promise<LoginOutcome> {
    if (context.inviteLinkId && !(await this.invites.usable(context.inviteLinkId))) return inviteFailure();
    const campaign = context.campaignName ? await this.campaigns.find(context.campaignName) : null;
    const campaignName = campaign?.campaign_name ?? null;
    let result;
    try {
      result = await this.store.transaction(async (repos) => {
        if (context.within) await context.within(repos);
        const account = await this.resolveAccount.execute(repos, { profile, guest: context.guest, campaignName });
        return { ...account, ...(await this.recordSignIn.execute(repos, account, context)) };
      });
    } catch (error) {
      if (error instanceof InviteUsedUp) return inviteFailure();
      throw error;
    }
    await this.sessions.announceEnded(result.ended);
    if (result.mergedGuest) {
      this.logger.log({ msg: 'Guest merged into an existing account', from: result.mergedGuest, into: result.user.id }, 'Login');
    }
    return this.outcome(result.user, result.session, campaignName);
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

  private async outcome(user: UserEntity, session: { id: string; expiresAt: Date }, campaignName: string | null): Promise<LoginOutcome> {
    const token = await this.tokens.issue({ userId: user.id, sessionId: session.id, isAnon: user.isAnon, expiresAt: session.expiresAt });
    const redirect = user.isAnon ? null : !user.registered ? '/new-user' : campaignName ? `/kba/${campaignName}` : null;
    return { token, error: null, redirect_url: redirect, session_id: session.id, expires_at: session.expiresAt.toISOString() };
  }
}
