import { z } from 'zod';
import { defineRpc } from '../common/contract';
import { healthContract } from '../common/health';
import { userExportContract } from '../common/user-data';

export const RelevantMemorySchema = z.object({ user_memory_id: z.string(), text: z.string(), is_confirmed: z.boolean() });

/** Calls answered by the memory service (subjects `memory.*`). */
export const MEMORY_RPC = {
  health: healthContract('memory'),
  export: userExportContract('memory'),
  /** The caller's memories that matter for a query, best first (personalisation before each reply). */
  relevant: defineRpc({
    subject: 'memory.relevant.search',
    request: z.object({ query: z.string().max(32_000), limit: z.number().int().min(1).max(50).default(8) }).strict(),
    response: z.object({ memories: z.array(RelevantMemorySchema) }),
    description: "The caller's memories relevant to a query",
  }),
} as const;
