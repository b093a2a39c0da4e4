import { z } from 'zod';

/**
 * Every event travels in this envelope. `event_id` makes redelivery harmless: consumers
 * remember which ids they have applied, and JetStream drops duplicate publishes by it.
 */
export const EventEnvelopeSchema = z.object({
  event_id: z.string().min(1).max(128),
  occurred_at: z.string().datetime(),
  payload: z.unknown(),
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
