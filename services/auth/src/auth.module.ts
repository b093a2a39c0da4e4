import { Module } from '@nestjs/common';
import { AccountService } from './account/account.service';
import { CampaignsService } from './campaigns/campaigns.service';
import { TokensHandlers } from './tokens/tokens.handlers';
import { LoginHandlers } from './login/login.handlers';
import { UsersHandlers } from './users/users.handlers';
import { SessionsHandlers } from './sessions/sessions.handlers';
import { InvitesHandlers } from './invites/invites.handlers';
import { CampaignsHandlers } from './campaigns/campaigns.handlers';
import { AccountHandlers } from './account/account.handlers';
import { InvitesService } from './invites/invites.service';
import { LoginService } from './login/login.service';
import { PhoneLoginService } from './login/phone-login.service';
import { ProviderLoginService } from './login/providers/provider-login.service';
import { RecordSignIn } from './login/usecases/record-sign-in/record-sign-in.usecase';
import { ResolveAccount } from './login/usecases/resolve-account/resolve-account.usecase';
import { SignInWithProvider } from './login/usecases/sign-in-with-provider/sign-in-with-provider.usecase';
import { SessionsService } from './sessions/sessions.service';
import { AuthUnitOfWork } from './store/auth-unit-of-work';
import { keyEnvelopeProvider } from './tokens/key-envelope';
import { TokenService } from './tokens/token.service';
import { UsersService } from './users/users.service';

/**
 * The auth service: guests, sign-in by phone code, Google, Apple and Firebase, sessions and their
 * tokens, onboarding, invites, campaigns and account deletion.
 */
@Module({
  controllers: [TokensHandlers, LoginHandlers, UsersHandlers, SessionsHandlers, InvitesHandlers, CampaignsHandlers, AccountHandlers],
  providers: [
    AuthUnitOfWork,
    keyEnvelopeProvider,
    TokenService,
    SessionsService,
    UsersService,
    InvitesService,
    CampaignsService,
    ResolveAccount,
    RecordSignIn,
    LoginService,
    SignInWithProvider,
    PhoneLoginService,
    ProviderLoginService,
    AccountService,
  ],
})
export class AuthModule {}
