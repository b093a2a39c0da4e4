import type { Caller, RequestOf, ResponseOf, RpcContract } from '@app/contracts';
import { RpcCallError, type CallOptions, type RpcClient } from '@app/platform';

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
