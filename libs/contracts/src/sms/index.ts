import { healthContract } from '../common/health';

/** Calls answered by the sms service (subjects `sms.*`). */
export const SMS_RPC = {
  health: healthContract('sms'),
} as const;
