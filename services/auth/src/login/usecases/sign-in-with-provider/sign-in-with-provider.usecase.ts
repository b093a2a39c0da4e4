import { Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import type { LoginOutcome } from '@app/contracts/auth';
import type { ClientInfo } from '../../../sessions/sessions.service';
import { callerGuest, LoginService, type VerifiedProfile } from '../../login.service';
import { ProviderLoginService } from '../../providers/provider-login.service';

type Providers = Pick<ProviderLoginService, 'google' | 'apple' | 'firebase'>;
export type SignInProvider = keyof Providers;

/** What a provider sign-in brings besides the provider's own proof. */
interface SignInFields {
  client: ClientInfo;
  invite_link_id?: string | null;
  campaign_name?: string | null;
}

/**
 * A sign-in with Google, Apple or Firebase: the provider's proof verified (ProviderLoginService),
 * then the one sign-in (LoginService), the calling guest carried into the account when their
 * session still lives.
 */
@Injectable()
export class SignInWithProvider {
  constructor(
    private readonly providers: ProviderLoginService,
    private readonly login: LoginService,
  ) {}

  async execute<P extends SignInProvider>(
    provider: P,
    caller: Caller,
    data: Parameters<Providers[P]>[0] & SignInFields,
  ): Promise<LoginOutcome> {
    const verify = this.providers[provider].bind(this.providers) as (input: typeof data) => Promise<VerifiedProfile>;
    const profile = await verify(data);
    return this.login.signIn(profile, {
      guest: callerGuest(caller),
      client: data.client,
      inviteLinkId: data.invite_link_id,
      campaignName: data.campaign_name,
    });
  }
}
