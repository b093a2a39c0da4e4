import { optionalCall } from '../../common/api/dataCall';
import { jsonBody } from '../../common/api/http';

/** The AI voice configuration: min_chars and openai_model at least; updates are merged into it. */
export type VoiceConfig = { min_chars?: number; openai_model?: string; voice?: string; speed?: number; auto_read_aloud?: boolean } & Record<string, unknown>;
export type VoiceMap = Record<string, unknown>;

export const fetchVoiceConfig = () => optionalCall<VoiceConfig>('/api/v1/user_config/ai-voice');
export const postVoiceConfig = (patch: Partial<VoiceConfig>) => optionalCall<VoiceConfig>('/api/v1/user_config/ai-voice', { method: 'POST', ...jsonBody(patch) });
export const fetchVoices = () => optionalCall<VoiceMap>('/api/v1/text-to-speech/voices');
