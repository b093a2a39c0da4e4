import { Inject, Injectable } from '@nestjs/common';
import { AppLogger, SERVICE_CONFIG } from '@app/platform';
import type { ChatConfig } from '../config';
import { ChatRepository } from '../conversations/chat.repository';
import { ReplyCheckpoints } from './reply-checkpoints';
import { ReplyLeases } from './reply-leases';
import { ReplyWrites } from './reply-writes';
import { replyMetadata, type ReplyContext } from './reply-context';

/** How often a reply being written is saved (when it changed). */
const CHECKPOINT_MS = 1_000;

/**
 * While a reply is written: what it has so far is saved every second when it changed (through
 * ReplyWrites, after the final saves waiting), and its lease is renewed with the other replies'
 * (ReplyLeases) until its final save is over (`end`), so a process that dies leaves it to
 * ReplyRecovery with what was saved.
 */
@Injectable()
export class CheckpointStep {
  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'checkpointReply'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'warn'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_REPLY_LEASE_MS'>,
    @Inject(ReplyLeases) private readonly leases: Pick<ReplyLeases, 'hold' | 'release'>,
    @Inject(ReplyWrites) private readonly writes: Pick<ReplyWrites, 'checkpoint'>,
  ) {}

  /** Starts saving `ctx` and holding its lease; `stop()` ends the saving once a save under way is over, `end` the lease. */
  start(ctx: ReplyContext): ReplyCheckpoints {
    const leaseMs = this.config.CHAT_REPLY_LEASE_MS;
    this.leases.hold(ctx.reply.id);
    const checkpoints = new ReplyCheckpoints({
      save: (stopped) =>
        this.writes.checkpoint(() => this.repo.checkpointReply(ctx.reply.id, ctx.text, replyMetadata(ctx), leaseMs), stopped),
      version: () =>
        `${ctx.text.length}/${ctx.reasoning.length}/${ctx.images.length}/${ctx.memories.length}/${ctx.toolRuns.length}/${ctx.citations.length}`,
      intervalMs: Math.min(CHECKPOINT_MS, leaseMs / 3),
      onError: (error) =>
        this.logger.warn({ msg: 'Could not save the reply so far', error: String(error), chat_id: ctx.conversation.id }, 'CheckpointStep'),
    });
    checkpoints.start();
    return checkpoints;
  }

  /** The reply's final save is over (stored or not): its lease is no longer renewed. */
  end(ctx: ReplyContext): void {
    this.leases.release(ctx.reply.id);
  }
}
