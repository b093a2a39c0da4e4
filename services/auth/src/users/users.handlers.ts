import { Controller } from '@nestjs/common';
import { AUTH_RPC } from '@app/contracts/auth';
import { RpcHandler, type RpcInput } from '@app/platform';
import { UsersService } from './users.service';

/** The signed-in user and their onboarding. */
@Controller()
export class UsersHandlers {
  constructor(private readonly users: UsersService) {}

  @RpcHandler(AUTH_RPC.me)
  me({ caller }: RpcInput<typeof AUTH_RPC.me>) {
    return this.users.me(caller);
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
}
