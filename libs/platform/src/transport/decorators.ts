import { EventPattern, MessagePattern } from '@nestjs/microservices';
import type { Caller, EventContract, PayloadOf, RequestOf, RpcContract, StreamContract } from '@app/contracts';
import type { z } from 'zod';

/** What an RPC handler receives: the verified caller and the validated request. */
export interface RpcInput<C extends RpcContract | StreamContract> {
  caller: Caller;
  data: z.output<C['request']>;
}

/** What an event handler receives. Use `event_id` to make the handler idempotent. */
export interface EventInput<C extends EventContract> {
  event_id: string;
  occurred_at: string;
  payload: PayloadOf<C>;
}

/** Serves one RPC contract. The request is validated against the contract before the handler runs. */
export function RpcHandler(contract: RpcContract | StreamContract): MethodDecorator {
  return MessagePattern(contract.subject, { contract });
}

/** Consumes one event contract through a durable consumer (at-least-once, in order per consumer). */
export function EventHandler(contract: EventContract): MethodDecorator {
  return EventPattern<string>(contract.subject, { contract }) as MethodDecorator;
}

export type { RequestOf };
