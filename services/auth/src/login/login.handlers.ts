import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { RpcHandler, type RpcInput } from '@app/platform';
import { LoginService } from './login.service';
import { PhoneLoginService } from './phone-login.service';
import { ProviderLoginService } from './providers/provider-login.service';
import { SignInWithProvider } from './usecases/sign-in-with-provider/sign-in-with-provider.usecase';

/**
 * The sign-ins: a guest, a phone code, a provider's token (verified, then signed in: two steps, so
 * the two services stay apart).
 */
@Controller()
export class LoginHandlers {
  constructor(
    private readonly login: LoginService,
    private readonly phone: PhoneLoginService,
    private readonly providers: ProviderLoginService,
    private readonly providerSignIn: SignInWithProvider,
  ) {}

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
}
