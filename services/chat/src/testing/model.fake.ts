import type { LlmEvent, LlmProvider, LlmRequest, ProviderDescriptor } from '../llm/llm-provider';

/**
 * One scripted reply of the fake model: events, an error thrown at that point, 'hang' (silent until
 * the request is aborted, then it ends quietly, as providers do), or a function run when reached.
 */
export type ModelStep = LlmEvent | Error | 'hang' | (() => void | Promise<void>);

/** A provider whose replies are scripted; it records what it was asked. */
export class FakeModel implements LlmProvider {
  readonly requests: LlmRequest[] = [];
  readonly completions: Parameters<LlmProvider['complete']>[0][] = [];
  private readonly replies: ModelStep[][] = [];

  constructor(private readonly descriptor: ProviderDescriptor = { id: 'openai', label: 'OpenAI', offline: false }) {}

  describe(): ProviderDescriptor {
    return this.descriptor;
  }

  /** The next reply; without one the model says "OK". */
  script(...steps: ModelStep[]): this {
    this.replies.push(steps);
    return this;
  }

  stream(request: LlmRequest): AsyncIterable<LlmEvent> {
    this.requests.push(request);
    return play(this.replies.shift() ?? [{ type: 'text', delta: 'OK' }], request.signal);
  }

  async complete(request: Parameters<LlmProvider['complete']>[0]): Promise<string> {
    this.completions.push(request);
    return 'A title';
  }
}

async function* play(steps: ModelStep[], signal: AbortSignal): AsyncIterable<LlmEvent> {
  for (const step of steps) {
    if (signal.aborted) return;
    if (step === 'hang') {
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return;
    }
    if (step instanceof Error) throw step;
    if (typeof step === 'function') await step();
    else yield step;
  }
}
