import type { Caller, RequestOf, ResponseOf, RpcContract } from '@app/contracts';
import { BusUnavailableError, RpcCallError, type Bus, type CallOptions, type RpcClient } from '@app/platform';

/** The bus as a unit test sees it: RPC answers it scripts, and broadcasts it can lose. */

/** The other services as the chat reaches them: answers by subject, and a record of every call. */
export class FakeRpc implements Pick<RpcClient, 'call'> {
  readonly calls: { subject: string; data: unknown; caller: Caller; timeoutMs?: number }[] = [];
  private readonly answers = new Map<string, (data: unknown) => unknown>();

  /** How a subject answers (it may throw); a subject without an answer fails as nobody answering (503). */
  answer<C extends RpcContract>(contract: C, answer: (data: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>>): this {
    this.answers.set(contract.subject, answer as (data: unknown) => unknown);
    return this;
  }

  async call<C extends RpcContract>(contract: C, data: RequestOf<C>, caller: Caller, options: CallOptions = {}): Promise<ResponseOf<C>> {
    this.calls.push({ subject: contract.subject, data, caller, timeoutMs: options.timeoutMs });
    const answer = this.answers.get(contract.subject);
    if (!answer) throw new RpcCallError({ status: 503, detail: 'No service answers', code: 'unavailable' }, contract.subject);
    return (await answer(data)) as ResponseOf<C>;
  }

  subjects(): string[] {
    return this.calls.map((c) => c.subject);
  }
}

type BusMessage = { data: Uint8Array; headers: Record<string, string> };

/** The bus's plain publish and subscribe, as every replica hears them, and a connection that can be lost. */
export class FakeBroadcastBus implements Pick<Bus, 'subscribe' | 'publish' | 'onConnectionLost'> {
  private readonly handlers = new Map<string, Set<(message: BusMessage) => void>>();
  private readonly lossListeners = new Set<(error: BusUnavailableError) => void>();

  async subscribe(subject: string, handler: (message: BusMessage) => void) {
    const handlers = this.handlers.get(subject) ?? this.handlers.set(subject, new Set()).get(subject)!;
    handlers.add(handler);
    return { close: async () => void handlers.delete(handler) };
  }

  publish(subject: string, data: Uint8Array): void {
    for (const handler of this.handlers.get(subject) ?? []) handler({ data, headers: {} });
  }

  onConnectionLost(listener: (error: BusUnavailableError) => void): () => void {
    this.lossListeners.add(listener);
    return () => this.lossListeners.delete(listener);
  }

  loseConnection(): void {
    for (const listener of this.lossListeners) listener(new BusUnavailableError());
  }

  subscribers(subject: string): number {
    return this.handlers.get(subject)?.size ?? 0;
  }
}
