import { envHelpers } from '@app/platform';
import { z } from 'zod';

const url = envHelpers.urlWithProtocols(['http', 'https']);

/** The chat service's variables. With none set, the offline model answers. */
export const chatEnvSchema = z.object({
  /** openai (Responses API) | openai-compatible (Chat Completions) | offline. Default: see providerOf. */
  LLM_PROVIDER: z.enum(['openai', 'openai-compatible', 'offline']).optional(),
  OPENAI_API_KEY: z.string().optional(),
  /** An OpenAI-compatible server (Ollama, vLLM, llama.cpp server...), or a local fake in tests. */
  OPENAI_BASE_URL: url.optional(),
  /** The model used when the automatic choice is off. */
  CHAT_MODEL: z.string().min(1).optional(),
  /** The automatic choice picks between a fast and a reasoning model. */
  CHAT_FAST_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  CHAT_REASONING_MODEL: z.string().min(1).default('o4-mini'),
  CHAT_AUTO_MODEL: envHelpers.bool.default(true),
  /** Tools offered to the Responses API. */
  CHAT_WEB_SEARCH: envHelpers.bool.default(true),
  CHAT_IMAGE_GENERATION: envHelpers.bool.default(true),
  /** The persona replies are signed with. */
  CHAT_EXPERT_ID: z.string().default('assistant'),
  CHAT_EXPERT_NAME: z.string().default('Assistant'),
  /** How long the model may stay silent (first token included) before the reply is cut. */
  LLM_STALL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  /** The whole reply's limit. */
  LLM_TOTAL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(1_800_000).default(300_000),
  /** Messages of the active history sent to the model. */
  CHAT_CONTEXT_MESSAGES: z.coerce.number().int().min(1).max(500).default(40),
  /** Messages a day (per UTC day) before 429. */
  CHAT_GUEST_DAILY_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(50),
  CHAT_USER_DAILY_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(500),
  /**
   * A reply being written is saved every second and its lease renewed; a reply whose lease has run
   * out (its process died) is stored as cut short, with what was saved, within about 1.5 times this.
   */
  CHAT_REPLY_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(15_000),
  /**
   * Delay between the offline model's words: 30 ms streams at about the pace of a hosted model
   * (30-40 words a second), so the demo shows a reply being written and read aloud while it is.
   */
  OFFLINE_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(1_000).default(30),
  /** How long a temporary chat lives at most (its user closing it deletes it sooner). */
  CHAT_TEMPORARY_CHAT_TTL_SECONDS: z.coerce.number().int().min(1).max(2_592_000).default(86_400),
  /** How often the temporary chats whose time is up are deleted. */
  CHAT_TEMPORARY_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
});
export type ChatConfig = z.output<typeof chatEnvSchema>;
export type ProviderName = 'openai' | 'openai-compatible' | 'offline';

/** openai with only a key; openai-compatible (Chat Completions) once a base URL is given; else offline. */
export function providerOf(config: ChatConfig): ProviderName {
  if (config.LLM_PROVIDER) return config.LLM_PROVIDER;
  if (config.OPENAI_BASE_URL) return 'openai-compatible';
  return config.OPENAI_API_KEY ? 'openai' : 'offline';
}
