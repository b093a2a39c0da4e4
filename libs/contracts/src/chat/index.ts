import { healthContract } from '../common/health';

/** Calls answered by the chat service (subjects `chat.*`). */
export const CHAT_RPC = {
  health: healthContract('chat'),
} as const;
