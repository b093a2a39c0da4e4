import { optionalCall } from '../../common/api/dataCall';
import { jsonBody } from '../../common/api/http';

/** The AI voice configuration: min_chars and openai_model at least; updates are merged into it. */
export type VoiceConfig = { min_chars?: number; openai_model?: string; voice?: string; speed?: number; auto_read_aloud?: boolean } & Record<
  string,
  unknown
>;
export type VoiceMap = Record<string, VoiceInfo>;

export const fetchVoiceConfig = () => optionalCall<VoiceConfig>('/api/v1/user_config/ai-voice');
export const postVoiceConfig = (patch: Partial<VoiceConfig>) =>
  optionalCall<VoiceConfig>('/api/v1/user_config/ai-voice', { method: 'POST', ...jsonBody(patch) });
export const fetchVoices = () => optionalCall<VoiceMap>('/api/v1/text-to-speech/voices');

/** A voice as GET /text-to-speech/voices describes it. */
export type VoiceInfo = { label?: string; language?: string; engine?: string; preview_text?: string };

export type SpeechToTextStatus = {
  available: boolean;
  engine: string | null;
  max_seconds: number;
  max_bytes: number;
  /** While not available: the one command that starts the speech-to-text server the deployment looks for. */
  setup_command?: string | null;
};

export const fetchSpeechToTextStatus = () => optionalCall<SpeechToTextStatus>('/api/v1/speech-to-text');
