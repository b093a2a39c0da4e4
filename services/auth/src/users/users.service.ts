import { Injectable } from '@nestjs/common';
import type { User } from '@app/contracts/auth';
import { PRODUCT_CONSTANTS, type Caller } from '@app/contracts';
import { DomainError, userIdOf } from '@app/platform';
import { AuthUnitOfWork } from '../store/auth-unit-of-work';
import type { UserEntity } from './user.entity';

export function toUserView(user: UserEntity): User {
  return {
    user_id: user.id,
    name: user.name,
    email: user.email,
    phone_number: user.phoneNumber,
    is_anon: user.isAnon,
    onboarding_config: { registered: user.registered, onboarding_done: user.onboardingDone },
    campaign_name: user.campaignName,
    created_at: user.createdAt.toISOString(),
  };
}

/** Whole years between a birth date and today (UTC). */
export function ageOn(birthDate: string, today = new Date()): number {
  const [y, m, d] = birthDate.split('-').map(Number);
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age -= 1;
  return age;
}

/** The user's own record and onboarding (new-user -> onboarding -> confirm-memories -> done). */
@Injectable()
export class UsersService {
  constructor(private readonly store: AuthUnitOfWork) {}

  async me(caller: Caller): Promise<User> {
    return toUserView(await this.requireUser(caller));
  }

  async confirmAge(caller: Caller, birthDate: string): Promise<User> {
    const age = ageOn(birthDate);
    if (age < 0 || age > 130) throw DomainError.badRequest('This date of birth is not possible. Check the year.');
    return this.update(caller, (user) => {
      if (age < PRODUCT_CONSTANTS.minimumAge) {
        throw DomainError.forbidden(`You must be ${PRODUCT_CONSTANTS.minimumAge} or older to use the assistant.`);
      }
      user.adultConfirmedAt ??= new Date();
      if (user.name) user.registered = true;
    });
  }

  async setName(caller: Caller, name: string): Promise<User> {
    return this.update(caller, (user) => {
      user.name = name;
      if (user.adultConfirmedAt) user.registered = true;
    });
  }

  async finishOnboarding(caller: Caller): Promise<User> {
    return this.update(caller, (user) => {
      if (!user.registered) throw DomainError.conflict('Confirm your age and your name first.');
      user.onboardingDone = true;
    });
  }

  private async update(caller: Caller, change: (user: UserEntity) => void): Promise<User> {
    if (caller.is_anon) throw DomainError.forbidden('Sign in to continue.');
    return this.store.transaction(async (repos) => {
      const user = await repos.users.findForUpdate(userIdOf(caller));
      if (!user) throw DomainError.unauthorized();
      change(user);
      return toUserView(await repos.users.save(user));
    });
  }

  private async requireUser(caller: Caller): Promise<UserEntity> {
    const user = await this.store.repos.users.find(userIdOf(caller));
    if (!user) throw DomainError.unauthorized();
    return user;
  }
}
