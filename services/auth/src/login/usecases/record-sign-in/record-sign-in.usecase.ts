import { Injectable } from '@nestjs/common';
import { USER_EVENTS } from '@app/contracts/events';
import { InvitesService } from '../../../invites/invites.service';
import { SessionsService, type ClientInfo, type EndedSession } from '../../../sessions/sessions.service';
import type { AuthRepositories } from '../../../store/auth-unit-of-work';
import type { ResolvedAccount } from '../resolve-account/resolve-account.usecase';

/** The invite was used up between the check and the redemption: the whole sign-in is rolled back. */
export class InviteUsedUp extends Error {}

/**
 * Step two of a sign-in, in the same transaction as step one: the invite is redeemed, the guest's
 * sessions end (merged away or turned into the account: its old token must not outlive it), a
 * merged guest's row goes, the account's session opens, and the events are written (told to every
 * service if and only if the sign-in happened). The ended sessions are announced once committed.
 */
@Injectable()
export class RecordSignIn {
  constructor(
    private readonly sessions: SessionsService,
    private readonly invites: InvitesService,
  ) {}

  async execute(
    repos: AuthRepositories,
    account: ResolvedAccount,
    context: { client: ClientInfo; inviteLinkId?: string | null },
  ): Promise<{ session: EndedSession; ended: EndedSession[] }> {
    const { user, guest, mergedGuest, created } = account;
    if (context.inviteLinkId && !(await this.invites.redeem(repos, context.inviteLinkId, user.id))) throw new InviteUsedUp();
    const ended: EndedSession[] = guest ? await this.sessions.endAllOf(repos, guest.id) : [];
    if (mergedGuest) await repos.users.delete(mergedGuest);
    const session = await this.sessions.open(repos, user.id, context.client);
    if (created) await repos.events.enqueue(USER_EVENTS.created, { user_id: user.id, is_anon: false });
    if (mergedGuest) await repos.events.enqueue(USER_EVENTS.merged, { from_user_id: mergedGuest, into_user_id: user.id });
    return { session, ended };
  }
}
