import { healthContract } from '../common/health';

/** Calls answered by the files service (subjects `files.*`). */
export const FILES_RPC = {
  health: healthContract('files'),
} as const;
