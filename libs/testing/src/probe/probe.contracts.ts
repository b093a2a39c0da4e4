import { defineEvent, defineRpc, defineStream } from '@app/contracts';
import { z } from 'zod';

/**
 * A small service used only by the plumbing tests and the benchmark: it echoes, fails on
 * demand, answers slowly, streams, stores through its own schema and consumes an event.
 */
export const PROBE = {
  echo: defineRpc({
    subject: 'probe.echo.run',
    request: z.object({ text: z.string().max(1000) }).strict(),
    response: z.object({ text: z.string(), request_id: z.string(), user_id: z.string().nullable() }),
    description: 'Echoes the text with what the service knows of the caller',
  }),
  fail: defineRpc({
    subject: 'probe.fail.run',
    request: z
      .object({
        kind: z.enum(['domain', 'unexpected']),
        status: z.number().int().min(400).max(599).optional(),
        detail: z.string().max(200).optional(),
      })
      .strict(),
    response: z.object({}),
    description: 'Throws a domain error, or an unexpected one',
  }),
  slow: defineRpc({
    subject: 'probe.slow.run',
    request: z.object({ ms: z.number().int().min(0).max(60_000) }).strict(),
    response: z.object({ waited_ms: z.number() }),
    description: 'Answers after a delay',
  }),
  stream: defineStream({
    subject: 'probe.stream.run',
    request: z.object({ count: z.number().int().min(0).max(1000), fail_at: z.number().int().optional() }).strict(),
    chunk: z.object({ index: z.number().int() }),
    description: 'Streams `count` chunks, failing at `fail_at` if given',
  }),
  publish: defineRpc({
    subject: 'probe.event.publish',
    request: z
      .object({ note: z.string().max(200), event_id: z.string().optional(), fail_times: z.number().int().min(0).max(5).default(0) })
      .strict(),
    response: z.object({ event_id: z.string() }),
    description: 'Publishes a probe event',
  }),
  received: defineRpc({
    subject: 'probe.event.received',
    request: z.object({}).strict(),
    response: z.object({
      notes: z.array(z.object({ note: z.string(), event_id: z.string() })),
      attempts: z.record(z.string(), z.number()),
    }),
    description: 'What the probe consumer has applied, and how many deliveries each event took',
  }),
  pinged: defineEvent({
    subject: 'events.probe.pinged',
    payload: z.object({ note: z.string(), fail_times: z.number().int().min(0).max(5) }),
    description: 'A probe event',
  }),
} as const;
