import { titleFrom } from '../titles/title-from';
import type { LlmAttachment, LlmEvent, LlmMessageTurn, LlmProvider, LlmRequest, ProviderDescriptor } from './llm-provider';
import {
  OFFLINE_INTENTS,
  offlineAnswer,
  offlineToolCall,
  resultsSinceLastMessage,
  unavailableIntent,
  type OfflineIntent,
} from './offline-intents';

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Splits text into word-sized deltas, keeping the spaces, so a stream rebuilds it exactly. */
export function deltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

function firstSentence(text: string, max = 120): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const sentence = clean.split(/(?<=[.!?])\s/)[0] ?? clean;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}

/**
 * The embedded default: no network, no key, a deterministic answer built from the question and
 * what the assistant knows about the user. It says plainly that it is the offline model, so
 * nobody mistakes it for a real one.
 */
export class OfflineProvider implements LlmProvider {
  constructor(
    private readonly tokenDelayMs: number,
    private readonly intents: OfflineIntent[] = OFFLINE_INTENTS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  describe(): ProviderDescriptor {
    return { id: 'offline', label: 'Offline model', offline: true, fixedModel: 'offline' };
  }

  async *stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    yield { type: 'meta', requestId: null, model: this.describe().fixedModel ?? null };
    const last = request.turns.filter((t): t is LlmMessageTurn => t.role === 'user').at(-1);
    // An explicit request for a tool offered: the call first; once its result is back, the answer from it.
    const results = resultsSinceLastMessage(request.turns);
    const offered = (request.tools ?? []).map((tool) => tool.name);
    const call = results.length ? null : offlineToolCall(last?.content ?? '', offered, this.intents, this.now());
    if (call) {
      yield { type: 'tool_call', call };
      return;
    }
    const text = results.length
      ? results.map((result) => offlineAnswer(result, this.intents)).join('\n\n')
      : (unavailableIntent(last?.content ?? '', offered, this.intents, this.now()) ??
        this.answer(last?.content ?? '', request.system, last?.attachments ?? []));
    for (const delta of deltas(text)) {
      if (request.signal.aborted) return;
      await wait(this.tokenDelayMs, request.signal);
      yield { type: 'text', delta };
    }
  }

  async complete(request: { prompt: string }): Promise<string> {
    return titleFrom(request.prompt);
  }

  answer(question: string, system: string, attachments: LlmAttachment[] = []): string {
    const known = system
      .split('\n')
      .filter((line) => line.startsWith('- '))
      .map((line) => line.slice(2));
    const lines = [
      `You asked: "${firstSentence(question)}"`,
      '',
      "I'm the offline model that runs when no language model is configured, so I can't really answer yet. " +
        'Set `OPENAI_API_KEY`, or `OPENAI_BASE_URL` for any OpenAI-compatible server (Ollama, vLLM, llama.cpp), and ask again.',
      '',
      'Everything around me works meanwhile: I remember what you tell me (see Memories), read replies aloud, ' +
        'keep your conversations and attachments, and answer text messages.',
    ];
    if (attachments.length) {
      lines.push(
        '',
        'You attached:',
        ...attachments.map((a) =>
          a.kind === 'image' ? `- ${a.filename} (an image)` : `- ${a.filename} (${a.text.length} characters of text)`,
        ),
      );
    }
    if (known.length) lines.push('', 'What I know about you:', ...known.map((k) => `- ${k}`));
    return lines.join('\n');
  }
}
