import { randomUUID } from 'node:crypto';
import type { EventContract, PayloadOf } from '@app/contracts';
import type { EventEnvelope } from '@app/contracts/events';
import { currentRequestContext } from '../logging/request-context';
import { injectTraceContext, withSpan } from '../telemetry/trace-context';
import type { Bus } from './bus';
import { BUS_HEADERS, encode } from './codec';

/**
 * Publishes straight to the event stream, for tests and tools. A service does not: what it owes is
 * written to its outbox in the transaction of its cause (`Outbox.enqueue`), so that it can be
 * neither lost nor sent for a change that did not happen. Give a stable `eventId` when a retry may
 * publish twice.
 */
export class EventPublisher {
  constructor(private readonly bus: Bus) {}

  async publish<C extends EventContract>(contract: C, payload: PayloadOf<C>, options: { eventId?: string } = {}): Promise<string> {
    const envelope: EventEnvelope = {
      event_id: options.eventId ?? randomUUID(),
      occurred_at: new Date().toISOString(),
      payload: contract.payload.parse(payload),
    };
    const requestId = currentRequestContext()?.request_id ?? envelope.event_id;
    await withSpan(`publish ${contract.subject}`, 'producer', { 'messaging.destination': contract.subject }, async () => {
      const headers = injectTraceContext({ [BUS_HEADERS.requestId]: requestId, [BUS_HEADERS.eventSubject]: contract.subject });
      await this.bus.publishEvent(contract.subject, encode(envelope), headers, envelope.event_id);
    });
    return envelope.event_id;
  }
}
