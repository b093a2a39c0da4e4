import { envHelpers } from '@app/platform';
import { z } from 'zod';

const url = envHelpers.urlWithProtocols(['http', 'https']);

/** The chat service's variables. With none set, the offline model answers. */
export const chatEnvSchema = z.object({
  /** openai (Responses API) | openai-compatible (Chat Completions) | offline. Default: see providerOf. */
  LLM_PROVIDER: z.enum(['openai', 'openai-compatible', 'offline']).optional(),
  OPENAI_API_KEY: z.string().optional(),
  /** An OpenAI-compatible server (Ollama, vLLM, llama.cpp server...), or a local fake in tests. */
  OPENAI_BASE_URL: url.optional(),
  /** The model used when the automatic choice is off. */
  CHAT_MODEL: z.string().min(1).optional(),
  /** The automatic choice picks between a fast and a reasoning model. */
  CHAT_FAST_MODEL: z.string().min(1).default('gpt-4.1-mini'),
  CHAT_REASONING_MODEL: z.string().min(1).default('o4-mini'),
  CHAT_AUTO_MODEL: envHelpers.bool.default(true),
  /** Tools offered to the Responses API. */
  CHAT_WEB_SEARCH: envHelpers.bool.default(true),
  CHAT_IMAGE_GENERATION: envHelpers.bool.default(true),
  /**
   * Rounds of tool calls (built-in tools, the user's MCP servers) one reply may make before the model
   * must answer with what it has; 0 offers no tools at all.
   */
  CHAT_MAX_TOOL_STEPS: z.coerce.number().int().min(0).max(20).default(5),
  /** How long one tool call may run before the model is told it timed out. */
  CHAT_TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(20_000),
  /** The most characters of a tool's output given to the model (the rest is cut, and the model told so). */
  CHAT_TOOL_OUTPUT_MAX_CHARS: z.coerce.number().int().min(200).max(200_000).default(16_000),
  /**
   * Web search (search_web and read_page tools): off unless an engine is configured. SearXNG's JSON
   * API (self-hosted), or Brave Search's API with a key; WEB_SEARCH_PROVIDER chooses when both are set.
   */
  WEB_SEARCH_PROVIDER: z.enum(['searxng', 'brave', 'off']).optional(),
  SEARXNG_URL: url.optional(),
  BRAVE_SEARCH_API_KEY: z.string().min(1).optional(),
  BRAVE_SEARCH_URL: url.default('https://api.search.brave.com'),
  WEB_SEARCH_RESULTS: z.coerce.number().int().min(1).max(20).default(5),
  /** A page the model reads: its most bytes, its time limit, the most characters of its text given to the model. */
  WEB_PAGE_MAX_BYTES: z.coerce.number().int().min(1_000).max(20_000_000).default(2_000_000),
  WEB_PAGE_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
  WEB_PAGE_MAX_CHARS: z.coerce.number().int().min(500).max(100_000).default(12_000),
  /**
   * Hosts the outbound guard lets tools reach at private addresses (host or host:port, comma-separated):
   * an operator's own MCP servers or intranet pages. Everything else must resolve to public addresses.
   */
  TOOLS_PRIVATE_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim())
        .filter(Boolean),
    ),
  /**
   * MCP servers an operator offers to everyone, as JSON: [{"name": "Docs", "url": "https://...", "token": "..."}]
   * (token optional). Their tools are listed on first use and again every 5 minutes.
   */
  MCP_SERVERS: z
    .string()
    .default('[]')
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .array(
          z
            .object({
              name: z
                .string()
                .trim()
                .min(1)
                .max(40)
                .regex(/^[\p{L}\p{N} _.-]+$/u),
              url: z.url({ protocol: /^https?$/ }),
              token: z.string().min(1).optional(),
            })
            .strict(),
        )
        .max(20),
    ),
  /** Where the portal is (an MCP server's OAuth authorisation comes back to <PUBLIC_URL>/settings/mcp-callback). */
  PUBLIC_URL: url.default('http://127.0.0.1:8080'),
  /** Users' MCP servers: one exchange's time limit, the most bytes of one answer, servers per user. */
  MCP_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(20_000),
  MCP_MAX_BYTES: z.coerce.number().int().min(10_000).max(50_000_000).default(1_000_000),
  MCP_MAX_SERVERS: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Seals users' MCP access tokens at rest (AES-256-GCM; 32 bytes, base64: openssl rand -base64 32).
   * Required in production to keep tokens; elsewhere one is made once under DATA_DIR.
   */
  TOOLS_ENCRYPTION_KEY: z
    .string()
    .trim()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 random bytes in base64 (openssl rand -base64 32)')
    .optional(),
  /** Reminders: how often due ones are looked for, how long one replica holds one it delivers. */
  REMINDER_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  REMINDER_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** A reminder delivered this long after its time says how late it is. */
  REMINDER_LATE_AFTER_MS: z.coerce.number().int().min(0).max(86_400_000).default(120_000),
  /** Pending reminders per user. */
  REMINDER_MAX_PENDING: z.coerce.number().int().min(1).max(10_000).default(100),
  /** Quiet hours by default, local time (HH:MM): no reminder texts then unless the reminder was asked for then. */
  REMINDER_QUIET_START: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM')
    .default('22:00'),
  REMINDER_QUIET_END: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM')
    .default('08:00'),
  /** The persona replies are signed with. */
  CHAT_EXPERT_ID: z.string().default('assistant'),
  CHAT_EXPERT_NAME: z.string().default('Assistant'),
  /** How long the model may stay silent (first token included) before the reply is cut. */
  LLM_STALL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  /** The whole reply's limit. */
  LLM_TOTAL_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(1_800_000).default(300_000),
  /** Messages of the active history sent to the model. */
  CHAT_CONTEXT_MESSAGES: z.coerce.number().int().min(1).max(500).default(40),
  /** Messages a day (per UTC day) before 429. */
  CHAT_GUEST_DAILY_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(50),
  CHAT_USER_DAILY_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(500),
  /**
   * A reply being written is saved every second and its lease renewed; a reply whose lease has run
   * out (its process died) is stored as cut short, with what was saved, within about 1.5 times this.
   */
  CHAT_REPLY_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(15_000),
  /**
   * Writes of replies being written (lease renewals, final saves, checkpoints) run at most this many
   * at once, the others waiting their turn in memory; default half of DB_POOL_MAX (never more than it).
   */
  CHAT_REPLY_WRITE_CONCURRENCY: z.coerce.number().int().min(1).max(100).optional(),
  /** A reply's final save is tried this many times while it fails with a transient error (waits from 0.1 s, doubling, to 5 s). */
  CHAT_REPLY_SAVE_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(10),
  /**
   * Delay between the offline model's words: 30 ms streams at about the pace of a hosted model
   * (30-40 words a second), so the demo shows a reply being written and read aloud while it is.
   */
  OFFLINE_TOKEN_DELAY_MS: z.coerce.number().int().min(0).max(1_000).default(30),
  /** How long a temporary chat lives at most (its user closing it deletes it sooner). */
  CHAT_TEMPORARY_CHAT_TTL_SECONDS: z.coerce.number().int().min(1).max(2_592_000).default(86_400),
  /** How often the temporary chats whose time is up are deleted. */
  CHAT_TEMPORARY_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Imports of ChatGPT and Claude history (issue 25): how many run at once across every replica (one per user always). */
  IMPORT_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** Bounds of an export zip: its entries, their uncompressed bytes in all and each, and the compression ratio of any big entry. */
  IMPORT_MAX_ENTRIES: z.coerce.number().int().min(1).max(1_000_000).default(100_000),
  IMPORT_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 ** 3)
    .default(4 * 1024 ** 3),
  IMPORT_MAX_ENTRY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 ** 3)
    .default(1024 ** 3),
  IMPORT_MAX_RATIO: z.coerce.number().int().min(2).max(10_000).default(200),
  /** The largest single conversation of an export (its JSON), in bytes. */
  IMPORT_MAX_CONVERSATION_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 3)
    .default(64 * 1024 ** 2),
  /** Where an import's zip is kept while it is read (deleted after); default the system's temporary folder. */
  IMPORT_TMP_DIR: z.string().min(1).optional(),
});
export type ChatConfig = z.output<typeof chatEnvSchema>;
export type ProviderName = 'openai' | 'openai-compatible' | 'offline';

/** The web search engine: the one chosen, else SearXNG when its URL is set, else Brave when its key is, else none. */
export function searchEngineOf(config: ChatConfig): 'searxng' | 'brave' | null {
  const chosen = config.WEB_SEARCH_PROVIDER;
  if (chosen === 'off') return null;
  if (chosen === 'searxng' || (!chosen && config.SEARXNG_URL)) return config.SEARXNG_URL ? 'searxng' : null;
  if (chosen === 'brave' || (!chosen && config.BRAVE_SEARCH_API_KEY)) return config.BRAVE_SEARCH_API_KEY ? 'brave' : null;
  return null;
}

/** openai with only a key; openai-compatible (Chat Completions) once a base URL is given; else offline. */
export function providerOf(config: ChatConfig): ProviderName {
  if (config.LLM_PROVIDER) return config.LLM_PROVIDER;
  if (config.OPENAI_BASE_URL) return 'openai-compatible';
  return config.OPENAI_API_KEY ? 'openai' : 'offline';
}
