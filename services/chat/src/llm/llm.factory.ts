import { providerOf, type ChatConfig } from '../config';
import type { LlmProvider } from './llm-provider';
import { OfflineProvider } from './offline.provider';
import { OpenAiCompatibleProvider, OpenAiResponsesProvider } from './openai.providers';

/** The configured model provider (see providerOf for the default). */
export function createLlmProvider(config: ChatConfig): LlmProvider {
  switch (providerOf(config)) {
    case 'openai':
      return new OpenAiResponsesProvider(config.OPENAI_API_KEY, config.OPENAI_BASE_URL);
    case 'openai-compatible':
      return new OpenAiCompatibleProvider(config.OPENAI_API_KEY, config.OPENAI_BASE_URL);
    case 'offline':
      return new OfflineProvider(config.OFFLINE_TOKEN_DELAY_MS);
  }
}
