import { envHelpers } from '@app/platform';
import { z } from 'zod';

const url = envHelpers.urlWithProtocols(['http', 'https']);

/**
 * The memory service's variables. The model comes from the same variables, by the same rule, as the
 * chat service's: with none set, memories are extracted by rules, offline.
 */
export const memoryEnvSchema = z.object({
  /** openai (Responses API) | openai-compatible (Chat Completions) | offline. Default: see providerOf. */
  LLM_PROVIDER: z.enum(['openai', 'openai-compatible', 'offline']).optional(),
  OPENAI_API_KEY: z.string().optional(),
  /** An OpenAI-compatible server (Ollama, vLLM, llama.cpp server...), or a local fake in tests. */
  OPENAI_BASE_URL: url.optional(),
  /** The chat's single model, also used for extraction when MEMORY_MODEL is unset (a local server may serve only one). */
  CHAT_MODEL: z.string().min(1).optional(),
  /** model (a structured-output call) | rules (offline, deterministic). Default: model when a model is configured. */
  MEMORY_EXTRACTOR: z.enum(['model', 'rules']).optional(),
  /** The model that extracts memories (default: CHAT_MODEL, else gpt-4.1-mini). */
  MEMORY_MODEL: z.string().min(1).optional(),
  /** How long one extraction call may take before it is given up (the event is then retried). */
  MEMORY_EXTRACTION_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** How long a removed memory can be restored (undo); after that it is erased. */
  MEMORY_RESTORE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
});
export type MemoryConfig = z.output<typeof memoryEnvSchema>;
export type ProviderName = 'openai' | 'openai-compatible' | 'offline';

/** openai with only a key; openai-compatible (Chat Completions) once a base URL is given; else offline (the chat's rule). */
export function providerOf(config: Pick<MemoryConfig, 'LLM_PROVIDER' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL'>): ProviderName {
  if (config.LLM_PROVIDER) return config.LLM_PROVIDER;
  if (config.OPENAI_BASE_URL) return 'openai-compatible';
  return config.OPENAI_API_KEY ? 'openai' : 'offline';
}

/** Which extractor runs: the one asked for, else the model whenever one is configured. */
export function extractorOf(
  config: Pick<MemoryConfig, 'MEMORY_EXTRACTOR' | 'LLM_PROVIDER' | 'OPENAI_API_KEY' | 'OPENAI_BASE_URL'>,
): 'model' | 'rules' {
  if (config.MEMORY_EXTRACTOR) return providerOf(config) === 'offline' ? 'rules' : config.MEMORY_EXTRACTOR;
  return providerOf(config) === 'offline' ? 'rules' : 'model';
}

export function extractionModelOf(config: Pick<MemoryConfig, 'MEMORY_MODEL' | 'CHAT_MODEL'>): string {
  return config.MEMORY_MODEL ?? config.CHAT_MODEL ?? 'gpt-4.1-mini';
}
