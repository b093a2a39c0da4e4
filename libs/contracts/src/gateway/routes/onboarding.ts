import { AUTH_RPC, OnboardingAgeBodySchema, OnboardingProfileBodySchema, UserSchema } from '../../auth/index';
import { defineRoute } from '../route';

/** The routes of the area `onboarding` (`API.onboarding`). */
export const onboardingRoutes = {
  age: defineRoute({
    method: 'POST',
    path: '/api/v1/onboarding/age',
    summary: 'Confirm the age of majority (18)',
    tag: 'onboarding',
    auth: 'bearer',
    body: OnboardingAgeBodySchema,
    response: UserSchema,
    errors: { 403: 'Under the age of majority' },
    rpc: AUTH_RPC.onboardingAge,
  }),
  profile: defineRoute({
    method: 'POST',
    path: '/api/v1/onboarding/profile',
    summary: 'Set the name',
    tag: 'onboarding',
    auth: 'bearer',
    body: OnboardingProfileBodySchema,
    response: UserSchema,
    rpc: AUTH_RPC.onboardingProfile,
  }),
  done: defineRoute({
    method: 'POST',
    path: '/api/v1/onboarding/done',
    summary: 'Finish onboarding',
    tag: 'onboarding',
    auth: 'bearer',
    response: UserSchema,
    rpc: AUTH_RPC.onboardingDone,
  }),
} as const;
