import { z } from 'zod';
import { defineEvent } from '../common/contract';
import { UserIdSchema } from '../common/user-data';

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

/** Facts about accounts that every service reacts to. */
export const USER_EVENTS = {
  created: defineEvent({
    subject: 'events.user.created',
    payload: z.object({ user_id: UserIdSchema, is_anon: z.boolean() }),
    description: 'A user (guest or registered) was created',
  }),
  /** Every service deletes all it holds about the user, then publishes `purged`. */
  deleted: defineEvent({
    subject: 'events.user.deleted',
    payload: z.object({
      user_id: UserIdSchema,
      deletion_id: z.string(),
      /**
       * The account's phone number, for what a service keeps by number rather than by user (texts
       * sent before the account existed). Absent from events published before it was added.
       */
      phone_number: z.string().max(32).nullish(),
    }),
    description: 'A user asked for their account to be deleted',
  }),
  purged: defineEvent({
    subject: 'events.user.purged',
    payload: z.object({ user_id: UserIdSchema, deletion_id: z.string(), service: z.string() }),
    description: 'A service has deleted everything it held about a user',
  }),
  /** A guest signed in to an existing account: every service moves the guest's data to it. */
  merged: defineEvent({
    subject: 'events.user.merged',
    payload: z.object({ from_user_id: UserIdSchema, into_user_id: UserIdSchema }),
    description: "A guest's data moves to the account they signed in to",
  }),
} as const;
