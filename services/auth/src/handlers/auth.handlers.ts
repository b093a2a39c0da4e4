import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { USER_EVENTS } from '@app/contracts/events';
import { EventHandler, RpcHandler, type EventInput, type RpcInput } from '@app/platform';
import { AccountService } from '../account/account.service';
import { CampaignsService } from '../campaigns/campaigns.service';
import { InvitesService } from '../invites/invites.service';
import { LoginService } from '../login/login.service';
import { PhoneLoginService } from '../login/phone-login.service';
import { ProviderLoginService } from '../login/providers/provider-login.service';
import { SignInWithProvider } from '../login/usecases/sign-in-with-provider/sign-in-with-provider.usecase';
import { SessionsService } from '../sessions/sessions.service';
import { TokenService } from '../tokens/token.service';
import { UsersService } from '../users/users.service';

/**
 * The auth service's calls, each handed to the service that answers it; a provider's sign-in is two
 * steps (the provider's token verified, then the sign-in), so the two services stay apart.
 */
@Controller()
export class AuthHandlers {
  constructor(
    private readonly tokens: TokenService,
    private readonly login: LoginService,
    private readonly phone: PhoneLoginService,
    private readonly providers: ProviderLoginService,
    private readonly providerSignIn: SignInWithProvider,
    private readonly users: UsersService,
    private readonly invites: InvitesService,
    private readonly campaigns: CampaignsService,
    private readonly account: AccountService,
    private readonly sessions: SessionsService,
  ) {}

  @RpcHandler(AUTH_RPC.keys)
  keys() {
    return this.tokens.publicKeys();
  }

  @RpcHandler(AUTH_RPC.providers)
  providerConfig() {
    return this.providers.providers();
  }

  @RpcHandler(AUTH_RPC.createGuest)
  createGuest({ data }: RpcInput<typeof AUTH_RPC.createGuest>) {
    return this.login.createGuest(data.client);
  }

  @RpcHandler(AUTH_RPC.sendPhoneCode)
  sendPhoneCode({ caller, data }: RpcInput<typeof AUTH_RPC.sendPhoneCode>) {
    return this.phone.sendCode(caller, data);
  }

  @RpcHandler(AUTH_RPC.verifyPhoneCode)
  verifyPhoneCode({ data }: RpcInput<typeof AUTH_RPC.verifyPhoneCode>) {
    return this.phone.verifyCode(data);
  }

  @RpcHandler(AUTH_RPC.loginGoogle)
  loginGoogle({ caller, data }: RpcInput<typeof AUTH_RPC.loginGoogle>) {
    return this.providerSignIn.execute('google', caller, data);
  }

  @RpcHandler(AUTH_RPC.loginApple)
  loginApple({ caller, data }: RpcInput<typeof AUTH_RPC.loginApple>) {
    return this.providerSignIn.execute('apple', caller, data);
  }

  @RpcHandler(AUTH_RPC.loginFirebase)
  loginFirebase({ caller, data }: RpcInput<typeof AUTH_RPC.loginFirebase>) {
    return this.providerSignIn.execute('firebase', caller, data);
  }

  @RpcHandler(AUTH_RPC.accountForPhone)
  accountForPhone({ data }: RpcInput<typeof AUTH_RPC.accountForPhone>) {
    return this.phone.accountForNumber(data.phone_number);
  }

  @RpcHandler(AUTH_RPC.me)
  me({ caller }: RpcInput<typeof AUTH_RPC.me>) {
    return this.users.me(caller);
  }

  @RpcHandler(AUTH_RPC.logout)
  logout({ caller, data }: RpcInput<typeof AUTH_RPC.logout>) {
    return this.sessions.logout(caller, data.all ?? false);
  }

  @RpcHandler(AUTH_RPC.sessionStatus)
  sessionStatus({ data }: RpcInput<typeof AUTH_RPC.sessionStatus>) {
    return this.sessions.status(data.session_id, data.user_id);
  }

  @RpcHandler(AUTH_RPC.onboardingAge)
  onboardingAge({ caller, data }: RpcInput<typeof AUTH_RPC.onboardingAge>) {
    return this.users.confirmAge(caller, data.birth_date);
  }

  @RpcHandler(AUTH_RPC.onboardingProfile)
  onboardingProfile({ caller, data }: RpcInput<typeof AUTH_RPC.onboardingProfile>) {
    return this.users.setName(caller, data.name);
  }

  @RpcHandler(AUTH_RPC.onboardingDone)
  onboardingDone({ caller }: RpcInput<typeof AUTH_RPC.onboardingDone>) {
    return this.users.finishOnboarding(caller);
  }

  @RpcHandler(AUTH_RPC.createInvite)
  createInvite({ caller, data }: RpcInput<typeof AUTH_RPC.createInvite>) {
    return this.invites.create(caller, data);
  }

  @RpcHandler(AUTH_RPC.campaign)
  campaign({ data }: RpcInput<typeof AUTH_RPC.campaign>) {
    return this.campaigns.get(data.campaign_name);
  }

  @RpcHandler(AUTH_RPC.deleteAccount)
  deleteAccount({ caller }: RpcInput<typeof AUTH_RPC.deleteAccount>) {
    return this.account.delete(caller);
  }

  @EventHandler(USER_EVENTS.purged)
  purged({ payload }: EventInput<typeof USER_EVENTS.purged>) {
    return this.account.confirmPurge(payload.deletion_id, payload.service);
  }
}
