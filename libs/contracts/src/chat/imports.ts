import { z } from 'zod';
import { defineRpc } from '../common/contract';

// ---- Importing ChatGPT and Claude history (issue 25, part 3): owned by the chat service ----

const id = z.uuid({ message: 'must be an id (UUID)' });

/** Where an export comes from. */
export const IMPORT_SOURCES = ['chatgpt', 'claude'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/**
 * `queued` until a worker takes it, `running` while it reads the zip, then `done` (what could be
 * imported was: see `skipped`), `failed` (the zip was refused as a whole: nothing was written) or
 * `cancelled` (its user stopped it: what was imported before stays, nothing more is written).
 */
export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Something of the export that is not in the product, and why (listed, never silently dropped). */
export const ImportSkippedSchema = z.object({
  kind: z.enum(['conversation', 'message', 'part', 'attachment']),
  /** The conversation's title in the export, when known. */
  conversation: z.string().nullable(),
  reason: z.string(),
  /** How many such items (one line stands for all of a kind and reason in a conversation). */
  count: z.number().int().positive(),
});
export type ImportSkipped = z.infer<typeof ImportSkippedSchema>;

export const ImportSchema = z.object({
  import_id: z.string(),
  status: z.enum(IMPORT_STATUSES),
  /** Detected from the export when not given (null until known). */
  source: z.enum(IMPORT_SOURCES).nullable(),
  filename: z.string(),
  learn_memories: z.boolean(),
  /** Conversations in the export (null until counted) and read so far. */
  conversations_total: z.number().int().nullable(),
  conversations_done: z.number().int(),
  conversations_imported: z.number().int(),
  /** Already imported by an earlier import of the same export (nothing is created twice). */
  conversations_existing: z.number().int(),
  messages_imported: z.number().int(),
  attachments_imported: z.number().int(),
  /** At most IMPORT_SKIPPED_LISTED lines; `skipped_total` counts them all. */
  skipped: z.array(ImportSkippedSchema),
  skipped_total: z.number().int(),
  /** Why the zip was refused (status failed). */
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Import = z.infer<typeof ImportSchema>;

/** Lines of `skipped` an import keeps (the rest are counted in `skipped_total`). */
export const IMPORT_SKIPPED_LISTED = 200;

export const StartImportBodySchema = z
  .object({
    /** The zip, uploaded through `POST /api/v1/imports/uploads`. */
    object_store_object_id: z.string().min(1).max(128),
    /** `auto` (the default) tells ChatGPT's export from Claude's by its content. */
    source: z.enum([...IMPORT_SOURCES, 'auto']).default('auto'),
    /** Learn memories from the imported conversations, each to be confirmed on /confirm-memories (off by default). */
    learn_memories: z.boolean().default(false),
  })
  .strict();
export const ImportParamsSchema = z.object({ import_id: id });

export const IMPORT_RPC = {
  start: defineRpc({
    subject: 'chat.import.start',
    request: StartImportBodySchema,
    response: ImportSchema,
    description: 'Queue the import of an uploaded export zip (one import at a time per user)',
  }),
  get: defineRpc({
    subject: 'chat.import.get',
    request: ImportParamsSchema.strict(),
    response: ImportSchema,
    description: "One of the caller's imports: its progress, then its summary",
  }),
  cancel: defineRpc({
    subject: 'chat.import.cancel',
    request: ImportParamsSchema.strict(),
    response: ImportSchema,
    description: "Stop one of the caller's imports (queued or running); what it imported stays",
  }),
  list: defineRpc({
    subject: 'chat.import.list',
    request: z.object({}).strict(),
    response: z.array(ImportSchema),
    description: "The caller's imports, newest first",
  }),
} as const;
