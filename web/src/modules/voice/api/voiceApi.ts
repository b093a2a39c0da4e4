import { API } from '@app/contracts/gateway';
import type { RouteBody, RouteResponse } from '@app/contracts/gateway/route';
import { call } from '../../common/api/http';

/** The AI voice configuration (GET /user_config/ai-voice); updates are merged into it. */
export type VoiceConfig = RouteResponse<typeof API.userConfig.aiVoice>;
export type VoiceConfigUpdate = RouteBody<typeof API.userConfig.setAiVoice>;
/** The voices a user may choose, by id (GET /text-to-speech/voices). */
export type VoiceMap = RouteResponse<typeof API.voice.voices>;
export type VoiceInfo = VoiceMap[string];
/** Whether speech-to-text (the voice mode) is configured, and its limits. */
export type SpeechToTextStatus = RouteResponse<typeof API.voice.sttInfo>;

/** Voice calls are skipped (undefined) without a login, and after a 401 (which logs out). */
const skipped = { orElse: undefined };

export const fetchVoiceConfig = () => call(API.userConfig.aiVoice, {}, skipped);
export const postVoiceConfig = (patch: VoiceConfigUpdate) => call(API.userConfig.setAiVoice, { body: patch }, skipped);
export const fetchVoices = () => call(API.voice.voices, {}, skipped);
export const fetchSpeechToTextStatus = () => call(API.voice.sttInfo, {}, skipped);
