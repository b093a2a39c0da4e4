import { API } from '@app/contracts/gateway';
import { call } from '../../common/api/http';

/** Confirms the age (403 with a clear message under 18). */
export const confirmAge = (birthDate: string) => call(API.onboarding.age, { body: { birth_date: birthDate } });
export const saveProfile = (name: string) => call(API.onboarding.profile, { body: { name } });
export const finishOnboarding = () => call(API.onboarding.done, {});
