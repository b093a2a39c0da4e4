import { Inject, Injectable } from '@nestjs/common';
import { describeZodError, type Caller } from '@app/contracts';
import { AiVoiceConfigSchema, DEFAULT_AI_VOICE_CONFIG, type AiVoiceConfig, type AiVoiceConfigUpdate } from '@app/contracts/insider-config';
import { DomainError, userIdOf } from '@app/platform';
import { VoiceConfigRepository, type VoiceConfigStore } from './voice-config.repository';

const FIELDS = Object.keys(DEFAULT_AI_VOICE_CONFIG) as (keyof AiVoiceConfig)[];

/**
 * Stored settings as they apply today: a field that is missing or no longer allowed (an allow-list
 * shrank, a range narrowed) falls back to its default, and so does a voice the model lacks.
 */
export function normalizeVoiceConfig(stored: Record<string, unknown> | null): AiVoiceConfig {
  if (!stored) return { ...DEFAULT_AI_VOICE_CONFIG };
  const whole = AiVoiceConfigSchema.safeParse({ ...DEFAULT_AI_VOICE_CONFIG, ...stored });
  if (whole.success) return whole.data;
  const config: Record<string, unknown> = { ...DEFAULT_AI_VOICE_CONFIG };
  for (const field of FIELDS) {
    if (AiVoiceConfigSchema.shape[field].safeParse(stored[field]).success) config[field] = stored[field];
  }
  const fieldwise = AiVoiceConfigSchema.safeParse(config);
  return fieldwise.success ? fieldwise.data : { ...(config as AiVoiceConfig), voice: DEFAULT_AI_VOICE_CONFIG.voice };
}

/** The changed settings merged into the current ones, checked whole: a 422 naming the field if wrong. */
export function mergeVoiceConfig(current: AiVoiceConfig, update: AiVoiceConfigUpdate): AiVoiceConfig {
  const changes = Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
  const merged = AiVoiceConfigSchema.safeParse({ ...current, ...changes });
  if (!merged.success) throw new DomainError('validation_failed', describeZodError(merged.error));
  return merged.data;
}

/** A user's AI voice settings: defaults until changed, changed by merging, never half-saved. */
@Injectable()
export class VoiceService {
  constructor(@Inject(VoiceConfigRepository) private readonly configs: VoiceConfigStore) {}

  async get(caller: Caller): Promise<AiVoiceConfig> {
    return normalizeVoiceConfig(await this.configs.find(userIdOf(caller)));
  }

  update(caller: Caller, update: AiVoiceConfigUpdate): Promise<AiVoiceConfig> {
    return this.configs.update(userIdOf(caller), (stored) => mergeVoiceConfig(normalizeVoiceConfig(stored), update));
  }
}
