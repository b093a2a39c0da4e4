import { REMINDER_INTENTS } from '../reminders/reminder-intents';
import type { LlmToolCall, LlmTurn } from './llm-provider';

/**
 * The few explicit requests the offline model understands without a language model, so that a
 * newcomer with no keys sees the tool loop work: each one a pattern and the tool call it makes.
 * Features add theirs here (the reminders, the web search) next to their tools.
 */
export interface OfflineIntent {
  tool: string;
  /** The call's arguments when the message asks for this tool; null when it does not. */
  match(message: string, now: Date): Record<string, unknown> | null;
  /** The answer once the tool has answered (its output as given to the model). */
  answer(output: unknown): string;
  /** What to say when the message asks for this tool but it is not offered (its service is off). */
  unavailable?: string;
  /** The answer when the tool refused or failed (its error as given to the model); the error as it is by default. */
  failed?(error: string): string | null;
}

const CLOCK: OfflineIntent = {
  tool: 'current_time',
  match: (message) => (/\bwhat(?:'s| is)? (?:the )?time\b|\bwhat time is it\b/i.test(message) ? {} : null),
  answer: (output) => {
    const local = (output as { local?: unknown })?.local;
    return typeof local === 'string' ? `It is ${local} (UTC).` : 'I could not read the clock.';
  },
};

const SEARCH: OfflineIntent = {
  tool: 'search_web',
  match: (message) => {
    const found =
      /\b(?:search|look up|google)\s+(?:the\s+(?:web|internet)\s+)?(?:for\s+)?(.+?)(?:\s+on(?: the)? (?:web|internet))?[?.!]*$/i.exec(
        message.trim(),
      );
    return found?.[1] ? { query: found[1].trim() } : null;
  },
  answer: (output) => {
    const results = ((output as { results?: { n: number; title: string; site: string; snippet: string }[] }).results ?? []).slice(0, 5);
    if (!results.length) return 'The search found nothing.';
    return [
      'Here is what the search found:',
      ...results.map((r) => `- ${r.title} (${r.site}) [${r.n}]${r.snippet ? `: ${r.snippet}` : ''}`),
    ].join('\n');
  },
  unavailable:
    'Web search is not configured on this server, so I cannot look that up. (An operator can set `SEARXNG_URL` for a SearXNG instance, or `BRAVE_SEARCH_API_KEY`.)',
};

export const OFFLINE_INTENTS: OfflineIntent[] = [...REMINDER_INTENTS, SEARCH, CLOCK];

/** The intent the message asks for whose tool is not offered, when it has words for that. */
export function unavailableIntent(message: string, offered: string[], intents: OfflineIntent[], now: Date): string | null {
  for (const intent of intents) {
    if (offered.includes(intent.tool) || !intent.unavailable) continue;
    if (intent.match(message, now)) return intent.unavailable;
  }
  return null;
}

/** The tool call the user's last message asks for, among the tools offered; null when none. */
export function offlineToolCall(message: string, offered: string[], intents: OfflineIntent[], now: Date): LlmToolCall | null {
  for (const intent of intents) {
    if (!offered.includes(intent.tool)) continue;
    const args = intent.match(message, now);
    if (args) return { id: `offline_call_${intent.tool}`, name: intent.tool, arguments: JSON.stringify(args) };
  }
  return null;
}

/** The turns after the last user message: the calls already made for it and their results. */
export function resultsSinceLastMessage(turns: LlmTurn[]): Extract<LlmTurn, { role: 'tool_result' }>[] {
  const lastUser = turns.findLastIndex((turn) => turn.role === 'user');
  return turns.slice(lastUser + 1).filter((turn): turn is Extract<LlmTurn, { role: 'tool_result' }> => turn.role === 'tool_result');
}

/** The offline model's words about a tool's result: the intent's answer, or the tool's error as it is. */
export function offlineAnswer(result: Extract<LlmTurn, { role: 'tool_result' }>, intents: OfflineIntent[]): string {
  let output: unknown = result.output;
  try {
    output = JSON.parse(result.output);
  } catch {
    // a tool may answer plain text
  }
  const intent = intents.find((i) => i.tool === result.name);
  const failed = (output as { error?: unknown })?.error;
  if (typeof failed === 'string') return intent?.failed?.(failed) ?? `I tried ${result.name} but it did not work: ${failed}`;
  return intent ? intent.answer(output) : `${result.name} answered: ${result.output.slice(0, 500)}`;
}
