import type { Caller } from '@app/contracts';
import type { Citation, FileReference, ReplyEvent, ToolRun } from '@app/contracts/chat';
import type { RelevantMemory } from '@app/contracts/memory';
import type { ConversationEntity } from '../conversations/conversation.entity';
import type { LlmToolCall, LlmToolSpec, LlmTurn, ProviderDescriptor } from '../llm/llm-provider';
import { ToolSet } from '../tools/tool-registry';
import type { ModelChoice } from '../llm/model-choice';
import type { MessageEntity } from '../conversations/message.entity';
import type { ReplyFailure } from './reply-failure';

/** What personalizes a reply: the memories that bear on the message, and whether to show the query back. */
export interface Personalization {
  memories: RelevantMemory[];
  showQuery: boolean;
}

export type Emit = (event: ReplyEvent) => void;

/**
 * One reply on its way through the pipeline: what it was given, then what each step found or
 * made, in the order the steps run. Every step reads and writes this one object.
 */
export interface ReplyContext {
  readonly caller: Caller;
  readonly conversation: ConversationEntity;
  /** The message being answered. */
  readonly userMessage: MessageEntity;
  /** The reply's row, stored `streaming` before the pipeline starts; the store step writes it for good. */
  readonly reply: MessageEntity;
  readonly choice: ModelChoice;
  readonly provider: ProviderDescriptor;
  /** Aborted to end the reply early; its reason says why (a stop, a timeout, the shutdown). */
  readonly stop: AbortController;
  /** Sends an event to whoever listens (nobody, once the client has gone: the reply goes on). */
  readonly emit: Emit;
  readonly startedAt: number;
  /** Personalization already under way (started as the user message was sent), if it was. */
  readonly personalized?: Promise<Personalization>;
  /** The conversation's messages, when the start read them with its writes (else the prompt step reads them). */
  readonly history?: MessageEntity[];

  /** Personalize: the user's memories relevant to the message, and the query as shown to insiders. */
  memories: RelevantMemory[];
  rewrittenQuery: string | null;
  /** Build the prompt: the instructions and the turns of the active history. */
  prompt: { system: string; turns: LlmTurn[] };
  /** Stream: what the model wrote, thought and drew, and which request and model answered. */
  text: string;
  reasoning: string;
  images: FileReference[];
  served: { requestId: string | null; model: string | null };
  /** Tools: those this reply may use, those offered in the next call to the model (none once the steps are spent). */
  toolSet: ToolSet;
  offeredTools: LlmToolSpec[];
  /** The model's last call: what it wrote and the tools it asked for (run by the tools step). */
  round: { text: string; calls: LlmToolCall[] };
  /** Rounds of tool calls made so far, and every call with its outcome (kept in the metadata). */
  toolSteps: number;
  toolRuns: ToolRun[];
  /** The sources tools found (search results, pages read), numbered for the reply's [n] markers. */
  citations: Citation[];
  /** Set when a step ended the reply early. */
  failure: ReplyFailure | null;
}

export type ReplyGiven = Pick<
  ReplyContext,
  'caller' | 'conversation' | 'userMessage' | 'reply' | 'choice' | 'provider' | 'stop' | 'emit' | 'personalized' | 'history'
>;

export function newReplyContext(given: ReplyGiven): ReplyContext {
  return {
    ...given,
    startedAt: Date.now(),
    memories: [],
    rewrittenQuery: null,
    prompt: { system: '', turns: [] },
    text: '',
    reasoning: '',
    images: [],
    served: { requestId: null, model: null },
    toolSet: new ToolSet([]),
    offeredTools: [],
    round: { text: '', calls: [] },
    toolSteps: 0,
    toolRuns: [],
    citations: [],
    failure: null,
  };
}

/** What the reply's row says about it (its metadata) at any moment, from its first one. */
export function replyMetadata(
  ctx: Pick<ReplyContext, 'choice' | 'provider' | 'served' | 'memories' | 'images' | 'rewrittenQuery' | 'reasoning'> &
    Partial<Pick<ReplyContext, 'toolRuns' | 'citations'>>,
): Record<string, unknown> {
  return {
    model: ctx.served.model ?? ctx.choice.model,
    provider: ctx.provider.id,
    provider_label: ctx.provider.label,
    offline: ctx.provider.offline,
    provider_request_id: ctx.served.requestId,
    auto_selected: ctx.choice.autoSelected,
    memory_ids: ctx.memories.map((m) => m.user_memory_id),
    files: ctx.images,
    ...(ctx.rewrittenQuery ? { rewritten_query: ctx.rewrittenQuery } : {}),
    ...(ctx.reasoning ? { reasoning: ctx.reasoning } : {}),
    ...(ctx.toolRuns?.length ? { tools: ctx.toolRuns } : {}),
    ...(ctx.citations?.length ? { citations: ctx.citations } : {}),
  };
}
