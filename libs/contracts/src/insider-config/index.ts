import { healthContract } from '../common/health';

/** Calls answered by the insider-config service (subjects `insider-config.*`). */
export const INSIDER_CONFIG_RPC = {
  health: healthContract('insider-config'),
} as const;
