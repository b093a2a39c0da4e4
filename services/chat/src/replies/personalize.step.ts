import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { MEMORY_RPC, type RelevantMemory } from '@app/contracts/memory';
import { AppLogger, RpcClient } from '@app/platform';
import { usesNoMemory, type ConversationEntity } from '../conversations/conversation.entity';
import { InsiderFlagsCache } from './insider-flags.cache';
import type { Personalization, ReplyContext } from './reply-context';

/** How long personalization may hold a reply back: past it, the reply goes on without. */
export const PERSONALIZE_TIMEOUT_MS = 3_000;
const MEMORY_LIMIT = 8;

const NOTHING: Personalization = { memories: [], showQuery: false };

/**
 * Step 1: what the assistant knows about the user that bears on the message (the memory
 * service), and their insider flags (kept for a moment, see InsiderFlagsCache): with
 * `show_rewritten_user_message` the query is shown back to them. Neither is worth failing a reply
 * for: without an answer, the reply goes on without.
 */
@Injectable()
export class PersonalizeStep {
  constructor(
    @Inject(RpcClient) private readonly rpc: Pick<RpcClient, 'call'> & Partial<Pick<RpcClient, 'isKnownDown'>>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(InsiderFlagsCache) private readonly flags: Pick<InsiderFlagsCache, 'showsRewrittenQuery'>,
  ) {}

  /**
   * Looks for what personalizes a reply to `text`. Never fails: without an answer, nothing. The
   * chat starts it as soon as the message is stored (`RepliesService.send`: the statement that
   * stores it also finds the conversation), so the search runs while the tools are listed; `run`
   * then waits for it.
   */
  look(caller: Caller, conversation: Pick<ConversationEntity, 'isShared' | 'expiresAt'>, text: string): Promise<Personalization> {
    // A shared conversation (an SMS group) is answered with nobody's memories; a temporary chat with none either.
    if (usesNoMemory(conversation)) return Promise.resolve(NOTHING);
    return Promise.all([
      this.memoriesFor(caller, text),
      this.flags.showsRewrittenQuery(caller).catch((error: unknown) => {
        this.logger.warn({ msg: 'Answering without the insider flags', error: String(error) }, 'PersonalizeStep');
        return false;
      }),
    ]).then(([memories, showQuery]) => ({ memories, showQuery }));
  }

  async run(ctx: ReplyContext): Promise<void> {
    if (usesNoMemory(ctx.conversation)) return;
    ctx.emit({ event: 'phase', data: { phase: 'personalizing' } });
    const { memories, showQuery } = await (ctx.personalized ?? this.look(ctx.caller, ctx.conversation, ctx.userMessage.content));
    ctx.memories = memories;
    if (showQuery) {
      ctx.rewrittenQuery = ctx.userMessage.content.replace(/\s+/g, ' ').trim();
      ctx.emit({ event: 'rewritten_query', data: { text: ctx.rewrittenQuery } });
    }
  }

  private async memoriesFor(caller: Caller, query: string): Promise<RelevantMemory[]> {
    // The memory service stopped answering (its circuit is open): the reply goes on at once without.
    if (this.rpc.isKnownDown?.(MEMORY_RPC.relevant.subject)) return [];
    try {
      const answer = await this.rpc.call(MEMORY_RPC.relevant, { query: query.slice(0, 32_000), limit: MEMORY_LIMIT }, caller, {
        timeoutMs: PERSONALIZE_TIMEOUT_MS,
      });
      return answer.memories;
    } catch (error) {
      this.logger.warn({ msg: 'Answering without memories', error: String(error) }, 'PersonalizeStep');
      return [];
    }
  }
}
