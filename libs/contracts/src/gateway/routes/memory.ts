import { z } from 'zod';
import { MEMORY_RPC, MemoryIdParamsSchema, MemoryListQuerySchema, UpdateMemoryBodySchema, UserMemorySchema } from '../../memory/index';
import { defineRoute } from '../route';

const MEMORY_NOT_FOUND = { 404: 'No such memory of the caller' };

/** The routes of the area `memory` (`API.memory`). */
export const memoryRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/user_memory/',
    summary: "The caller's memories, newest first (removed ones left out), of one conversation with source_chat_id",
    tag: 'user_memory',
    auth: 'bearer',
    query: MemoryListQuerySchema,
    response: z.array(UserMemorySchema),
    rpc: MEMORY_RPC.list,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/v1/user_memory/:user_memory_id',
    summary: 'Edit a memory: its text, its confirmation, or both',
    tag: 'user_memory',
    auth: 'bearer',
    params: MemoryIdParamsSchema,
    body: UpdateMemoryBodySchema,
    response: UserMemorySchema,
    errors: MEMORY_NOT_FOUND,
    rpc: MEMORY_RPC.update,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/user_memory/:user_memory_id',
    summary: 'Remove a memory: never used again, restorable for a few minutes (MEMORY_RESTORE_WINDOW_SECONDS), then erased',
    tag: 'user_memory',
    auth: 'bearer',
    params: MemoryIdParamsSchema,
    response: null,
    status: 204,
    errors: MEMORY_NOT_FOUND,
    rpc: MEMORY_RPC.remove,
  }),
  restore: defineRoute({
    method: 'POST',
    path: '/api/v1/user_memory/:user_memory_id/restore',
    summary: 'Undo a removal made moments ago (404 once the window has passed)',
    tag: 'user_memory',
    auth: 'bearer',
    params: MemoryIdParamsSchema,
    response: UserMemorySchema,
    errors: { 404: 'No such memory, or the window has passed' },
    rpc: MEMORY_RPC.restore,
  }),
} as const;
