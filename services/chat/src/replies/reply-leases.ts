import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { AppLogger, runPeriodically, SERVICE_CONFIG, type Periodic } from '@app/platform';
import type { ChatConfig } from '../config';
import { ChatRepository } from '../conversations/chat.repository';
import { ReplyWrites } from './reply-writes';

/** How many replies one renewal statement names at most. */
export const LEASES_PER_STATEMENT = 1_000;

/**
 * The leases of the replies this process is writing, renewed together: every third of the lease,
 * one statement for up to a thousand of them (5,000 replies waiting on a silent model: one or a
 * few statements every 5 s, where each reply's own renewal made 1,000 a second and starved the
 * connection pool). A reply's saves of what it has so far renew its lease too (CheckpointStep). A
 * reply is held until its final save is over (ReplyPipeline). Renewals go first through ReplyWrites.
 */
@Injectable()
export class ReplyLeases implements OnApplicationShutdown {
  private readonly held = new Set<string>();
  private periodic?: Periodic;

  constructor(
    @Inject(ChatRepository) private readonly repo: Pick<ChatRepository, 'renewLeases'>,
    @Inject(AppLogger) private readonly logger: Pick<AppLogger, 'error'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<ChatConfig, 'CHAT_REPLY_LEASE_MS'>,
    @Inject(ReplyWrites) private readonly writes: Pick<ReplyWrites, 'lease'>,
  ) {}

  /** From now on, `replyId`'s lease is renewed with the others' until `release`. */
  hold(replyId: string): void {
    this.held.add(replyId);
    this.periodic ??= runPeriodically(() => this.renew(), this.config.CHAT_REPLY_LEASE_MS / 3, this.logger, 'ReplyLeases');
  }

  release(replyId: string): void {
    this.held.delete(replyId);
    if (this.held.size > 0) return;
    this.periodic?.stop();
    this.periodic = undefined;
  }

  /** Renews every held lease now, naming at most `perStatement` replies in each statement. */
  async renew(perStatement = LEASES_PER_STATEMENT): Promise<void> {
    const ids = [...this.held];
    for (let i = 0; i < ids.length; i += perStatement)
      await this.writes.lease(() => this.repo.renewLeases(ids.slice(i, i + perStatement), this.config.CHAT_REPLY_LEASE_MS));
  }

  onApplicationShutdown(): void {
    this.periodic?.stop();
    this.periodic = undefined;
  }
}
