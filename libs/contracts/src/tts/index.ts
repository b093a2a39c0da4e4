import { healthContract } from '../common/health';

/** Calls answered by the tts service (subjects `tts.*`). */
export const TTS_RPC = {
  health: healthContract('tts'),
} as const;
