import { healthContract } from '../common/health';

/** Calls answered by the memory service (subjects `memory.*`). */
export const MEMORY_RPC = {
  health: healthContract('memory'),
} as const;
