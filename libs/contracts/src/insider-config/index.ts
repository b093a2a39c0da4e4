import { z } from 'zod';
import { defineRpc } from '../common/contract';
import { commonCalls } from '../common/service-calls';

// ---- Insider mode and flags (spec sections 3, 4 and 6) ----------------------------------------

/** The five insider flags (spec section 3): nullable, except can_create_invite. */
export const InsiderFlagsSchema = z.object({
  dislike_button_verbose_feedback: z.boolean().nullable(),
  show_rewritten_user_message: z.boolean().nullable(),
  show_auto_model_selection: z.boolean().nullable(),
  enable_ko_search: z.boolean().nullable(),
  can_create_invite: z.boolean(),
});
export type InsiderFlags = z.infer<typeof InsiderFlagsSchema>;

/** `POST .../insider-flags`: any subset of the five flags, nothing else. */
export const InsiderFlagsUpdateSchema = InsiderFlagsSchema.partial().strict();
export type InsiderFlagsUpdate = z.infer<typeof InsiderFlagsUpdateSchema>;

export const InsiderStatusSchema = z.object({ is_insider: z.boolean(), is_insider_enabled: z.boolean() });
export type InsiderStatus = z.infer<typeof InsiderStatusSchema>;

/** `POST .../insider-mode`: the user's switch (only an insider may turn it on). */
export const InsiderModeBodySchema = z.object({ is_insider_enabled: z.boolean() }).strict();
export type InsiderModeBody = z.infer<typeof InsiderModeBodySchema>;

// ---- AI voice settings (spec sections 3 and 4) -------------------------------------------------

/** Text-to-speech models a user may pick. */
export const TTS_MODELS = ['gpt-4o-mini-tts', 'tts-1', 'tts-1-hd'] as const;
export type TtsModel = (typeof TTS_MODELS)[number];

/** Voices a user may pick; the older models (tts-1, tts-1-hd) lack some (see voiceAvailable). */
export const TTS_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'cedar',
  'coral',
  'echo',
  'fable',
  'marin',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const;
export type TtsVoice = (typeof TTS_VOICES)[number];

const NEWER_MODEL_VOICES: readonly TtsVoice[] = ['ballad', 'cedar', 'marin', 'verse'];

/** Whether a model speaks with a voice (tts-1 and tts-1-hd do not have the newer voices). */
export function voiceAvailable(model: TtsModel, voice: TtsVoice): boolean {
  return model === 'gpt-4o-mini-tts' || !NEWER_MODEL_VOICES.includes(voice);
}

export const AI_VOICE_LIMITS = {
  minChars: { min: 20, max: 2000 },
  speed: { min: 0.25, max: 4 },
} as const;

const AiVoiceFieldsSchema = z.object({
  /** The shortest chunk read aloud while a reply streams (spec section 4). */
  min_chars: z.number().int().min(AI_VOICE_LIMITS.minChars.min).max(AI_VOICE_LIMITS.minChars.max),
  openai_model: z.enum(TTS_MODELS),
  voice: z.enum(TTS_VOICES),
  speed: z.number().min(AI_VOICE_LIMITS.speed.min).max(AI_VOICE_LIMITS.speed.max),
  auto_read_aloud: z.boolean(),
});

/** A user's AI voice settings, whole: each field in range and the voice available with the model. */
export const AiVoiceConfigSchema = AiVoiceFieldsSchema.superRefine((config, context) => {
  if (!voiceAvailable(config.openai_model, config.voice)) {
    context.addIssue({ code: 'custom', path: ['voice'], message: `${config.voice} is not available with ${config.openai_model}` });
  }
});
export type AiVoiceConfig = z.infer<typeof AiVoiceConfigSchema>;

/** `POST .../ai-voice`: the changed settings, merged into the stored ones (the result is checked whole). */
export const AiVoiceConfigUpdateSchema = AiVoiceFieldsSchema.partial().strict();
export type AiVoiceConfigUpdate = z.infer<typeof AiVoiceConfigUpdateSchema>;

/** What a user who never changed anything gets. */
export const DEFAULT_AI_VOICE_CONFIG: AiVoiceConfig = Object.freeze({
  min_chars: 100,
  openai_model: 'gpt-4o-mini-tts',
  voice: 'alloy',
  speed: 1,
  auto_read_aloud: false,
});

// ---- Calls answered by the insider-config service ----------------------------------------------

const NoData = z.object({}).strict();

/** Calls answered by the insider-config service (subjects `insider-config.*`); each acts for the caller. */
export const INSIDER_CONFIG_RPC = {
  ...commonCalls('insider-config'),
  /** The flags in force for a user (section 4's rule), for other services to act on. */
  effectiveFlags: defineRpc({
    subject: 'insider-config.flags.effective',
    request: z.object({ user_id: z.uuid() }).strict(),
    response: InsiderStatusSchema.extend({ effective: InsiderFlagsSchema.extend({ can_create_invite: z.boolean().nullable() }) }),
    description: 'The effective insider flags of a user',
  }),
  getStatus: defineRpc({
    subject: 'insider-config.status.get',
    request: NoData,
    response: InsiderStatusSchema,
    description: "The caller's insider standing and insider-mode switch",
  }),
  setStatus: defineRpc({
    subject: 'insider-config.status.set',
    request: InsiderModeBodySchema,
    response: InsiderStatusSchema,
    description: "Turn the caller's insider mode on (insiders only) or off",
  }),
  getFlags: defineRpc({
    subject: 'insider-config.flags.get',
    request: NoData,
    response: InsiderFlagsSchema,
    description: "The caller's effective insider flags (insiders only)",
  }),
  setFlags: defineRpc({
    subject: 'insider-config.flags.set',
    request: InsiderFlagsUpdateSchema,
    response: InsiderFlagsSchema,
    description: "Merge flags into the caller's stored insider flags (insiders only); answers the effective flags",
  }),
  getVoice: defineRpc({
    subject: 'insider-config.voice.get',
    request: NoData,
    response: AiVoiceConfigSchema,
    description: "The caller's AI voice settings",
  }),
  setVoice: defineRpc({
    subject: 'insider-config.voice.set',
    request: AiVoiceConfigUpdateSchema,
    response: AiVoiceConfigSchema,
    description: "Merge settings into the caller's AI voice settings; answers them whole",
  }),
} as const;

/**
 * Said on the bus (plain publish, every subscriber hears it; not a durable event) when a user's
 * insider standing, insider mode or flags change through the service: replicas of other services
 * that keep the effective flags for a moment forget that user's at once.
 */
export const INSIDER_FLAGS_CHANGED = {
  subject: 'insider-config.flags.changed',
  payload: z.object({ user_id: z.uuid() }).strict(),
} as const;
