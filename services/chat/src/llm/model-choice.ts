import type { ChatConfig } from '../config';

const REASONING_HINTS = /\b(prove|proof|derive|step[- ]by[- ]step|debug|algorithm|optimi[sz]e|complexity|calculate|equation|theorem|why does|trade-?offs?|compare .* and)\b/i;

/**
 * Which model answers: the configured one, or an automatic choice between a fast model and a
 * reasoning model (questions that look like they need thinking: long, mathematical, code...).
 */
export function chooseModel(config: ChatConfig, question: string): { model: string; reasoning: boolean; autoSelected: boolean } {
  if (config.CHAT_MODEL || !config.CHAT_AUTO_MODEL) {
    const model = config.CHAT_MODEL ?? config.CHAT_FAST_MODEL;
    return { model, reasoning: model === config.CHAT_REASONING_MODEL, autoSelected: false };
  }
  const hard = question.length > 1_200 || /```/.test(question) || REASONING_HINTS.test(question);
  return hard
    ? { model: config.CHAT_REASONING_MODEL, reasoning: true, autoSelected: true }
    : { model: config.CHAT_FAST_MODEL, reasoning: false, autoSelected: true };
}
