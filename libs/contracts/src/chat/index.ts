import { z } from 'zod';
import { defineEvent, defineRpc, defineStream } from '../common/contract';
import { commonCalls } from '../common/service-calls';

// ---- Entities as the web client receives them: the product's snake_case field names --------------

export const FileReferenceSchema = z.object({
  object_store_object_id: z.string().min(1).max(128),
  mime_type: z.string().min(1).max(128),
});
export type FileReference = z.infer<typeof FileReferenceSchema>;

/** One tool the model called while writing a reply, kept in the reply's metadata (shown collapsed under it). */
export const ToolRunSchema = z.object({
  call_id: z.string(),
  name: z.string(),
  /** The arguments as the model gave them (parsed when they were JSON). */
  arguments: z.unknown(),
  /** ok; error (failed, or the call was malformed); refused (not allowed or not possible); timeout; cancelled (the reply was stopped). */
  status: z.enum(['ok', 'error', 'refused', 'timeout', 'cancelled']),
  /** One line about the outcome, for people. */
  summary: z.string(),
  duration_ms: z.number(),
});
export type ToolRun = z.infer<typeof ToolRunSchema>;

/** A source a reply cites as [n]: a search result or a page the model read. */
export const CitationSchema = z.object({ n: z.number().int().min(1), title: z.string(), url: z.string(), site: z.string() });
export type Citation = z.infer<typeof CitationSchema>;

export const MessageMetadataSchema = z
  .object({
    verbose_feedback: z.string().nullable().optional(),
    files: z.array(FileReferenceSchema).optional(),
    /** The model that answered and how it was chosen (shown to insiders with show_auto_model_selection). */
    model: z.string().optional(),
    provider: z.enum(['openai', 'openai-compatible', 'offline']).optional(),
    /** The provider's name for people ('OpenAI', 'Offline model'...). */
    provider_label: z.string().optional(),
    /** Answered by the built-in offline model, not a language model: the client labels the reply as such. */
    offline: z.boolean().optional(),
    provider_request_id: z.string().nullable().optional(),
    auto_selected: z.boolean().optional(),
    /** The memories used to personalize this reply. */
    memory_ids: z.array(z.string()).optional(),
    rewritten_query: z.string().nullable().optional(),
    /** The reply was cut short (provider error, timeout or stop): what came is kept. */
    incomplete: z.boolean().optional(),
    reasoning: z.string().optional(),
    /** The tools the model called for this reply, in order. */
    tools: z.array(ToolRunSchema).optional(),
    /** The sources found by the tools, numbered as the reply's [n] markers. */
    citations: z.array(CitationSchema).optional(),
  })
  .catchall(z.unknown());

export const SENDER_USER = 'user';
export const SENDER_ASSISTANT = 'assistant';

export const MessageSchema = z.object({
  message_id: z.string(),
  chat_id: z.string(),
  content: z.string(),
  sender: z.string(),
  author_user_id: z.string().nullable(),
  expert_id: z.string().nullable(),
  expert_name: z.string().nullable(),
  feedback: z.enum(['like', 'dislike']).nullable(),
  hidden: z.boolean(),
  previous_message_id: z.string().nullable(),
  metadata: MessageMetadataSchema,
  created_at: z.string(),
});
export type Message = z.infer<typeof MessageSchema>;

export const ConversationSchema = z.object({
  chat_id: z.string(),
  conversation_title: z.string().nullable(),
  last_message_timestamp: z.string().nullable(),
  last_active_message_id: z.string().nullable(),
  is_commercial: z.boolean(),
  /** A temporary chat: not in the sidebar, not searched, not learnt from, deleted when closed or at expires_at. */
  temporary: z.boolean(),
  expires_at: z.string().nullable(),
  /** The project it is in (null: none). */
  project_id: z.string().nullable(),
  created_at: z.string(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationWithMessagesSchema = ConversationSchema.extend({ messages: z.array(MessageSchema) });

export const ShareSchema = z.object({ share_id: z.string(), chat_id: z.string(), url: z.string(), created_at: z.string() });
export const SharedConversationSchema = z.object({
  share_id: z.string(),
  conversation_title: z.string().nullable(),
  /** A page of the shared branch, oldest first (hidden ones left out): its first `limit` messages, or those after `after`. */
  messages: z.array(MessageSchema),
  /** Later messages of the branch exist: ask with `after` = the last message's id. */
  has_more: z.boolean(),
  shared_at: z.string(),
});

// ---- Bodies the web client sends to /api/v1 -------------------------------------------------------

const id = z.uuid({ message: 'must be an id (UUID)' });
const shareId = z.string().trim().min(1).max(64);

export const CreateConversationBodySchema = z.object({
  conversation_title: z.string().trim().max(200).nullish(),
  /** A temporary chat (see ConversationSchema.temporary). */
  temporary: z.boolean().optional(),
  /** Start it in one of the caller's projects (not a temporary chat). */
  project_id: id.nullish(),
});
export const UpdateConversationBodySchema = z
  .object({
    conversation_title: z.string().trim().min(1).max(200).optional(),
    last_active_message_id: id.optional(),
    /** Move it into one of the caller's projects, or out of its project (null). */
    project_id: id.nullable().optional(),
  })
  .refine(
    (b) => b.conversation_title !== undefined || b.last_active_message_id !== undefined || b.project_id !== undefined,
    'give conversation_title, last_active_message_id or project_id',
  );
export const SendMessageBodySchema = z.object({
  content: z.string().trim().min(1, 'must not be empty').max(32_000),
  previous_message_id: id.nullish(),
  files: z.array(FileReferenceSchema).max(10).optional(),
});
export const FeedbackBodySchema = z.object({
  feedback: z.enum(['like', 'dislike']).nullable(),
  verbose_feedback: z.string().trim().max(2000).nullish(),
});
export const MessagesQuerySchema = z.object({
  chat_ids: z
    .string()
    .max(2000)
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined,
    )
    .pipe(z.array(id).max(100).optional()),
});

/**
 * One page of a conversation's active branch (GET /chats/:chat_id/messages): the `limit` messages
 * before `before` on its branch (its ancestors), or, without it, the newest of the branch that ends
 * at the conversation's last active message, or of the branch through `through` (the active one
 * when that message is on it, else the page ends where its branch leads: the newest child at each
 * step).
 */
export const MESSAGE_PAGE_LIMIT = { default: 50, max: 200 } as const;
export const MessagePageQuerySchema = z.object({
  before: id.optional(),
  through: id.optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_LIMIT.max).default(MESSAGE_PAGE_LIMIT.default),
});
/** A page of a shared conversation: from its first message, or after `after` (one of the branch's). */
export const SharedPageQuerySchema = z.object({
  after: id.optional(),
  limit: z.coerce.number().int().min(1).max(MESSAGE_PAGE_LIMIT.max).default(MESSAGE_PAGE_LIMIT.default),
});
/** A message with other versions (the same parent, the same side): all of them, oldest first, each with where its branch leads. */
export const MessageVersionsSchema = z.object({
  message_id: z.string(),
  versions: z.array(z.object({ message_id: z.string(), leaf_id: z.string() })),
});
export const MessagePageSchema = z.object({
  /** Oldest first (hidden ones left out). */
  messages: z.array(MessageSchema),
  /** The versions of those of the page that have several (the branch switcher's "2 / 3"). */
  versions: z.array(MessageVersionsSchema),
  /** Older messages of the branch exist: ask with `before` = the first message's id. */
  has_more: z.boolean(),
  /** The newest message of the branch a first page is of (null with `before`, or for a conversation without messages). */
  leaf_id: z.string().nullable(),
  /**
   * A reply being written right now where the branch ends, by a stream this client may not hold
   * (another tab, a page left and opened again): to `leaf_id` when that is a user message, or
   * another version of the reply `leaf_id` (a regenerate) to the user message before it. Its id,
   * the user message it answers (`previous_message_id`) and its text so far, as last saved. A client
   * shows it as still being written and asks for the page again until it is null.
   */
  replying: z.object({ message_id: z.string(), previous_message_id: z.string(), content: z.string() }).nullable(),
});

export type MessagePage = z.infer<typeof MessagePageSchema>;
export type MessageVersions = z.infer<typeof MessageVersionsSchema>;

/** Search over the caller's conversations: `q` as typed (any language; the last word may be a prefix). */
export const SearchQuerySchema = z.object({
  q: z.string().trim().min(1, 'must not be empty').max(200),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
/** Where the words that matched are, as UTF-16 offsets into the text they are given with. */
export const HighlightSchema = z.object({ start: z.number().int().min(0), end: z.number().int().min(0) });
export const SearchHitSchema = z.object({
  chat_id: z.string(),
  conversation_title: z.string().nullable(),
  /** The project the conversation is in (null when it is in none). */
  project_id: z.string().nullable(),
  /** The message that matched; null when the conversation's title did. */
  message_id: z.string().nullable(),
  sender: z.string().nullable(),
  /** A piece of the message around its first match (… where cut); the title for a title match. */
  snippet: z.string(),
  highlights: z.array(HighlightSchema),
  title_highlights: z.array(HighlightSchema),
  created_at: z.string(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;
export const SearchResultsSchema = z.object({ q: z.string(), results: z.array(SearchHitSchema) });
export type SearchResults = z.infer<typeof SearchResultsSchema>;

// ---- The reply stream (text/event-stream): one event name per kind -----------------------------

/** `tool`: a tool is running; its name and a label for people ("Setting a reminder") come with it. */
export const PHASES = ['personalizing', 'searching', 'thinking', 'tool'] as const;
export type Phase = (typeof PHASES)[number];
export const PhaseDataSchema = z.object({ phase: z.enum(PHASES), tool: z.string().optional(), label: z.string().optional() });
export type PhaseData = z.infer<typeof PhaseDataSchema>;

export const ReplyEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('user_message'), data: MessageSchema }),
  z.object({ event: z.literal('phase'), data: PhaseDataSchema }),
  z.object({ event: z.literal('rewritten_query'), data: z.object({ text: z.string() }) }),
  z.object({ event: z.literal('reasoning'), data: z.object({ delta: z.string() }) }),
  z.object({ event: z.literal('text'), data: z.object({ delta: z.string() }) }),
  z.object({ event: z.literal('image_partial'), data: z.object({ index: z.number().int().min(0).max(2), data_url: z.string() }) }),
  z.object({ event: z.literal('image'), data: FileReferenceSchema }),
  z.object({ event: z.literal('assistant_message'), data: MessageSchema }),
  z.object({ event: z.literal('error'), data: z.object({ detail: z.string() }) }),
  z.object({ event: z.literal('done'), data: z.object({}) }),
]);
export type ReplyEvent = z.infer<typeof ReplyEventSchema>;

/** Exactly `{ event: 'text' | 'reasoning', data: { delta: string } }`: what ReplyEventSchema accepts of them, checked by hand (the stream's hot path). */
export function isDeltaEvent(value: unknown): value is Extract<ReplyEvent, { event: 'text' | 'reasoning' }> {
  if (typeof value !== 'object' || value === null) return false;
  const { event, data } = value as { event?: unknown; data?: unknown };
  if ((event !== 'text' && event !== 'reasoning') || typeof data !== 'object' || data === null) return false;
  if (typeof (data as { delta?: unknown }).delta !== 'string' || Object.getPrototypeOf(data) !== Object.prototype) return false;
  return keyCount(value) === 2 && keyCount(data) === 1;
}

function keyCount(value: object): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count++;
  return count;
}

// ---- Calls to the chat service --------------------------------------------------------------------

export const CHAT_RPC = {
  ...commonCalls('chat'),
  list: defineRpc({
    subject: 'chat.conversation.list',
    request: z.object({}).strict(),
    response: z.array(ConversationSchema),
    description: "The caller's conversations, newest first",
  }),
  get: defineRpc({
    subject: 'chat.conversation.get',
    request: z.object({ chat_id: id }).strict(),
    response: ConversationWithMessagesSchema,
    description: 'One conversation with its messages',
  }),
  create: defineRpc({
    subject: 'chat.conversation.create',
    /**
     * `shared`: a conversation several people write in (the sms service's groups). Its replies use
     * nobody's memories and nothing is learnt from it. Not an HTTP field: the gateway's body schema
     * refuses it.
     */
    request: CreateConversationBodySchema.extend({ shared: z.boolean().optional() }).strict(),
    response: ConversationSchema,
    description: 'Start a conversation',
  }),
  update: defineRpc({
    subject: 'chat.conversation.update',
    request: z
      .object({
        chat_id: id,
        conversation_title: z.string().trim().min(1).max(200).optional(),
        last_active_message_id: id.optional(),
        project_id: id.nullable().optional(),
      })
      .strict(),
    response: ConversationSchema,
    description: 'Rename a conversation, switch its active branch, or move it into or out of a project',
  }),
  remove: defineRpc({
    subject: 'chat.conversation.delete',
    request: z.object({ chat_id: id }).strict(),
    response: z.object({ deleted: z.literal(true) }),
    description: 'Delete a conversation',
  }),
  messages: defineRpc({
    subject: 'chat.message.list',
    request: z.object({ chat_ids: z.array(id).max(100).optional() }).strict(),
    response: z.array(MessageSchema),
    description: "The caller's visible messages, of some conversations or all",
  }),
  page: defineRpc({
    subject: 'chat.message.page',
    request: MessagePageQuerySchema.extend({ chat_id: id }).strict(),
    response: MessagePageSchema,
    description: "A page of a conversation's active branch (or of the branch through a message), newest first by pages",
  }),
  search: defineRpc({
    subject: 'chat.search',
    request: SearchQuerySchema.strict(),
    response: SearchResultsSchema,
    description: "Full-text search over the caller's conversation titles and messages, best first, with highlighted snippets",
  }),
  send: defineStream({
    subject: 'chat.message.send',
    request: SendMessageBodySchema.extend({ chat_id: id }).strict(),
    chunk: ReplyEventSchema,
    hotChunk: isDeltaEvent,
    description: 'Store a message and stream the reply',
  }),
  regenerate: defineStream({
    subject: 'chat.message.regenerate',
    request: z.object({ message_id: id }).strict(),
    chunk: ReplyEventSchema,
    hotChunk: isDeltaEvent,
    description: 'Answer a message again, as a new branch',
  }),
  stop: defineRpc({
    subject: 'chat.message.stop',
    request: z.object({ message_id: id }).strict(),
    response: z.object({ stopped: z.boolean() }),
    description: 'Stop the reply being generated to a user message (what came so far is kept)',
  }),
  feedback: defineRpc({
    subject: 'chat.message.feedback',
    request: FeedbackBodySchema.extend({ message_id: id }).strict(),
    response: MessageSchema,
    description: 'Like or dislike a reply',
  }),
  share: defineRpc({
    subject: 'chat.share.create',
    request: z.object({ chat_id: id }).strict(),
    response: ShareSchema,
    description: 'Share a conversation read-only',
  }),
  owned: defineRpc({
    subject: 'chat.message.owned',
    request: z.object({ chat_id: id, message_id: id.optional() }).strict(),
    response: z.object({ chat_id: id, message_id: id.nullable() }),
    description:
      "Whether a conversation is the caller's and, with message_id, that message (a reply still being written included) is in it; 404 otherwise",
  }),
  unshare: defineRpc({
    subject: 'chat.share.revoke',
    request: z.object({ chat_id: id }).strict(),
    response: z.object({ revoked: z.boolean() }),
    description: 'Revoke the share links of a conversation',
  }),
  shared: defineRpc({
    subject: 'chat.share.get',
    request: SharedPageQuerySchema.extend({ share_id: shareId }).strict(),
    response: SharedConversationSchema,
    description: 'A page of a shared conversation (its active history, oldest first)',
  }),
} as const;

/** Facts the chat service publishes. */
export const CHAT_EVENTS = {
  /** A user message got a complete reply: the memory service learns from it. */
  exchangeCompleted: defineEvent({
    subject: 'events.chat.exchange.completed',
    payload: z.object({
      user_id: z.string(),
      chat_id: z.string(),
      user_message_id: z.string(),
      assistant_message_id: z.string(),
      user_text: z.string(),
      assistant_text: z.string(),
      /** Imported history (issue 25): what is learnt from it waits for the user's confirmation (/confirm-memories). */
      unconfirmed: z.boolean().optional(),
    }),
    description: 'A message and its reply, complete',
  }),
} as const;

/** Broadcast to every chat replica: stop the reply to this user message if you are generating it. */
export const CHAT_STOP_SUBJECT = 'chat.generation.stop';

/**
 * Broadcast to every chat replica (plain publish, not a durable event) when what a reply's start
 * looks up about a user changes (their reminder settings, whether they have MCP servers): replicas
 * that keep it forget that user's at once.
 */
export const CHAT_USER_FACTS_CHANGED = {
  subject: 'chat.user-facts.changed',
  payload: z.object({ user_id: z.string().min(1).max(100) }).strict(),
} as const;
export * from './reminders';
export * from './mcp';
export * from './projects';
export * from './search-terms';
export * from './imports';
