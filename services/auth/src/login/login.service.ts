import { Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { LoginOutcome } from '@app/contracts/auth';
import { USER_EVENTS } from '@app/contracts/events';
import { AppLogger, EventPublisher } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { CampaignsService } from '../campaigns/campaigns.service';
import { INVITE_ERROR, InvitesService } from '../invites/invites.service';
import { SessionsService, type ClientInfo } from '../sessions/sessions.service';
import { AuthStore } from '../store/auth-store';
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

export interface SignInContext {
  caller: Caller;
  client: ClientInfo;
  inviteLinkId?: string | null;
  campaignName?: string | null;
  /** The guest to carry over, when it is not the caller (the phone callback is a bare navigation). */
  guestUserId?: string | null;
}

export const inviteFailure = (): LoginOutcome => ({
  token: null,
  error: INVITE_ERROR,
  redirect_url: '/login-invite-error',
  session_id: null,
  expires_at: null,
});

/**
 * The one way into an account, whatever the provider: find the account linked to the identity
 * (or turn the calling guest into it, or create it), redeem the invite, record the campaign, open a
 * session and issue its token. A guest signing in to an existing account has their data moved there.
 */
@Injectable()
export class LoginService {
  constructor(
    private readonly store: AuthStore,
    private readonly sessions: SessionsService,
    private readonly tokens: TokenService,
    private readonly invites: InvitesService,
    private readonly campaigns: CampaignsService,
    private readonly events: EventPublisher,
    private readonly logger: AppLogger,
  ) {}

  async createGuest(client: ClientInfo): Promise<LoginOutcome> {
    const { user, session } = await this.store.transaction(async (repos) => {
      const user = await repos.users.save(repos.users.create({ id: randomUUID(), isAnon: true }));
      return { user, session: await this.sessions.open(repos, user.id, client) };
    });
    await this.events.publish(USER_EVENTS.created, { user_id: user.id, is_anon: true });
    return this.outcome(user, session, null);
  }

  async signIn(profile: VerifiedProfile, context: SignInContext): Promise<LoginOutcome> {
    if (context.inviteLinkId && !(await this.invites.usable(context.inviteLinkId))) return inviteFailure();
    const campaign = context.campaignName ? await this.campaigns.find(context.campaignName) : null;
    const guestId = context.guestUserId ?? (context.caller.is_anon ? context.caller.user_id : null);

    const result = await this.store.transaction(async (repos) => {
      const identity = await repos.users.findIdentity(profile.provider, profile.subject);
      const guest = guestId ? await repos.users.findForUpdate(guestId) : null;
      const usableGuest = guest?.isAnon ? guest : null;
      let user: UserEntity;
      let created = false;
      let mergedGuest: string | null = null;
      const byPhone = !identity && profile.phoneNumber ? await repos.users.findByPhone(profile.phoneNumber) : null;
      if (identity || byPhone) {
        user = (await repos.users.findForUpdate((identity?.userId ?? byPhone?.id)!))!;
        if (usableGuest && usableGuest.id !== user.id) mergedGuest = usableGuest.id;
        if (!identity) await repos.users.addIdentity(user.id, profile.provider, profile.subject, profile.email ?? null);
      } else if (usableGuest) {
        // The guest becomes the account: same id, so everything they did stays theirs.
        user = usableGuest;
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
      if (context.inviteLinkId && !(await this.invites.redeem(repos, context.inviteLinkId, user.id))) return null;
      if (mergedGuest) {
        await this.sessions.revokeAllOf(repos, mergedGuest);
        await repos.users.delete(mergedGuest);
      }
      const session = await this.sessions.open(repos, user.id, context.client);
      return { user, session, created, mergedGuest };
    });
    // The invite was used up between the check and the redemption: nothing was written.
    if (!result) return inviteFailure();

    if (result.created) await this.events.publish(USER_EVENTS.created, { user_id: result.user.id, is_anon: false });
    if (result.mergedGuest) {
      await this.events.publish(USER_EVENTS.merged, { from_user_id: result.mergedGuest, into_user_id: result.user.id });
      this.logger.log({ msg: 'Guest merged into an existing account', from: result.mergedGuest, into: result.user.id }, 'Login');
    }
    return this.outcome(result.user, result.session, campaign?.campaign_name ?? null);
  }

  private async outcome(user: UserEntity, session: { id: string; expiresAt: Date }, campaignName: string | null): Promise<LoginOutcome> {
    const token = await this.tokens.issue({ userId: user.id, sessionId: session.id, isAnon: user.isAnon, expiresAt: session.expiresAt });
    const redirect = user.isAnon ? null : !user.registered ? '/new-user' : campaignName ? `/kba/${campaignName}` : null;
    return { token, error: null, redirect_url: redirect, session_id: session.id, expires_at: session.expiresAt.toISOString() };
  }
}
