import type { ChatConfig } from '../config';
import type { ProviderDescriptor } from './llm-provider';

const REASONING_HINTS =
  /\b(prove|proof|derive|step[- ]by[- ]step|debug|algorithm|optimi[sz]e|complexity|calculate|equation|theorem|why does|trade-?offs?|compare .* and)\b/i;

export interface ModelChoice {
  model: string;
  /** Ask for reasoning summaries. */
  reasoning: boolean;
  /** Chosen automatically (shown to insiders). */
  autoSelected: boolean;
}

/**
 * Which model answers: the provider's only one (the offline model: nothing is chosen), the
 * configured one, or an automatic choice between a fast model and a reasoning model (questions
 * that look like they need thinking: long, mathematical, code...).
 */
export function chooseModel(config: ChatConfig, question: string, provider: Pick<ProviderDescriptor, 'fixedModel'>): ModelChoice {
  if (provider.fixedModel) return { model: provider.fixedModel, reasoning: false, autoSelected: false };
  if (config.CHAT_MODEL || !config.CHAT_AUTO_MODEL) {
    const model = config.CHAT_MODEL ?? config.CHAT_FAST_MODEL;
    return { model, reasoning: model === config.CHAT_REASONING_MODEL, autoSelected: false };
  }
  const hard = question.length > 1_200 || /```/.test(question) || REASONING_HINTS.test(question);
  return hard
    ? { model: config.CHAT_REASONING_MODEL, reasoning: true, autoSelected: true }
    : { model: config.CHAT_FAST_MODEL, reasoning: false, autoSelected: true };
}
