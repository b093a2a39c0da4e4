import { z } from 'zod';

/**
 * Who is calling. The gateway sets it from the verified token and its own request id;
 * it is never taken from client input. Every RPC carries it.
 */
export const CallerSchema = z.object({
  user_id: z.string().min(1).max(64).nullable(),
  is_anon: z.boolean(),
  session_id: z.string().min(1).max(128).nullable(),
  request_id: z.string().min(1).max(128),
});
export type Caller = z.infer<typeof CallerSchema>;

/** The identity used when a service acts on its own behalf (event handlers, jobs). */
export function systemCaller(requestId: string): Caller {
  return { user_id: null, is_anon: false, session_id: null, request_id: requestId };
}
