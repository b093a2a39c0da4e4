import { healthContract } from '../common/health';

/** Calls answered by the auth service (subjects `auth.*`). */
export const AUTH_RPC = {
  health: healthContract('auth'),
} as const;
