import { API } from '@app/contracts/gateway';
import { routeCall } from '../../common/api/http';
import { writeCall } from '../../common/api/dataCall';

/** Confirms the age (403 with a clear message under 18). */
export const confirmAge = (birthDate: string) => writeCall(routeCall(API.onboarding.age, { body: { birth_date: birthDate } }));
export const saveProfile = (name: string) => writeCall(routeCall(API.onboarding.profile, { body: { name } }));
export const finishOnboarding = () => writeCall(routeCall(API.onboarding.done, {}));
