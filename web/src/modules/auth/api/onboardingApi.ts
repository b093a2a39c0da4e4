import type { User } from '@app/contracts/auth';
import { jsonBody } from '../../common/api/http';
import { writeCall } from '../../common/api/dataCall';

const ONBOARDING = '/api/v1/onboarding';

/** Confirms the age (403 with a clear message under 18). */
export const confirmAge = (birthDate: string) => writeCall<User>(`${ONBOARDING}/age`, { method: 'POST', ...jsonBody({ birth_date: birthDate }) });
export const saveProfile = (name: string) => writeCall<User>(`${ONBOARDING}/profile`, { method: 'POST', ...jsonBody({ name }) });
export const finishOnboarding = () => writeCall<User>(`${ONBOARDING}/done`, { method: 'POST', ...jsonBody({}) });
