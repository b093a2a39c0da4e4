import { extractionModelOf, extractorOf, providerOf, type MemoryConfig } from '../config';
import type { MemoryExtractor } from './memory-extractor';
import { ModelExtractor } from './model.extractor';
import { RuleBasedExtractor } from './rule-based.extractor';

/** The configured extractor: the model whenever one is configured (the chat's rule), else the offline rules. */
export function createExtractor(config: MemoryConfig): MemoryExtractor {
  const provider = providerOf(config);
  if (extractorOf(config) === 'rules' || provider === 'offline') return new RuleBasedExtractor();
  return new ModelExtractor({
    provider,
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    model: extractionModelOf(config),
    timeoutMs: config.MEMORY_EXTRACTION_TIMEOUT_MS,
  });
}
