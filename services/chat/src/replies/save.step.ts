import { Inject, Injectable } from '@nestjs/common';
import { toSafeText } from '@app/contracts';
import { AppLogger } from '@app/platform';
import { ChatRepository, type ExchangeCompleted } from '../conversations/chat.repository';
import { usesNoMemory } from '../conversations/conversation.entity';
import { replyMetadata, type ReplyContext } from './reply-context';
import { REPLY_NOT_SAVED, StorageFailure } from './reply-failure';
import { ReplyWrites } from './reply-writes';

/**
 * Step 4: the reply's row written for good, complete or (when a step ended it early) incomplete
 * with what came; the conversation moves to it. A complete exchange's event is enqueued in the same
 * transaction (the memory service learns from it, the chat titles the conversation): it is sent if
 * and only if the reply is stored. The write waits its turn in ReplyWrites (replies ending by the
 * thousand together) and is tried again while it fails with a transient error. Fails with a
 * StorageFailure once its attempts are spent; the row then stays `streaming` with what was last
 * saved, and ReplyRecovery stores it as incomplete once its lease runs out.
 */
@Injectable()
export class SaveStep {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'finishReply'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(ReplyWrites) private readonly writes: Pick<ReplyWrites, 'final'>,
  ) {}

  async run(ctx: ReplyContext): Promise<void> {
    const { reply, conversation, userMessage, failure } = ctx;
    // What is stored, told in assistant_message and learnt from is the same text, less what
    // PostgreSQL cannot hold (a model may answer NUL or half a surrogate pair).
    reply.content = toSafeText(ctx.text);
    ctx.reasoning = toSafeText(ctx.reasoning);
    reply.status = failure ? 'incomplete' : 'complete';
    reply.metadata = { ...replyMetadata(ctx), ...(failure ? { incomplete: true } : {}), duration_ms: Date.now() - ctx.startedAt };
    // A shared conversation (an SMS group) teaches nothing: its words are several people's; nor does a temporary chat.
    const exchange: ExchangeCompleted | null =
      failure || usesNoMemory(conversation)
        ? null
        : {
            user_id: conversation.userId,
            chat_id: conversation.id,
            user_message_id: userMessage.id,
            assistant_message_id: reply.id,
            user_text: userMessage.content,
            assistant_text: reply.content,
          };
    let stored: boolean;
    try {
      stored = await this.writes.final(() => this.repo.finishReply(reply, conversation.id, exchange));
    } catch (error) {
      throw new StorageFailure(REPLY_NOT_SAVED, { cause: error });
    }
    if (!stored)
      this.logger.warn({ msg: 'The conversation was deleted while its reply was written', chat_id: conversation.id }, 'SaveStep');
  }
}
