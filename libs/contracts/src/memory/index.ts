import { z } from 'zod';
import { defineRpc } from '../common/contract';
import { commonCalls } from '../common/service-calls';

export const RelevantMemorySchema = z.object({ user_memory_id: z.string(), text: z.string(), is_confirmed: z.boolean() });
export type RelevantMemory = z.infer<typeof RelevantMemorySchema>;

// ---- The user memory item as the web client receives it (spec section 3) ------------------------

/**
 * One long-term memory. `is_inference`: the assistant drew it rather than the user saying it (stored
 * unconfirmed until the user confirms it). `is_fact`: a fact about the user (where they live, their
 * family, their job); a non-fact is a softer memory (a taste, a preference).
 */
export const UserMemorySchema = z.object({
  user_memory_id: z.string(),
  source_chat_id: z.string().nullable(),
  source_message_id: z.string().nullable(),
  text: z.string(),
  is_inference: z.boolean(),
  is_fact: z.boolean(),
  is_confirmed: z.boolean(),
  updated_at: z.string(),
  removed_at: z.string().nullable(),
});
export type UserMemory = z.infer<typeof UserMemorySchema>;

export const MEMORY_TEXT_MAX = 500;
/** The only preference profile there is; the web client always asks for it. */
export const DEFAULT_PREFERENCE_NAME = 'default';

const id = z.uuid({ message: 'must be an id (UUID)' });

// ---- What the web client sends (spec section 7) ----------------------------------------------

/** `GET /api/v1/user_memory/?user_preference_name=default&source_chat_id=...` (an empty source_chat_id means all). */
export const MemoryListQuerySchema = z.object({
  user_preference_name: z.string().trim().min(1).max(100).default(DEFAULT_PREFERENCE_NAME),
  source_chat_id: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .pipe(id.optional()),
});
export type MemoryListQuery = z.output<typeof MemoryListQuerySchema>;

/** `PUT /api/v1/user_memory/{id}`: a new text, a confirmation (or its withdrawal), or both. */
export const UpdateMemoryBodySchema = z
  .object({
    text: z.string().trim().min(1, 'must not be empty').max(MEMORY_TEXT_MAX).optional(),
    is_confirmed: z.boolean().optional(),
  })
  .strict()
  .refine((b) => b.text !== undefined || b.is_confirmed !== undefined, 'give text or is_confirmed');
export type UpdateMemoryBody = z.output<typeof UpdateMemoryBodySchema>;

export const MemoryIdParamsSchema = z.object({ user_memory_id: id });

export const MEMORY_NOT_FOUND = 'Memory not found';

// ---- Calls answered by the memory service (subjects `memory.*`) -------------------------------

export const MEMORY_RPC = {
  ...commonCalls('memory'),
  /** The caller's memories that matter for a query, best first (personalization before each reply). */
  relevant: defineRpc({
    subject: 'memory.relevant.search',
    request: z.object({ query: z.string().max(32_000), limit: z.number().int().min(1).max(50).default(8) }).strict(),
    response: z.object({ memories: z.array(RelevantMemorySchema) }),
    description: "The caller's memories relevant to a query",
  }),
  list: defineRpc({
    subject: 'memory.item.list',
    request: z
      .object({ user_preference_name: z.string().min(1).max(100).default(DEFAULT_PREFERENCE_NAME), source_chat_id: id.optional() })
      .strict(),
    response: z.array(UserMemorySchema),
    description: "The caller's memories (removed ones left out), newest first, of one conversation or all",
  }),
  update: defineRpc({
    subject: 'memory.item.update',
    request: z
      .object({ user_memory_id: id, text: z.string().trim().min(1).max(MEMORY_TEXT_MAX).optional(), is_confirmed: z.boolean().optional() })
      .strict(),
    response: UserMemorySchema,
    description: "Edit one of the caller's memories (text, confirmation)",
  }),
  remove: defineRpc({
    subject: 'memory.item.remove',
    request: z.object({ user_memory_id: id }).strict(),
    response: z.object({ removed: z.literal(true) }),
    description: "Remove one of the caller's memories (it can be restored for a few minutes, then it is erased)",
  }),
  restore: defineRpc({
    subject: 'memory.item.restore',
    request: z.object({ user_memory_id: id }).strict(),
    response: UserMemorySchema,
    description: 'Bring back a memory removed moments ago (undo)',
  }),
} as const;
